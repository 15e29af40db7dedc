package io.hops.dal.rows;

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
 * pruned scan, in order of {@code snapshotId} (docs/architecture.md, "Snapshots").
 */
@TableName("snapshot_kept_files")
public record SnapshotKeptFileRow(
    @Pk @PartitionKey long dirId, @Pk long snapshotId, @Pk long inodeId) {
  public static final Table<SnapshotKeptFileRow> TABLE = Table.of(SnapshotKeptFileRow.class);
}
