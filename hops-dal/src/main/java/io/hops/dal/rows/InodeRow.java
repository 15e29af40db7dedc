package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.SignedByteOrder;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A file, directory or symlink. Partitioned by {@code partitionId}: the parent's id, or for
 * children of the root a hash of the name, so top-level directories spread over shards
 * (docs/architecture.md, "Metadata schema"). Names order as HDFS orders them (signed bytes), so a
 * partition's rows are a directory's children in listing order.
 *
 * <p>The {@code parent_id} index holds only the root's children (the root's id is 1): theirs are
 * the only partitions that are not their parent's id; every other directory's children are its
 * partition.
 *
 * <p>{@code snapshottable} and {@code snapshotId} (the id of the directory's latest snapshot, 0
 * when it has none) are read with the path, so an operation learns the snapshot that covers it from
 * the ancestors it resolves anyway (docs/architecture.md, "Snapshots"). A directory that is not
 * snapshottable keeps its hold there, and a file its reference mark: the directory whose snapshots
 * have it under an earlier entry.
 */
@TableName("inodes")
public record InodeRow(
    @Pk @PartitionKey long partitionId,
    @Pk @Indexed(only = 1) long parentId,
    @Pk @SignedByteOrder @MaxBytes(255) String name,
    @Indexed(unique = true) long id,
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
    @MaxBytes(MaxBytes.NAME) String clientName,
    @MaxBytes(1024) String clientMachine,
    boolean subtreeLocked,
    long subtreeLockOwner,
    boolean fileStoredInDb,
    byte storagePolicy,
    int childrenCount,
    boolean hasQuota,
    @MaxBytes(8000) String symlink,
    boolean snapshottable,
    long snapshotId) {
  public static final Table<InodeRow> TABLE = Table.of(InodeRow.class);
}
