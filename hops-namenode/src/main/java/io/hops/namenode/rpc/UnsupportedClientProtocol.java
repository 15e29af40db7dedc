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
  public long addCacheDirective(
      org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo a0,
      java.util.EnumSet<org.apache.hadoop.fs.CacheFlag> a1)
      throws java.io.IOException {
    throw unsupported("addCacheDirective");
  }

  @Override
  public void addCachePool(org.apache.hadoop.hdfs.protocol.CachePoolInfo a0)
      throws java.io.IOException {
    throw unsupported("addCachePool");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.AddErasureCodingPolicyResponse[] addErasureCodingPolicies(
      org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy[] a0) throws java.io.IOException {
    throw unsupported("addErasureCodingPolicies");
  }

  @Override
  public void allowSnapshot(java.lang.String a0) throws java.io.IOException {
    throw unsupported("allowSnapshot");
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
  public void cancelDelegationToken(
      org.apache.hadoop.security.token.Token<
              org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier>
          a0)
      throws java.io.IOException {
    throw unsupported("cancelDelegationToken");
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
  public void createEncryptionZone(java.lang.String a0, java.lang.String a1)
      throws java.io.IOException {
    throw unsupported("createEncryptionZone");
  }

  @Override
  public java.lang.String createSnapshot(java.lang.String a0, java.lang.String a1)
      throws java.io.IOException {
    throw unsupported("createSnapshot");
  }

  @Override
  public void createSymlink(
      java.lang.String a0,
      java.lang.String a1,
      org.apache.hadoop.fs.permission.FsPermission a2,
      boolean a3)
      throws java.io.IOException {
    throw unsupported("createSymlink");
  }

  @Override
  public boolean delete(java.lang.String a0, boolean a1) throws java.io.IOException {
    throw unsupported("delete");
  }

  @Override
  public void deleteSnapshot(java.lang.String a0, java.lang.String a1) throws java.io.IOException {
    throw unsupported("deleteSnapshot");
  }

  @Override
  public void disableErasureCodingPolicy(java.lang.String a0) throws java.io.IOException {
    throw unsupported("disableErasureCodingPolicy");
  }

  @Override
  public void disallowSnapshot(java.lang.String a0) throws java.io.IOException {
    throw unsupported("disallowSnapshot");
  }

  @Override
  public void enableErasureCodingPolicy(java.lang.String a0) throws java.io.IOException {
    throw unsupported("enableErasureCodingPolicy");
  }

  @Override
  public void finalizeUpgrade() throws java.io.IOException {
    throw unsupported("finalizeUpgrade");
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
  public long getCurrentEditLogTxid() throws java.io.IOException {
    throw unsupported("getCurrentEditLogTxid");
  }

  @Override
  public org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey getDataEncryptionKey()
      throws java.io.IOException {
    throw unsupported("getDataEncryptionKey");
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
  public org.apache.hadoop.security.token.Token<
          org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier>
      getDelegationToken(org.apache.hadoop.io.Text a0) throws java.io.IOException {
    throw unsupported("getDelegationToken");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ECBlockGroupStats getECBlockGroupStats()
      throws java.io.IOException {
    throw unsupported("getECBlockGroupStats");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ECTopologyVerifierResult getECTopologyResultForPolicies(
      java.lang.String[] a0) throws java.io.IOException {
    throw unsupported("getECTopologyResultForPolicies");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.EncryptionZone getEZForPath(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getEZForPath");
  }

  @Override
  public org.apache.hadoop.hdfs.inotify.EventBatchList getEditsFromTxid(long a0)
      throws java.io.IOException {
    throw unsupported("getEditsFromTxid");
  }

  @Override
  public org.apache.hadoop.fs.Path getEnclosingRoot(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getEnclosingRoot");
  }

  @Override
  public java.util.Map<java.lang.String, java.lang.String> getErasureCodingCodecs()
      throws java.io.IOException {
    throw unsupported("getErasureCodingCodecs");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo[] getErasureCodingPolicies()
      throws java.io.IOException {
    throw unsupported("getErasureCodingPolicies");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy getErasureCodingPolicy(
      java.lang.String a0) throws java.io.IOException {
    throw unsupported("getErasureCodingPolicy");
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
  public java.lang.String getLinkTarget(java.lang.String a0) throws java.io.IOException {
    throw unsupported("getLinkTarget");
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
  public org.apache.hadoop.hdfs.protocol.SnapshotDiffReport getSnapshotDiffReport(
      java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.io.IOException {
    throw unsupported("getSnapshotDiffReport");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing getSnapshotDiffReportListing(
      java.lang.String a0, java.lang.String a1, java.lang.String a2, byte[] a3, int a4)
      throws java.io.IOException {
    throw unsupported("getSnapshotDiffReportListing");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.SnapshotStatus[] getSnapshotListing(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getSnapshotListing");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] getSnapshottableDirListing()
      throws java.io.IOException {
    throw unsupported("getSnapshottableDirListing");
  }

  @Override
  public long[] getStats() throws java.io.IOException {
    throw unsupported("getStats");
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
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry>
      listCacheDirectives(long a0, org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo a1)
          throws java.io.IOException {
    throw unsupported("listCacheDirectives");
  }

  @Override
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.CachePoolEntry>
      listCachePools(java.lang.String a0) throws java.io.IOException {
    throw unsupported("listCachePools");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.CorruptFileBlocks listCorruptFileBlocks(
      java.lang.String a0, java.lang.String a1) throws java.io.IOException {
    throw unsupported("listCorruptFileBlocks");
  }

  @Override
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.EncryptionZone>
      listEncryptionZones(long a0) throws java.io.IOException {
    throw unsupported("listEncryptionZones");
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
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.ZoneReencryptionStatus>
      listReencryptionStatus(long a0) throws java.io.IOException {
    throw unsupported("listReencryptionStatus");
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
  public void modifyCacheDirective(
      org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo a0,
      java.util.EnumSet<org.apache.hadoop.fs.CacheFlag> a1)
      throws java.io.IOException {
    throw unsupported("modifyCacheDirective");
  }

  @Override
  public void modifyCachePool(org.apache.hadoop.hdfs.protocol.CachePoolInfo a0)
      throws java.io.IOException {
    throw unsupported("modifyCachePool");
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
  public void reencryptEncryptionZone(
      java.lang.String a0, org.apache.hadoop.hdfs.protocol.HdfsConstants.ReencryptAction a1)
      throws java.io.IOException {
    throw unsupported("reencryptEncryptionZone");
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
  public void removeCacheDirective(long a0) throws java.io.IOException {
    throw unsupported("removeCacheDirective");
  }

  @Override
  public void removeCachePool(java.lang.String a0) throws java.io.IOException {
    throw unsupported("removeCachePool");
  }

  @Override
  public void removeDefaultAcl(java.lang.String a0) throws java.io.IOException {
    throw unsupported("removeDefaultAcl");
  }

  @Override
  public void removeErasureCodingPolicy(java.lang.String a0) throws java.io.IOException {
    throw unsupported("removeErasureCodingPolicy");
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
  public void renameSnapshot(java.lang.String a0, java.lang.String a1, java.lang.String a2)
      throws java.io.IOException {
    throw unsupported("renameSnapshot");
  }

  @Override
  public long renewDelegationToken(
      org.apache.hadoop.security.token.Token<
              org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier>
          a0)
      throws java.io.IOException {
    throw unsupported("renewDelegationToken");
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
  public boolean restoreFailedStorage(java.lang.String a0) throws java.io.IOException {
    throw unsupported("restoreFailedStorage");
  }

  @Override
  public long rollEdits() throws java.io.IOException {
    throw unsupported("rollEdits");
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo rollingUpgrade(
      org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction a0)
      throws java.io.IOException {
    throw unsupported("rollingUpgrade");
  }

  @Override
  public boolean saveNamespace(long a0, long a1) throws java.io.IOException {
    throw unsupported("saveNamespace");
  }

  @Override
  public void setAcl(
      java.lang.String a0, java.util.List<org.apache.hadoop.fs.permission.AclEntry> a1)
      throws java.io.IOException {
    throw unsupported("setAcl");
  }

  @Override
  public void setBalancerBandwidth(long a0) throws java.io.IOException {
    throw unsupported("setBalancerBandwidth");
  }

  @Override
  public void setErasureCodingPolicy(java.lang.String a0, java.lang.String a1)
      throws java.io.IOException {
    throw unsupported("setErasureCodingPolicy");
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
  public void unsetErasureCodingPolicy(java.lang.String a0) throws java.io.IOException {
    throw unsupported("unsetErasureCodingPolicy");
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

  @Override
  public boolean upgradeStatus() throws java.io.IOException {
    throw unsupported("upgradeStatus");
  }
}
