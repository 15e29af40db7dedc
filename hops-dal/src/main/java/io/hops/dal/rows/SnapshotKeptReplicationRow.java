package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * The replication of a file kept for snapshots ({@link SnapshotKeptFileRow}) when it was deleted,
 * by its inode id: its blocks are still in the blocks map (HDFS keeps the snapshot's INodeFile as
 * their collection), so the replication check and the block health census read the replication they
 * expect here once no live inode has the id. Written with the kept row, deleted when it is released
 * (docs/architecture.md, "Snapshots").
 */
@TableName("snapshot_kept_replication")
public record SnapshotKeptReplicationRow(@Pk @PartitionKey long inodeId, short replication) {
  public static final Table<SnapshotKeptReplicationRow> TABLE =
      Table.of(SnapshotKeptReplicationRow.class);
}
