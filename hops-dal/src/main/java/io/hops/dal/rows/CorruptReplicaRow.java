package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A replica reported or found corrupt. */
@TableName("corrupt_replicas")
public record CorruptReplicaRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    @Pk int storageId,
    long timestamp,
    @MaxBytes(255) String reason) {
  public static final Table<CorruptReplicaRow> TABLE = Table.of(CorruptReplicaRow.class);
}
