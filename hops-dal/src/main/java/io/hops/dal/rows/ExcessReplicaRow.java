package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A replica beyond the file's replication, chosen for removal. */
@TableName("excess_replicas")
public record ExcessReplicaRow(
    @Pk @PartitionKey long inodeId, @Pk long blockId, @Pk int storageId, long timestamp) {
  public static final Table<ExcessReplicaRow> TABLE = Table.of(ExcessReplicaRow.class);
}
