package io.hops.namenode.rpc;

/**
 * The {@link org.apache.hadoop.hdfs.protocol.ClientProtocol} methods hops still refuses, each with
 * an {@link UnsupportedOperationException} that names it, so nothing is a silent stub. {@link
 * ClientRpc} implements the rest and {@link FeaturesOff} answers the features hops does not have;
 * docs/architecture.md lists what remains here and why.
 */
@SuppressWarnings({"deprecation", "unused"})
public abstract class UnsupportedClientProtocol
    implements org.apache.hadoop.hdfs.protocol.ClientProtocol {

  /** The refusal of an operation hops does not implement yet. */
  static UnsupportedOperationException unsupported(String method) {
    return new UnsupportedOperationException(
        "ClientProtocol." + method + " is not supported by hops yet");
  }

  /** The refusal of an operation hops does not implement, and why. */
  static UnsupportedOperationException unsupported(String method, String reason) {
    return new UnsupportedOperationException(
        "ClientProtocol." + method + " is not supported by hops: " + reason);
  }

  @Override
  public void checkAccess(java.lang.String a0, org.apache.hadoop.fs.permission.FsAction a1)
      throws java.io.IOException {
    throw unsupported("checkAccess");
  }

  @Override
  public org.apache.hadoop.fs.permission.AclStatus getAclStatus(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getAclStatus");
  }

  @Override
  public org.apache.hadoop.fs.QuotaUsage getQuotaUsage(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("getQuotaUsage");
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
  public java.util.List<org.apache.hadoop.fs.XAttr> listXAttrs(java.lang.String a0)
      throws java.io.IOException {
    throw unsupported("listXAttrs");
  }

  @Override
  public void metaSave(java.lang.String a0) throws java.io.IOException {
    throw unsupported(
        "metaSave",
        "there is no in-memory block map to dump; use `hdfs fsck` and `hdfs dfsadmin -report`");
  }

  @Override
  public void modifyAclEntries(
      java.lang.String a0, java.util.List<org.apache.hadoop.fs.permission.AclEntry> a1)
      throws java.io.IOException {
    throw unsupported("modifyAclEntries");
  }

  @Override
  public void refreshNodes() throws java.io.IOException {
    throw unsupported(
        "refreshNodes",
        "hops reads no dfs.hosts / dfs.hosts.exclude files, so datanodes cannot be decommissioned");
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
  public void setQuota(java.lang.String a0, long a1, long a2, org.apache.hadoop.fs.StorageType a3)
      throws java.io.IOException {
    throw unsupported("setQuota");
  }

  @Override
  public void setStoragePolicy(java.lang.String a0, java.lang.String a1)
      throws java.io.IOException {
    throw unsupported("setStoragePolicy");
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
  public void unsetStoragePolicy(java.lang.String a0) throws java.io.IOException {
    throw unsupported("unsetStoragePolicy");
  }
}
