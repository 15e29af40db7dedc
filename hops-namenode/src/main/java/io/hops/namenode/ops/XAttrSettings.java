package io.hops.namenode.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.AclException;

/**
 * Whether the calls on extended attributes and on ACLs (kept as a hidden attribute in the same
 * table) are served, and HDFS's limits on attributes, read from the configuration once at start as
 * HDFS's namenode reads them (FSDirectory); the checks answer with HDFS's errors.
 *
 * @param xattrsEnabled {@code dfs.namenode.xattrs.enabled}
 * @param maxSize {@code dfs.namenode.fs-limits.max-xattr-size}: name (UTF-8) and value together
 * @param maxPerInode {@code dfs.namenode.fs-limits.max-xattrs-per-inode}: user-visible (user and
 *     trusted) attributes
 * @param aclsEnabled {@code dfs.namenode.acls.enabled}
 */
public record XAttrSettings(
    boolean xattrsEnabled, int maxSize, int maxPerInode, boolean aclsEnabled) {

  public static XAttrSettings of(Configuration conf) {
    return new XAttrSettings(
        conf.getBoolean(
            DFSConfigKeys.DFS_NAMENODE_XATTRS_ENABLED_KEY,
            DFSConfigKeys.DFS_NAMENODE_XATTRS_ENABLED_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_KEY,
            DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_MAX_XATTRS_PER_INODE_KEY,
            DFSConfigKeys.DFS_NAMENODE_MAX_XATTRS_PER_INODE_DEFAULT),
        conf.getBoolean(
            DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY,
            DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_DEFAULT));
  }

  /** When attributes are off every call on them is refused with HDFS's message. */
  void checkXAttrsEnabled() throws IOException {
    if (!xattrsEnabled) {
      throw new IOException(
          String.format(
              "The XAttr operation has been rejected.  "
                  + "Support for XAttrs has been disabled by setting %s to false.",
              DFSConfigKeys.DFS_NAMENODE_XATTRS_ENABLED_KEY));
    }
  }

  /** When ACLs are off every ACL call is refused with HDFS's message. */
  void checkAclsEnabled() throws AclException {
    if (!aclsEnabled) {
      throw new AclException(
          String.format(
              "The ACL operation has been rejected.  "
                  + "Support for ACLs has been disabled by setting %s to false.",
              DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY));
    }
  }

  /** The attribute's name (UTF-8) and value together within {@link #maxSize}. */
  void checkSize(XAttr xAttr) {
    int size = xAttr.getName().getBytes(StandardCharsets.UTF_8).length;
    if (xAttr.getValue() != null) {
      size += xAttr.getValue().length;
    }
    if (size > maxSize) {
      throw new HadoopIllegalArgumentException(
          "The XAttr is too big. The maximum combined size of the name and value is "
              + maxSize
              + ", but the total size is "
              + size);
    }
  }
}
