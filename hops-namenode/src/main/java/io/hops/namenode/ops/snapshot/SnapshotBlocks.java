package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * The blocks of a file as a snapshot has it (docs/architecture.md, "Snapshots"): the file's row at
 * the snapshot (its version, or the live row) gives its inode id and its length then; its block
 * rows are keyed by that id, live or kept after the file was deleted or overwritten, and the blocks
 * that hold its first {@code size} bytes are its content at the snapshot. An append after the
 * snapshot only adds bytes past that length (to the last block, or in new blocks), so the located
 * blocks end at the old length and the stock client reads exactly the old bytes, as from HDFS
 * (BlockManager.createLocatedBlocks with {@code inSnapshot}: complete, never under construction).
 * Cost: the reads of a whole file's blocks and replicas, read committed (one pruned scan per
 * table).
 */
public final class SnapshotBlocks {
  private final InodeRow file;
  private final FileBlocks blocks;

  private SnapshotBlocks(InodeRow file, FileBlocks blocks) {
    this.file = file;
    this.blocks = blocks;
  }

  /** Reads the blocks of {@code file} (a row as of a snapshot); null for a file without blocks. */
  public static SnapshotBlocks read(LockPhase tx, InodeRow file, BlockManager bm)
      throws StorageException {
    if (file == null || file.isDir() || file.fileStoredInDb() || file.size() <= 0) {
      return null;
    }
    return new SnapshotBlocks(
        file, FileBlocks.lock(tx, file.id(), LockMode.READ_COMMITTED, bm.datanodes()));
  }

  /** HDFS's answer for {@code [offset, offset + length)} of the file as it was. */
  public static LocatedBlocks located(
      SnapshotBlocks b, BlockManager bm, long offset, long length, String reader) {
    if (b == null) {
      return new LocatedBlocks(0, false, List.of(), null, true, null, null);
    }
    return b.located(bm, offset, length, reader);
  }

  private LocatedBlocks located(BlockManager bm, long offset, long length, String reader) {
    long size = file.size();
    List<LocatedBlock> inRange = new ArrayList<>();
    LocatedBlock last = null;
    long start = 0;
    long end = offset + Math.max(0, length);
    for (BlockInfoRow b : blocks.blocks()) {
      if (start >= size) {
        break;
      }
      LocatedBlock lb = bm.locatedBlock(blocks, b, start, reader);
      // The part of the block the snapshot has: a later append may have made it longer.
      lb.getBlock().setNumBytes(Math.min(b.numBytes(), size - start));
      long blockEnd = start + lb.getBlockSize();
      if (blockEnd > offset && start < Math.max(end, offset + 1)) {
        inRange.add(lb);
      }
      last = lb;
      start = blockEnd;
    }
    return new LocatedBlocks(Math.min(size, start), false, inRange, last, true, null, null);
  }
}
