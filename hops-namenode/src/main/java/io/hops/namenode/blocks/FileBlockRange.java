package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The range view of a file's blocks, for reading {@code [offset, offset + length)} of it ({@code
 * getBlockLocations}): the block rows of only the blocks the range covers and of the last block
 * (the located blocks' answer), found by range scans of the file's {@link BlockOffsetRow}s ({@link
 * BlockOffsets}: one PPIS, and one more for the last block when the range does not reach it), read
 * in one batch; then their replicas and corrupt replicas, one PPIS each bounded by the block, and
 * the expected replicas of a block that is not complete (where a block being written is). Reading a
 * block of an N-block file so costs the same accesses and rows whatever N. A range that covers a
 * third of the file or more reads each replica table's partition once instead ({@link
 * FileBlocks#lock}); a file that its recorded size says is small and that has at most {@link
 * #SMALL_FILE_BLOCKS} blocks is read whole (one PPIS for its blocks, as before there were offset
 * rows).
 */
public final class FileBlockRange {
  private FileBlockRange() {}

  /**
   * A file of at most this many blocks is read whole: its blocks in one bounded scan cost fewer
   * accesses than finding the blocks of a range, and as few rows.
   */
  static final int SMALL_FILE_BLOCKS = 8;

  /** Reads the range view of {@code file} for {@code [offset, offset + length)}. */
  public static FileBlocks lock(
      LockPhase tx, InodeRow file, long offset, long length, DatanodeManager datanodes)
      throws StorageException {
    long id = file.id();
    long blockSize = Math.max(1, file.preferredBlockSize());
    if (file.size() <= SMALL_FILE_BLOCKS * blockSize) {
      // Likely a few blocks: all of them in one bounded scan, as many accesses as a stat's read.
      List<BlockInfoRow> all =
          tx.scanFrom(BlockInfoRow.TABLE, id, null, SMALL_FILE_BLOCKS + 1, LockMode.READ_COMMITTED);
      if (all.size() <= SMALL_FILE_BLOCKS) {
        FileBlocks f = new FileBlocks(id, all);
        return f.isEmpty()
            ? f
            : withReplicasOf(tx, f, f.rangeBlockIds(offset, length), all.size(), datanodes);
      }
    }
    long until = Math.max(offset, offset + length);
    int page = BlockOffsets.pageFor(length, blockSize);
    BlockOffsets.Scan range = BlockOffsets.scan(tx, id, offset - blockSize, until, page);
    if (offset - blockSize >= 0
        && !range.rows().isEmpty()
        && range.rows().get(0).startOffset() > offset) {
      // A block before the window is longer than the preferred size: read from the start.
      range = BlockOffsets.scan(tx, id, -1, until, BlockOffsets.MAX_PAGE);
    }
    BlockOffsetRow lastRow = null;
    if (range.reachedEnd() && !range.rows().isEmpty()) {
      lastRow = range.rows().get(range.rows().size() - 1);
    } else {
      lastRow = lastOf(tx, file, blockSize);
    }
    if (lastRow == null) {
      // Blocks without offset rows (written before there were any): read every block.
      return lockEveryBlock(tx, id, offset, length, datanodes);
    }
    List<BlockOffsetRow> window = window(range.rows(), offset, until);
    LinkedHashSet<Long> wanted = new LinkedHashSet<>();
    window.forEach(r -> wanted.add(r.blockId()));
    wanted.add(lastRow.blockId());
    List<Long> ids = new ArrayList<>(wanted);
    List<BlockInfoRow> rows =
        BlockRowReads.byKeys(tx, BlockInfoRow.TABLE, id, ids, LockMode.READ_COMMITTED);
    if (rows.size() != ids.size()) {
      return lockEveryBlock(tx, id, offset, length, datanodes);
    }
    FileBlocks f = new FileBlocks(id, rows);
    Set<Long> inWindow = new HashSet<>();
    window.forEach(r -> inWindow.add(r.blockId()));
    List<BlockInfoRow> held = new ArrayList<>();
    for (BlockInfoRow b : f.blocks()) {
      if (inWindow.contains(b.blockId()) || window.isEmpty()) {
        held.add(b);
      }
    }
    f.setWindow(held);
    return withReplicasOf(
        tx, f, f.rangeBlockIds(offset, length), f.last().blockIndex() + 1, datanodes);
  }

  /**
   * The file's last offset row: a scan from where the last block begins if it is no longer than the
   * preferred size (the recorded size is a hint only), else from the file's start; null if the file
   * has none.
   */
  private static BlockOffsetRow lastOf(LockPhase tx, InodeRow file, long blockSize)
      throws StorageException {
    BlockOffsets.Scan tail =
        BlockOffsets.scan(tx, file.id(), file.size() - blockSize - 1, Long.MAX_VALUE, 4);
    if (tail.rows().isEmpty()) {
      tail = BlockOffsets.scan(tx, file.id(), -1, Long.MAX_VALUE, BlockOffsets.MAX_PAGE);
    }
    return tail.rows().isEmpty() ? null : tail.rows().get(tail.rows().size() - 1);
  }

  /**
   * The rows of a scan that the answer for {@code offset} may need: from the last that begins at or
   * before {@code offset} (the block that holds it, or the block before it when that one ends
   * exactly there) up to those beginning at {@code until}; from the file's first block if the scan
   * has it, since HDFS answers from an empty first block whatever the offset.
   */
  private static List<BlockOffsetRow> window(List<BlockOffsetRow> rows, long offset, long until) {
    int from = 0;
    if (!rows.isEmpty() && rows.get(0).blockIndex() != 0) {
      for (int i = 0; i < rows.size() && rows.get(i).startOffset() <= offset; i++) {
        from = i;
      }
    }
    int to = from;
    while (to < rows.size() && rows.get(to).startOffset() <= until) {
      to++;
    }
    return rows.subList(from, to);
  }

  /** As {@link #lock} without offset rows: every block row of the file (one PPIS). */
  private static FileBlocks lockEveryBlock(
      LockPhase tx, long inodeId, long offset, long length, DatanodeManager datanodes)
      throws StorageException {
    FileBlocks f = FileBlocks.blocksOnly(tx, inodeId, LockMode.READ_COMMITTED);
    if (f.isEmpty()) {
      return f;
    }
    return withReplicasOf(tx, f, f.rangeBlockIds(offset, length), f.blocks().size(), datanodes);
  }

  /**
   * Reads the replica rows of blocks {@code ids}, one PPIS per table bounded by the block; or, when
   * they are a third or more of the file's {@code fileBlocks} blocks, of every block (one PPIS per
   * table). For a reader: the expected replicas of incomplete blocks only, no re-replication
   * entries.
   */
  private static FileBlocks withReplicasOf(
      LockPhase tx, FileBlocks f, List<Long> ids, int fileBlocks, DatanodeManager datanodes)
      throws StorageException {
    if (3L * ids.size() >= fileBlocks) {
      return f.withEveryReplica(tx, datanodes, true);
    }
    for (long b : ids) {
      BlockInfoRow row = f.block(b);
      f.readReplicasOf(
          tx, b, datanodes, row == null || row.underConstructionState() != BlockState.COMPLETE);
    }
    return f;
  }
}
