package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.SignedByteOrder;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * Inode {@code inodeId} left entry {@code name} of directory {@code parentId} by a rename while
 * that entry's latest snapshot, {@code snapshotId}, had it there: HDFS's {@code
 * INodeReference.WithName}, whose last snapshot is {@code snapshotId}. One per entry and snapshot
 * (a second departure before the next snapshot is of an inode the snapshot does not have there).
 * Partitioned by the directory, so a diff report's walk reads a directory's with one pruned scan
 * next to its versions; indexed by the inode, so that the diff follows a renamed inode to where it
 * was at a later snapshot, as HDFS's {@code findRenameTargetPath} does (docs/architecture.md,
 * "Snapshots", "Diff reports").
 */
@TableName("snapshot_renamed_entries")
public record SnapshotRenamedEntryRow(
    @Pk @PartitionKey long parentId,
    @Pk @SignedByteOrder @MaxBytes(255) String name,
    @Pk long snapshotId,
    @Indexed long inodeId) {
  public static final Table<SnapshotRenamedEntryRow> TABLE =
      Table.of(SnapshotRenamedEntryRow.class);
}
