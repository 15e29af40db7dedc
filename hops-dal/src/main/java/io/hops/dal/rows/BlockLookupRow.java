package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** Maps a block id to its file, for datanode reports that name only the block. */
@TableName("block_lookup")
public record BlockLookupRow(@Pk @PartitionKey long blockId, long inodeId) {
  public static final Table<BlockLookupRow> TABLE = Table.of(BlockLookupRow.class);
}
