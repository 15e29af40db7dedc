package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.SignedByteOrder;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * The entry {@code name} of directory {@code parentId} as it was at snapshot {@code snapshotId}:
 * written by the first change to the entry (its row updated, deleted, moved away, or a new row at
 * the name) after the latest snapshot covering it. {@code present} false: no inode had the name
 * then. Partitioned by the directory, so a directory's children as of a snapshot are its live
 * children and one pruned scan of this table: the entry at snapshot s is its earliest version with
 * {@code snapshotId >= s}, else the live row (docs/architecture.md, "Snapshots"). The other columns
 * are the inode's, as in {@link InodeRow}.
 */
@TableName("inode_versions")
public record InodeVersionRow(
    @Pk @PartitionKey long parentId,
    @Pk @SignedByteOrder @MaxBytes(255) String name,
    @Pk long snapshotId,
    boolean present,
    long id,
    boolean isDir,
    short permission,
    int userId,
    int groupId,
    long modificationTime,
    long accessTime,
    long size,
    short replication,
    long preferredBlockSize,
    boolean underConstruction,
    boolean fileStoredInDb,
    byte storagePolicy,
    int childrenCount,
    boolean hasQuota,
    @MaxBytes(8000) String symlink) {
  public static final Table<InodeVersionRow> TABLE = Table.of(InodeVersionRow.class);

  /**
   * The version of the entry {@code (parentId, name)} at {@code snapshotId}: {@code row} or none.
   */
  public static InodeVersionRow of(long parentId, String name, long snapshotId, InodeRow row) {
    if (row == null) {
      return new InodeVersionRow(
          parentId,
          name,
          snapshotId,
          false,
          0,
          false,
          (short) 0,
          0,
          0,
          0,
          0,
          0,
          (short) 0,
          0,
          false,
          false,
          (byte) 0,
          0,
          false,
          null);
    }
    return new InodeVersionRow(
        parentId,
        name,
        snapshotId,
        true,
        row.id(),
        row.isDir(),
        row.permission(),
        row.userId(),
        row.groupId(),
        row.modificationTime(),
        row.accessTime(),
        row.size(),
        row.replication(),
        row.preferredBlockSize(),
        row.underConstruction(),
        row.fileStoredInDb(),
        row.storagePolicy(),
        row.childrenCount(),
        row.hasQuota(),
        row.symlink());
  }

  /** The inode as it was, in {@code partitionId} (its parent's partition); null if not present. */
  public InodeRow toInode(long partitionId) {
    if (!present) {
      return null;
    }
    return new InodeRow(
        partitionId,
        parentId,
        name,
        id,
        isDir,
        permission,
        userId,
        groupId,
        modificationTime,
        accessTime,
        size,
        replication,
        preferredBlockSize,
        underConstruction,
        null,
        null,
        false,
        0,
        fileStoredInDb,
        storagePolicy,
        childrenCount,
        hasQuota,
        symlink,
        false,
        0);
  }
}
