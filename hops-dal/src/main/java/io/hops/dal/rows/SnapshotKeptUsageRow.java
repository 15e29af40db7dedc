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
 * INodeReference.WithName}): such a row has the negated file id as {@code inodeId}; a directory
 * renamed with no quota on either path is charged {@link #UNCOUNTED} (its usage is a walk), counted
 * by the first quota that needs it. Released with the kept files of the same directory and snapshot
 * ({@link SnapshotKeptFileRow}): the transaction that releases them takes the usage off {@code
 * quotaId}'s quota row, if it has one. Partitioned like the kept files, so a release finds both
 * with a pruned scan each; indexed by {@code quotaId}, so that a rename of the directory, or a
 * quota set on it, finds what the snapshots keep below it.
 *
 * <p>A row at {@link #RECLAIM} names a directory above a subtree that a big delete detached below a
 * snapshot ({@code dirId} and {@code inodeId} its root), with what the subtree holds: it stays
 * charged there until its reclaim, whose batches take off what they delete (from the rows and the
 * quota rows they name), and whose last transaction drops the rows with the root. Rows written
 * before the subtree's usage was counted into them name only quota directories, with 0.
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

  /** The {@code ns} and {@code ds} of a charge whose usage is not counted yet. */
  public static final long UNCOUNTED = -1;

  /**
   * The row naming directory {@code quotaId} above the detached subtree {@code rootId}, which holds
   * {@code ns} inodes and {@code ds} bytes of storage space.
   */
  public static SnapshotKeptUsageRow untilReclaimed(long rootId, long quotaId, long ns, long ds) {
    return new SnapshotKeptUsageRow(rootId, RECLAIM, rootId, quotaId, ns, ds);
  }

  /** Whether this charge's usage is still to count ({@link #UNCOUNTED}). */
  public boolean uncounted() {
    return ns < 0;
  }

  /** This row with the usage {@code ns} and {@code ds}. */
  public SnapshotKeptUsageRow withUsage(long ns, long ds) {
    return new SnapshotKeptUsageRow(dirId, snapshotId, inodeId, quotaId, ns, ds);
  }

  /**
   * Whether this row of a detached subtree carries the subtree's usage: one written before it did
   * names only a quota directory, with none.
   */
  public boolean carriesReclaimUsage() {
    return untilReclaim() && ns > 0;
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
