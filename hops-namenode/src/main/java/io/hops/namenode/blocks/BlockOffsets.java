package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;

/**
 * A file's blocks by where they begin ({@link BlockOffsetRow}): every block row is written and
 * deleted together with its offset row here, and a byte range of a file is found with bounded range
 * scans of the file's partition instead of a read of every block.
 *
 * <p>A block's start offset never changes while it stays in its file (only the last block of a file
 * changes length; concat gives moved blocks new rows), so the offset rows change only when blocks
 * come and go. The block that holds a byte at {@code offset} begins after {@code offset - p} when
 * no block is longer than the file's preferred block size {@code p}, as HDFS keeps it (the client
 * cuts blocks at {@code p}, concat refuses a source of a larger block size): the scans start there,
 * and a file that breaks the rule is detected (no block begins at or before {@code offset} in the
 * window) and read from its start instead, so the answer is right for any block sizes.
 */
public final class BlockOffsets {
  /** Rows per page of a range scan at most; a page is as long as the range needs, and never 0. */
  static final int MAX_PAGE = 128;

  private BlockOffsets() {}

  /** Inserts a new block row and the row that places it in its file. */
  public static void insert(ExecutePhase tx, BlockInfoRow b) throws StorageException {
    tx.insert(BlockInfoRow.TABLE, b);
    tx.insert(BlockOffsetRow.TABLE, BlockOffsetRow.of(b));
  }

  /** Deletes a block row and the row that places it in its file. */
  public static void delete(ExecutePhase tx, BlockInfoRow b) throws StorageException {
    tx.delete(BlockInfoRow.TABLE, b);
    tx.delete(BlockOffsetRow.TABLE, BlockOffsetRow.keyOf(b));
  }

  /** Where the block after {@code last} begins: 0 for a file's first block. */
  public static long nextStart(BlockInfoRow last) {
    return last == null ? 0 : last.startOffset() + last.numBytes();
  }

  /** The page size for a range of {@code length} bytes of a file of {@code blockSize} blocks. */
  static int pageFor(long length, long blockSize) {
    long blocks = length / Math.max(1, blockSize);
    return (int) Math.min(MAX_PAGE, Math.max(0, blocks) + 3);
  }

  /**
   * The offset rows of a file that begin after {@code from} (all if negative), in file order, page
   * after page, up to and including the first that begins after {@code until} or to the last.
   *
   * @return the rows; {@link Scan#reachedEnd} if they end with the file's last block
   */
  static Scan scan(LockPhase tx, long inodeId, long from, long until, int page)
      throws StorageException {
    Key after = from < 0 ? null : BlockOffsetRow.TABLE.key(inodeId, from, Integer.MAX_VALUE);
    List<BlockOffsetRow> rows = new ArrayList<>();
    while (true) {
      List<BlockOffsetRow> got =
          tx.scanFrom(BlockOffsetRow.TABLE, inodeId, after, page, LockMode.READ_COMMITTED);
      rows.addAll(got);
      if (got.size() < page) {
        return new Scan(rows, true);
      }
      BlockOffsetRow last = got.get(got.size() - 1);
      if (last.startOffset() > until) {
        return new Scan(rows, false);
      }
      after = BlockOffsetRow.TABLE.keyOf(last);
    }
  }

  /** Offset rows in file order, and whether the last of them is the file's last block. */
  record Scan(List<BlockOffsetRow> rows, boolean reachedEnd) {}
}
