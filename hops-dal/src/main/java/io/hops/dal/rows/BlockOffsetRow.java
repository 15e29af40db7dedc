package io.hops.dal.rows;

import io.hops.dal.schema.Key;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * Where a block of a file begins: keyed {@code (inode_id, start_offset, block_index)}, so a file's
 * blocks lie in file order within its partition and the blocks of a byte range are one bounded
 * range scan ({@code getBlockLocations} reads the blocks it answers for, not every block of the
 * file). One row per {@link BlockInfoRow}, written and deleted with it; the block index breaks the
 * tie between an empty block and the one after it.
 */
@TableName("block_offsets")
public record BlockOffsetRow(
    @Pk @PartitionKey long inodeId, @Pk long startOffset, @Pk int blockIndex, long blockId) {
  public static final Table<BlockOffsetRow> TABLE = Table.of(BlockOffsetRow.class);

  /** The row that places {@code b} in its file. */
  public static BlockOffsetRow of(BlockInfoRow b) {
    return new BlockOffsetRow(b.inodeId(), b.startOffset(), b.blockIndex(), b.blockId());
  }

  /** The key of the row that places {@code b} in its file. */
  public static Key keyOf(BlockInfoRow b) {
    return TABLE.key(b.inodeId(), b.startOffset(), b.blockIndex());
  }
}
