package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A block with fewer live replicas than its file's replication, at a priority level. */
@TableName("under_replicated_blocks")
public record UnderReplicatedBlockRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    @Indexed int level,
    long timestamp,
    int expectedReplicas) {
  public static final Table<UnderReplicatedBlockRow> TABLE =
      Table.of(UnderReplicatedBlockRow.class);
}
