package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A replica the leader will tell its datanode to delete. */
@TableName("invalidated_blocks")
public record InvalidatedBlockRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    @Pk @Indexed int storageId,
    long generationStamp,
    long numBytes) {
  public static final Table<InvalidatedBlockRow> TABLE = Table.of(InvalidatedBlockRow.class);
}
