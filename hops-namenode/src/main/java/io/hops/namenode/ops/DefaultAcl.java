package io.hops.namenode.ops;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
import io.hops.namenode.tx.ExecutePhase;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The mode and ACL of a new file or directory under a parent with a default ACL (HDFS-6962, POSIX
 * inheritance, on by default): the default ACL filtered by the client's unmasked mode replaces the
 * umask; without one the child keeps its masked mode (FSDirectory.copyINodeDefaultAcl).
 */
final class DefaultAcl {
  private DefaultAcl() {}

  /** The stored ACL of an existing parent, as its path's resolution read it, or null. */
  static InodeAcl of(InodeRow parent) {
    return InodeFlags.hasAcl(parent.permission()) ? LoadedAcls.get(parent.id()) : null;
  }

  /**
   * Gives {@code child} (new, not yet written) its mode from {@code modes} and, if {@code
   * parentAcl} has a default part, the inherited ACL, buffering its row; returns the child's stored
   * ACL.
   */
  static InodeAcl apply(ExecutePhase tx, InodeAcl parentAcl, MutableInode child, FsPermission modes)
      throws StorageException {
    InodeAcl.Change inherited = null;
    if (parentAcl != null) {
      FsPermission unmasked = modes.getUnmasked();
      inherited = parentAcl.inherit(unmasked != null ? unmasked : modes, child.isDir);
    }
    if (inherited == null) {
      child.permission = modes.toShort();
      return null;
    }
    child.permission = inherited.mode().toShort();
    if (inherited.acl() != null) {
      child.permission = InodeFlags.set(child.permission, InodeFlags.ACL, true);
      tx.insert(XAttrRow.TABLE, inherited.acl().toRow(child.id));
    }
    return inherited.acl();
  }
}
