package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A subtree operation in progress (docs/architecture.md, "Subtree operations"); all rows share one
 * partition.
 */
@TableName("on_going_subtree_ops")
public record OnGoingSubtreeOpRow(
    @Pk @PartitionKey int partitionId,
    @Pk long inodeId,
    @MaxBytes(8000) String path,
    long namenodeId,
    byte opType,
    long startTime,
    @MaxBytes(MaxBytes.NAME) String userName,
    @MaxBytes(MaxBytes.NAME) String clientName) {
  public static final Table<OnGoingSubtreeOpRow> TABLE = Table.of(OnGoingSubtreeOpRow.class);
}
