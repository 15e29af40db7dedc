package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.SignedByteOrder;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * An entry file {@code inodeId} left by a rename while a snapshot of directory {@code dirId} (the
 * snapshottable or held directory its reference mark names) had it there: HDFS's {@code
 * INodeReference.WithName}. Written by the rename that marks the file, deleted with the file;
 * partitioned by the file, so that a truncate or a concat of a marked file finds, with one pruned
 * scan, where its snapshots have it, and so its length at each of them and whether any still has it
 * (docs/architecture.md, "Snapshots").
 */
@TableName("snapshot_earlier_entries")
public record SnapshotEarlierEntryRow(
    @Pk @PartitionKey long inodeId,
    @Pk long parentId,
    @Pk @SignedByteOrder @MaxBytes(255) String name,
    long dirId) {
  public static final Table<SnapshotEarlierEntryRow> TABLE =
      Table.of(SnapshotEarlierEntryRow.class);
}
