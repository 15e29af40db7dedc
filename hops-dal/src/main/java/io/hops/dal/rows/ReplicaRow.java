package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A finalized replica of a block on one datanode storage. */
@TableName("replicas")
public record ReplicaRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    @Pk @Indexed int storageId,
    int replicaIndex) {
  public static final Table<ReplicaRow> TABLE = Table.of(ReplicaRow.class);
}
