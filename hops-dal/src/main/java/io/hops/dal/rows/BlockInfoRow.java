package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A block of a file, partitioned by the file's inode id so a file's blocks share a shard. {@code
 * startOffset} is where the block begins in the file (the bytes of the blocks before it): it never
 * changes while the block stays in its file, since only a file's last block changes length; a
 * {@link BlockOffsetRow} with the same offset and index finds the block from a byte offset.
 */
@TableName("block_infos")
public record BlockInfoRow(
    @Pk @PartitionKey long inodeId,
    @Pk long blockId,
    int blockIndex,
    long startOffset,
    long numBytes,
    long generationStamp,
    byte underConstructionState,
    long timestamp,
    int primaryNodeIndex,
    long blockRecoveryId) {
  public static final Table<BlockInfoRow> TABLE = Table.of(BlockInfoRow.class);
}
