package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A block of a file, partitioned by the file's inode id so a file's blocks share a shard. */
@TableName("block_infos")
public record BlockInfoRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    int blockIndex,
    long numBytes,
    long generationStamp,
    byte underConstructionState,
    long timestamp,
    int primaryNodeIndex,
    long blockRecoveryId) {
  public static final Table<BlockInfoRow> TABLE = Table.of(BlockInfoRow.class);
}
