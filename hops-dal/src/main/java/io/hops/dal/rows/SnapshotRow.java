package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * One snapshot of a snapshottable directory ({@code dirId}, its inode id), partitioned by the
 * directory, so its snapshots are one pruned scan. {@code snapshotId} comes from one database
 * counter, taken in the creating transaction, so ids grow in commit order across namenodes. The
 * rest is HDFS's snapshot root ({@code Snapshot.Root}): its name, its modification time (the
 * creation, or the last rename), and the directory's access time, permission, owner, group and
 * number of children as they were when the snapshot was taken (docs/architecture.md, "Snapshots").
 */
@TableName("snapshots")
public record SnapshotRow(
    @Pk @PartitionKey long dirId,
    @Pk long snapshotId,
    @MaxBytes(MaxBytes.NAME) String name,
    long modificationTime,
    long accessTime,
    short permission,
    int userId,
    int groupId,
    int childrenCount) {
  public static final Table<SnapshotRow> TABLE = Table.of(SnapshotRow.class);
}
