package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * Quota usage that snapshots keep charged (docs/architecture.md, "Snapshots", quota usage of what
 * snapshots keep): the delete (or overwrite, or replacing rename) of inode {@code inodeId} below
 * snapshottable directory {@code dirId} left {@code ns} inodes and {@code ds} bytes of storage
 * space, which the snapshots of {@code dirId} up to {@code snapshotId} still have, charged to the
 * directory {@code quotaId} (one row per directory that was above it, with a quota or not), as HDFS
 * keeps them in the usage ({@code computeQuotaUsage}) of every directory above until the last
 * snapshot that has them goes; only a quota directory's {@code quota} row counts them. A rename of
 * a file the snapshots have at its old entry keeps it charged on the source side too (HDFS's {@code
 * INodeReference.WithName}): such a row has the negated file id as {@code inodeId}. Released with
 * the kept files of the same directory and snapshot ({@link SnapshotKeptFileRow}): the transaction
 * that releases them takes the usage off {@code quotaId}'s quota row, if it has one. Partitioned
 * like the kept files, so a release finds both with a pruned scan each; indexed by {@code quotaId},
 * so that a rename of the directory, or a quota set on it, finds what the snapshots keep below it.
 *
 * <p>A row at {@link #RECLAIM} names a quota directory above a subtree that a big delete detached
 * below a snapshot ({@code dirId} and {@code inodeId} its root): the subtree stays charged there
 * until its reclaim, whose batches take off what they delete, and whose last transaction drops the
 * row with the root.
 */
@TableName("snapshot_kept_usage")
public record SnapshotKeptUsageRow(
    @Pk @PartitionKey long dirId,
    @Pk long snapshotId,
    @Pk long inodeId,
    @Pk @Indexed long quotaId,
    long ns,
    long ds) {
  public static final Table<SnapshotKeptUsageRow> TABLE = Table.of(SnapshotKeptUsageRow.class);

  /** The snapshot id of the rows of a detached subtree charged until its reclaim. */
  public static final long RECLAIM = Long.MAX_VALUE;

  /** The row naming quota directory {@code quotaId} above the detached subtree {@code rootId}. */
  public static SnapshotKeptUsageRow untilReclaimed(long rootId, long quotaId) {
    return new SnapshotKeptUsageRow(rootId, RECLAIM, rootId, quotaId, 0, 0);
  }

  /** Whether this row charges a detached subtree until its reclaim, not a snapshot's usage. */
  public boolean untilReclaim() {
    return snapshotId == RECLAIM;
  }

  /** Whether this row charges the detached subtree {@code rootId} until its reclaim. */
  public boolean untilReclaimOf(long rootId) {
    return untilReclaim() && inodeId == rootId;
  }
}
