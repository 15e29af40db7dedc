package io.hops.namenode.resolve;

/**
 * Flags kept in the high bits of an inode's {@code permission} column, above HDFS's ten mode bits
 * (which {@code new FsPermission(short)} alone reads): whether the inode has an ACL, and whether it
 * has extended attributes. Both say that the inode has rows in {@code xattrs}, so a stat or a
 * delete of an inode without them reads nothing more. HDFS uses the same bit for the ACL on the
 * wire (FsPermissionExtension).
 */
public final class InodeFlags {
  /** The inode has an ACL row (HDFS's AclFeature). */
  public static final short ACL = 1 << 12;

  /** The inode has extended attribute rows. */
  public static final short XATTRS = 1 << 13;

  /** HDFS's mode: rwx for user, group and other, and the sticky bit. */
  public static final short MODE = 01777;

  private InodeFlags() {}

  public static boolean hasAcl(short permission) {
    return (permission & ACL) != 0;
  }

  public static boolean hasXAttrs(short permission) {
    return (permission & XATTRS) != 0;
  }

  /** Whether the inode has any row in {@code xattrs}. */
  public static boolean hasAttributeRows(short permission) {
    return (permission & (ACL | XATTRS)) != 0;
  }

  /** {@code mode}'s mode bits with {@code old}'s flags. */
  public static short withFlagsOf(short mode, short old) {
    return (short) ((mode & MODE) | (old & (ACL | XATTRS)));
  }

  public static short set(short permission, short flag, boolean on) {
    return (short) (on ? permission | flag : permission & ~flag);
  }
}
