package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A file deleted or overwritten below snapshottable directory {@code dirId} while a snapshot of it
 * had the file: its block rows (keyed by {@code inodeId}) and replicas are kept for the snapshots
 * of the directory up to {@code snapshotId} (the directory's latest when the file went), and
 * released ({@link ReleasedFileRow}) once the directory has no snapshot with an id at most that
 * one. Partitioned by the directory, so deleting one of its snapshots finds what it frees with one
 * pruned scan, in order of {@code snapshotId} (docs/architecture.md, "Snapshots"). An inode may
 * have several rows, one per holder (the directories whose snapshots may read it): indexed by
 * {@code inodeId}, so that the release of one tells whether another still keeps the inode (schema
 * version 12).
 *
 * <p>A row whose {@code inodeId} is negative is a <em>hold</em>: the directory {@code -inodeId},
 * moved out of {@code dirId} (a snapshottable directory, or a held one) while snapshots of it up to
 * {@code snapshotId} had it, keeps versions and files for them; once they are gone its hold is
 * cleared and the files kept in its own partition are released. A hold row in the directory's own
 * partition says that the directory, made snapshottable since, is still held at {@code snapshotId};
 * one under directory 0 that it is held for good (written before schema version 12 for a second
 * holder; a directory held twice since has one row per holder).
 */
@TableName("snapshot_kept_files")
public record SnapshotKeptFileRow(
    @Pk @PartitionKey long dirId, @Pk long snapshotId, @Pk @Indexed long inodeId) {
  public static final Table<SnapshotKeptFileRow> TABLE = Table.of(SnapshotKeptFileRow.class);

  /** The hold of directory {@code heldId} for the snapshots of {@code dirId} up to {@code s}. */
  public static SnapshotKeptFileRow hold(long dirId, long s, long heldId) {
    return new SnapshotKeptFileRow(dirId, s, -heldId);
  }

  /** Whether this row is a directory's hold rather than a kept file. */
  public boolean isHold() {
    return inodeId < 0;
  }

  /** The held directory's inode id, for a hold. */
  public long heldId() {
    return -inodeId;
  }
}
