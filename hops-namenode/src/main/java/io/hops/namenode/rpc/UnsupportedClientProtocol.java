package io.hops.namenode.rpc;

/**
 * Every {@link org.apache.hadoop.hdfs.protocol.ClientProtocol} method, refusing with an {@link
 * UnsupportedOperationException} that names it. {@link ClientRpc} overrides what hops implements,
 * so nothing is a silent stub. Generated from the Hadoop 3.5.0 interface.
 */
@SuppressWarnings({"deprecation", "unused"})
public abstract class UnsupportedClientProtocol
    implements org.apache.hadoop.hdfs.protocol.ClientProtocol {

  /** The refusal of an operation hops does not implement yet. */
  static UnsupportedOperationException unsupported(String method) {
    return new UnsupportedOperationException(
        "ClientProtocol." + method + " is not supported by hops yet");
  }

  @Override
  public void abandonBlock(
      org.apache.hadoop.hdfs.protocol.ExtendedBlock a0,
      long a1,
      java.lang.String a2,
      java.lang.String a3)
      throws java.io.IOException {
    throw unsupported("abandonBlock");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.LocatedBlock addBlock(
      java.lang.String a0,
      java.lang.String a1,
      org.apache.hadoop.hdfs.protocol.ExtendedBlock a2,
      org.apache.hadoop.hdfs.protocol.DatanodeInfo[] a3,
      long a4,
      java.lang.String[] a5,
      java.util.EnumSet<org.apache.hadoop.hdfs.AddBlockFlag> a6)
      throws java.io.IOException {
    throw unsupported("addBlock");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.LastBlockWithStatus append(
      java.lang.String a0,
      java.lang.String a1,
      org.apache.hadoop.io.EnumSetWritable<org.apache.hadoop.fs.CreateFlag> a2)
      throws java.io.IOException {
    throw unsupported("append");
  }

  @Override
  public void checkAccess(java.lang.String a0, org.apache.hadoop.fs.permission.FsAction a1)
      throws java.io.IOException {
    throw unsupported("checkAccess");
  }

  @Override
  public boolean complete(
      java.lang.String a0,
      java.lang.String a1,
      org.apache.hadoop.hdfs.protocol.ExtendedBlock a2,
      long a3)
      throws java.io.IOException {
    throw unsupported("complete");
  }

  @Override
  public void concat(java.lang.String a0, java.lang.String[] a1) throws java.io.IOException {
    throw unsupported("concat");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.HdfsFileStatus create(
      java.lang.String a0,
      org.apache.hadoop.fs.permission.FsPermission a1,
      java.lang.String a2,
      org.apache.hadoop.io.EnumSetWritable<org.apache.hadoop.fs.CreateFlag> a3,
      boolean a4,
      short a5,
      long a6,
      org.apache.hadoop.crypto.CryptoProtocolVersion[] a7,
      java.lang.String a8,
      java.lang.String a9)
      throws java.io.IOException {
    throw unsupported("create");
  }

  @Override
  public boolean delete(java.lang.String a0, boolean a1) throws java.io.IOException {
    throw unsupported("delete");
  }

  @Override
  public void fsync(java.lang.String a0, long a1, java.lang.String a2, long a3)
      throws java.io.IOException {
    throw unsupported("fsync");
  }

  @Override
  public org.apache.hadoop.fs.permission.AclStatus getAclStatus(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getAclStatus");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.LocatedBlock getAdditionalDatanode(
      java.lang.String a0,
      long a1,
      org.apache.hadoop.hdfs.protocol.ExtendedBlock a2,
      org.apache.hadoop.hdfs.protocol.DatanodeInfo[] a3,
      java.lang.String[] a4,
      org.apache.hadoop.hdfs.protocol.DatanodeInfo[] a5,
      int a6,
      java.lang.String a7)
      throws java.io.IOException {
    throw unsupported("getAdditionalDatanode");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.BatchedDirectoryListing getBatchedListing(
      java.lang.String[] a0, byte[] a1, boolean a2) throws java.io.IOException {
    throw unsupported("getBatchedListing");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.LocatedBlocks getBlockLocations(
      java.lang.String a0, long a1, long a2) throws java.io.IOException {
    throw unsupported("getBlockLocations");
  }

  @Override
  public org.apache.hadoop.fs.ContentSummary getContentSummary(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getContentSummary");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.DatanodeInfo[] getDatanodeReport(
      org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType a0)
      throws java.io.IOException {
    throw unsupported("getDatanodeReport");
  }

  @Override
  public org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport[] getDatanodeStorageReport(
      org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType a0)
      throws java.io.IOException {
    throw unsupported("getDatanodeStorageReport");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ECBlockGroupStats getECBlockGroupStats()
      throws java.io.IOException {
    throw unsupported("getECBlockGroupStats");
  }

  @Override
  public org.apache.hadoop.fs.Path getEnclosingRoot(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getEnclosingRoot");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.HdfsFileStatus getFileInfo(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getFileInfo");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.HdfsFileStatus getFileLinkInfo(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getFileLinkInfo");
  }

  @Override
  public org.apache.hadoop.ha.HAServiceProtocol.HAServiceState getHAServiceState()
      throws java.io.IOException {
    throw unsupported("getHAServiceState");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.DirectoryListing getListing(
      java.lang.String a0, byte[] a1, boolean a2) throws java.io.IOException {
    throw unsupported("getListing");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus getLocatedFileInfo(
      java.lang.String a0, boolean a1) throws java.io.IOException {
    throw unsupported("getLocatedFileInfo");
  }

  @Override
  public long getPreferredBlockSize(java.lang.String a0) throws java.io.IOException {
    throw unsupported("getPreferredBlockSize");
  }

  @Override
  public org.apache.hadoop.fs.QuotaUsage getQuotaUsage(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getQuotaUsage");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats getReplicatedBlockStats()
      throws java.io.IOException {
    throw unsupported("getReplicatedBlockStats");
  }

  @Override
  public org.apache.hadoop.fs.FsServerDefaults getServerDefaults() throws java.io.IOException {
    throw unsupported("getServerDefaults");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.DatanodeInfo[] getSlowDatanodeReport()
      throws java.io.IOException {
    throw unsupported("getSlowDatanodeReport");
  }

  @Override
  public long[] getStats() throws java.io.IOException {
    throw unsupported("getStats");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.BlockStoragePolicy[] getStoragePolicies()
      throws java.io.IOException {
    throw unsupported("getStoragePolicies");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.BlockStoragePolicy getStoragePolicy(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getStoragePolicy");
  }

  @Override
  public java.util.List<org.apache.hadoop.fs.XAttr> getXAttrs(
      java.lang.String a0, java.util.List<org.apache.hadoop.fs.XAttr> a1)
      throws java.io.IOException {
    throw unsupported("getXAttrs");
  }

  @Override
  public boolean isFileClosed(java.lang.String a0) throws java.io.IOException {
    throw unsupported("isFileClosed");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.CorruptFileBlocks listCorruptFileBlocks(
      java.lang.String a0, java.lang.String a1) throws java.io.IOException {
    throw unsupported("listCorruptFileBlocks");
  }

  @Override
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.OpenFileEntry>
      listOpenFiles(long a0) throws java.io.IOException {
    throw unsupported("listOpenFiles");
  }

  @Override
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.OpenFileEntry>
      listOpenFiles(
          long a0,
          java.util.EnumSet<org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType> a1,
          java.lang.String a2)
          throws java.io.IOException {
    throw unsupported("listOpenFiles");
  }

  @Override
  public java.util.List<org.apache.hadoop.fs.XAttr> listXAttrs(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("listXAttrs");
  }

  @Override
  public void metaSave(java.lang.String a0) throws java.io.IOException {
    throw unsupported("metaSave");
  }

  @Override
  public boolean mkdirs(
      java.lang.String a0, org.apache.hadoop.fs.permission.FsPermission a1, boolean a2)
      throws java.io.IOException {
    throw unsupported("mkdirs");
  }

  @Override
  public void modifyAclEntries(
      java.lang.String a0, java.util.List<org.apache.hadoop.fs.permission.AclEntry> a1)
      throws java.io.IOException {
    throw unsupported("modifyAclEntries");
  }

  @Override
  public void msync() throws java.io.IOException {
    throw unsupported("msync");
  }

  @Override
  public boolean recoverLease(java.lang.String a0, java.lang.String a1) throws java.io.IOException {
    throw unsupported("recoverLease");
  }

  @Override
  public void refreshNodes() throws java.io.IOException {
    throw unsupported("refreshNodes");
  }

  @Override
  public void removeAcl(java.lang.String a0) throws java.io.IOException {
    throw unsupported("removeAcl");
  }

  @Override
  public void removeAclEntries(
      java.lang.String a0, java.util.List<org.apache.hadoop.fs.permission.AclEntry> a1)
      throws java.io.IOException {
    throw unsupported("removeAclEntries");
  }

  @Override
  public void removeDefaultAcl(java.lang.String a0) throws java.io.IOException {
    throw unsupported("removeDefaultAcl");
  }

  @Override
  public void removeXAttr(java.lang.String a0, org.apache.hadoop.fs.XAttr a1)
      throws java.io.IOException {
    throw unsupported("removeXAttr");
  }

  @Override
  public boolean rename(java.lang.String a0, java.lang.String a1) throws java.io.IOException {
    throw unsupported("rename");
  }

  @Override
  public void rename2(
      java.lang.String a0, java.lang.String a1, org.apache.hadoop.fs.Options.Rename... a2)
      throws java.io.IOException {
    throw unsupported("rename2");
  }

  @Override
  public void renewLease(java.lang.String a0, java.util.List<java.lang.String> a1)
      throws java.io.IOException {
    throw unsupported("renewLease");
  }

  @Override
  public void reportBadBlocks(org.apache.hadoop.hdfs.protocol.LocatedBlock[] a0)
      throws java.io.IOException {
    throw unsupported("reportBadBlocks");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo rollingUpgrade(
      org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction a0)
      throws java.io.IOException {
    throw unsupported("rollingUpgrade");
  }

  @Override
  public void satisfyStoragePolicy(java.lang.String a0) throws java.io.IOException {
    throw unsupported("satisfyStoragePolicy");
  }

  @Override
  public void setAcl(
      java.lang.String a0, java.util.List<org.apache.hadoop.fs.permission.AclEntry> a1)
      throws java.io.IOException {
    throw unsupported("setAcl");
  }

  @Override
  public void setOwner(java.lang.String a0, java.lang.String a1, java.lang.String a2)
      throws java.io.IOException {
    throw unsupported("setOwner");
  }

  @Override
  public void setPermission(java.lang.String a0, org.apache.hadoop.fs.permission.FsPermission a1)
      throws java.io.IOException {
    throw unsupported("setPermission");
  }

  @Override
  public void setQuota(java.lang.String a0, long a1, long a2, org.apache.hadoop.fs.StorageType a3)
      throws java.io.IOException {
    throw unsupported("setQuota");
  }

  @Override
  public boolean setReplication(java.lang.String a0, short a1) throws java.io.IOException {
    throw unsupported("setReplication");
  }

  @Override
  public boolean setSafeMode(
      org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction a0, boolean a1)
      throws java.io.IOException {
    throw unsupported("setSafeMode");
  }

  @Override
  public void setStoragePolicy(java.lang.String a0, java.lang.String a1)
      throws java.io.IOException {
    throw unsupported("setStoragePolicy");
  }

  @Override
  public void setTimes(java.lang.String a0, long a1, long a2) throws java.io.IOException {
    throw unsupported("setTimes");
  }

  @Override
  public void setXAttr(
      java.lang.String a0,
      org.apache.hadoop.fs.XAttr a1,
      java.util.EnumSet<org.apache.hadoop.fs.XAttrSetFlag> a2)
      throws java.io.IOException {
    throw unsupported("setXAttr");
  }

  @Override
  public boolean truncate(java.lang.String a0, long a1, java.lang.String a2)
      throws java.io.IOException {
    throw unsupported("truncate");
  }

  @Override
  public void unsetStoragePolicy(java.lang.String a0) throws java.io.IOException {
    throw unsupported("unsetStoragePolicy");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.LocatedBlock updateBlockForPipeline(
      org.apache.hadoop.hdfs.protocol.ExtendedBlock a0, java.lang.String a1)
      throws java.io.IOException {
    throw unsupported("updateBlockForPipeline");
  }

  @Override
  public void updatePipeline(
      java.lang.String a0,
      org.apache.hadoop.hdfs.protocol.ExtendedBlock a1,
      org.apache.hadoop.hdfs.protocol.ExtendedBlock a2,
      org.apache.hadoop.hdfs.protocol.DatanodeID[] a3,
      java.lang.String[] a4)
      throws java.io.IOException {
    throw unsupported("updatePipeline");
  }
}
