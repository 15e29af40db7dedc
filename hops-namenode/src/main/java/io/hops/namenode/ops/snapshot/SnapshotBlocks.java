package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * The blocks of a file as a snapshot has it (docs/architecture.md, "Snapshots"): the file's row at
 * the snapshot (its version, or the live row) gives its inode id and its length then; its block
 * rows are keyed by that id, live or kept after the file was deleted or overwritten, and the blocks
 * that hold its first {@code size} bytes are its content at the snapshot. An append after the
 * snapshot only adds bytes past that length (to the last block, or in new blocks), so the located
 * blocks end at the old length and the stock client reads exactly the old bytes, as from HDFS
 * (BlockManager.createLocatedBlocks with {@code inSnapshot}: complete, never under construction). A
 * truncate after the snapshot keeps what it took for it in the file's tails ({@link
 * CopyOnTruncate}). Cost: the reads of a whole file's blocks and replicas, read committed (one
 * pruned scan per table).
 */
public final class SnapshotBlocks {
  private final InodeRow file;

  /** The file's blocks at the snapshot by index, each with the view that holds its replicas. */
  private final NavigableMap<Integer, Map.Entry<FileBlocks, BlockInfoRow>> blocks = new TreeMap<>();

  private SnapshotBlocks(InodeRow file) {
    this.file = file;
  }

  /**
   * Reads the blocks of {@code file} (a row as of snapshot {@code snapshotId}); null for a file
   * without blocks. A block index a truncate after the snapshot took from the live file is read
   * from the first of the file's tails at the snapshot or later that holds it ({@link
   * CopyOnTruncate}): one more pruned scan, and the blocks of each such tail.
   */
  public static SnapshotBlocks read(LockPhase tx, InodeRow file, long snapshotId, BlockManager bm)
      throws StorageException {
    if (file == null || file.isDir() || file.fileStoredInDb() || file.size() <= 0) {
      return null;
    }
    SnapshotBlocks b = new SnapshotBlocks(file);
    List<SnapshotFileTailRow> tails = new ArrayList<>(CopyOnTruncate.tails(tx, file.id()));
    tails.sort(Comparator.comparingLong(SnapshotFileTailRow::snapshotId));
    for (SnapshotFileTailRow t : tails) {
      if (t.snapshotId() >= snapshotId) {
        b.add(FileBlocks.lock(tx, t.tailId(), LockMode.READ_COMMITTED, bm.datanodes()), t.copyId());
      }
    }
    b.add(FileBlocks.lock(tx, file.id(), LockMode.READ_COMMITTED, bm.datanodes()), 0);
    return b;
  }

  /** The blocks of {@code f} at indexes not taken yet, but the copy in progress {@code skip}. */
  private void add(FileBlocks f, long skip) {
    for (BlockInfoRow r : f.blocks()) {
      if (r.blockId() != skip) {
        blocks.putIfAbsent(r.blockIndex(), Map.entry(f, r));
      }
    }
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
    for (Map.Entry<FileBlocks, BlockInfoRow> e : blocks.values()) {
      BlockInfoRow b = e.getValue();
      if (start >= size) {
        break;
      }
      LocatedBlock lb = bm.locatedBlock(e.getKey(), b, start, reader);
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
