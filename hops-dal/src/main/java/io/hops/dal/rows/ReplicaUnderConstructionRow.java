package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A replica in a write pipeline, before the block is complete. */
@TableName("replica_under_constructions")
public record ReplicaUnderConstructionRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    @Pk int storageId,
    byte state,
    int replicaIndex,
    long generationStamp) {
  public static final Table<ReplicaUnderConstructionRow> TABLE =
      Table.of(ReplicaUnderConstructionRow.class);
}
