package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * Blocks of file {@code inodeId} that its snapshots up to {@code snapshotId} (since its previous
 * tail) have and that truncates made after that snapshot took from the live file (HDFS's
 * copy-on-truncate): their block rows and replicas are kept under {@code tailId}, an inode id no
 * inode has, with their block indexes, and released with it as a kept file (a {@link
 * SnapshotKeptFileRow} names it). {@code copyId}, when not 0, is the new block the live file's last
 * block is being copied into by a truncate's block recovery: the last block moves here when the
 * recovery commits. Partitioned by the file, so a read at a snapshot finds its tails with one
 * pruned scan (docs/architecture.md, "Snapshots"); indexed by {@code tailId}, so that the release
 * of the kept file deletes its tail in the same transaction. A tail released while its copy is in
 * progress stays until the recovery commits, at snapshot {@link #RELEASED}, with no kept file: the
 * recovery still needs its copy's id (docs/architecture.md, "Snapshots").
 */
@TableName("snapshot_file_tails")
public record SnapshotFileTailRow(
    @Pk @PartitionKey long inodeId, @Pk long snapshotId, @Indexed long tailId, long copyId) {
  public static final Table<SnapshotFileTailRow> TABLE = Table.of(SnapshotFileTailRow.class);

  /** The snapshot id of a tail no snapshot reads any more, kept for its copy in progress. */
  public static final long RELEASED = 0;

  /** The same tail, released by its snapshots while its copy is in progress. */
  public SnapshotFileTailRow released() {
    return new SnapshotFileTailRow(inodeId, RELEASED, tailId, copyId);
  }

  /** Whether no snapshot reads the tail: it waits for its copy's recovery to commit. */
  public boolean isReleased() {
    return snapshotId == RELEASED;
  }

  /** The same tail with {@code copy} as its copy in progress (0: none). */
  public SnapshotFileTailRow withCopy(long copy) {
    return new SnapshotFileTailRow(inodeId, snapshotId, tailId, copy);
  }
}
