package io.hops.namenode.ops;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.security.UsersAndGroups;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/** The statuses clients see of inodes: a row's fields, its owner and group by name. */
public final class FileStatuses {
  /**
   * Every mode a status can carry (nine bits and the sticky bit: all that an {@code FsPermission}
   * keeps of a short), built once: a listing would otherwise build one per entry. Shared, so never
   * changed: the statuses only carry them to the wire.
   */
  private static final FsPermission[] MODES = new FsPermission[1 << 10];

  static {
    for (int m = 0; m < MODES.length; m++) {
      MODES[m] = new FsPermission((short) m);
    }
  }

  private final UsersAndGroups users;
  private final boolean snapshots;

  /**
   * {@code snapshots}: whether this namenode serves snapshots; then a snapshottable directory's
   * status says so ({@code SNAPSHOT_ENABLED}), and the root's always, as in HDFS, whose root is
   * snapshottable from its creation (with a snapshot quota of 0 until {@code allowSnapshot}).
   */
  public FileStatuses(UsersAndGroups users, boolean snapshots) {
    this.users = users;
    this.snapshots = snapshots;
  }

  /** The status of an inode; {@code localName} is empty for getFileInfo. */
  public HdfsFileStatus status(InodeRow inode, byte[] localName) throws StorageException {
    return status(inode, localName, inode.storagePolicy());
  }

  /** As {@link #status(InodeRow, byte[])}, reporting {@code storagePolicy} (the effective one). */
  public HdfsFileStatus status(InodeRow inode, byte[] localName, byte storagePolicy)
      throws StorageException {
    return new HdfsFileStatus.Builder()
        .isdir(inode.isDir())
        .flags(flags(inode))
        .length(inode.isDir() ? 0 : inode.size())
        .replication(inode.isDir() ? 0 : inode.replication())
        .blocksize(inode.isDir() ? 0 : inode.preferredBlockSize())
        .mtime(inode.modificationTime())
        .atime(inode.accessTime())
        .perm(MODES[inode.permission() & 0x3FF])
        .owner(users.userName(inode.userId()))
        .group(users.groupName(inode.groupId()))
        .symlink(inode.symlink() == null ? null : inode.symlink().getBytes(StandardCharsets.UTF_8))
        .path(localName)
        .fileId(inode.id())
        .children(inode.isDir() ? inode.childrenCount() : 0)
        .storagePolicy(storagePolicy)
        .build();
  }

  private EnumSet<HdfsFileStatus.Flags> flags(InodeRow inode) {
    EnumSet<HdfsFileStatus.Flags> flags = EnumSet.noneOf(HdfsFileStatus.Flags.class);
    if (InodeFlags.hasAcl(inode.permission())) {
      flags.add(HdfsFileStatus.Flags.HAS_ACL);
    }
    if (snapshots && inode.isDir() && (inode.snapshottable() || inode.id() == Inodes.ROOT_ID)) {
      flags.add(HdfsFileStatus.Flags.SNAPSHOT_ENABLED);
    }
    return flags;
  }
}
