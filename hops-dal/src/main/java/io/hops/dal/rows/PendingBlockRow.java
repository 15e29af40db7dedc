package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A replication the leader has scheduled and not yet seen completed. */
@TableName("pending_blocks")
public record PendingBlockRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    long timestamp,
    int numReplicasInProgress,
    @MaxBytes(2000) String targets) {
  public static final Table<PendingBlockRow> TABLE = Table.of(PendingBlockRow.class);
}
