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

  /**
   * The flags of most statuses, shared as {@link #MODES} are: a status reads its flags as it is
   * built and keeps none of them ({@code HdfsFileStatus.convert}), so this set is never changed.
   */
  private static final EnumSet<HdfsFileStatus.Flags> NO_FLAGS =
      EnumSet.noneOf(HdfsFileStatus.Flags.class);

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
    return status(
        inode,
        localName,
        storagePolicy,
        users.userName(inode.userId()),
        users.groupName(inode.groupId()));
  }

  /** The statuses of one listing page, built one after the other by one thread. */
  public Page page() {
    return new Page();
  }

  /**
   * Statuses of many inodes at once (a listing page): the entries of a directory mostly share one
   * owner and group, so each is looked up once per run of equal ids rather than twice per entry (a
   * map read and a shared hit counter each time were a seventh of a 1,000-entry page's CPU).
   */
  public final class Page {
    private int userId;
    private String user;
    private int groupId;
    private String group;

    private Page() {}

    /** As {@link FileStatuses#status(InodeRow, byte[], byte)}. */
    public HdfsFileStatus status(InodeRow inode, byte[] localName, byte storagePolicy)
        throws StorageException {
      if (user == null || inode.userId() != userId) {
        user = users.userName(inode.userId());
        userId = inode.userId();
      }
      if (group == null || inode.groupId() != groupId) {
        group = users.groupName(inode.groupId());
        groupId = inode.groupId();
      }
      return FileStatuses.this.status(inode, localName, storagePolicy, user, group);
    }
  }

  private HdfsFileStatus status(
      InodeRow inode, byte[] localName, byte storagePolicy, String owner, String group) {
    return new HdfsFileStatus.Builder()
        .isdir(inode.isDir())
        .flags(flags(inode))
        .length(inode.isDir() ? 0 : inode.size())
        .replication(inode.isDir() ? 0 : inode.replication())
        .blocksize(inode.isDir() ? 0 : inode.preferredBlockSize())
        .mtime(inode.modificationTime())
        .atime(inode.accessTime())
        .perm(MODES[inode.permission() & 0x3FF])
        .owner(owner)
        .group(group)
        .symlink(inode.symlink() == null ? null : inode.symlink().getBytes(StandardCharsets.UTF_8))
        .path(localName)
        .fileId(inode.id())
        .children(inode.isDir() ? inode.childrenCount() : 0)
        .storagePolicy(storagePolicy)
        .build();
  }

  private EnumSet<HdfsFileStatus.Flags> flags(InodeRow inode) {
    boolean acl = InodeFlags.hasAcl(inode.permission());
    boolean snapshotEnabled =
        snapshots && inode.isDir() && (inode.snapshottable() || inode.id() == Inodes.ROOT_ID);
    if (!acl && !snapshotEnabled) {
      return NO_FLAGS;
    }
    EnumSet<HdfsFileStatus.Flags> flags = EnumSet.noneOf(HdfsFileStatus.Flags.class);
    if (acl) {
      flags.add(HdfsFileStatus.Flags.HAS_ACL);
    }
    if (snapshotEnabled) {
      flags.add(HdfsFileStatus.Flags.SNAPSHOT_ENABLED);
    }
    return flags;
  }
}
