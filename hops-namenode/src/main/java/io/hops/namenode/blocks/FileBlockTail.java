package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;

/**
 * The tail view of an open file's blocks: only its last and penultimate blocks, whose ids its lease
 * path keeps (as HopsFS does), so that writing an N-block file costs O(N) rows, not O(N²). Every
 * block before the penultimate is complete: addBlock refuses a new block while the penultimate is
 * not, and nothing reopens a block of an open file but its last. A tail view's {@link
 * FileBlocks#length()} is the file's recorded size with the tail blocks' changes, and {@link
 * FileBlocks#recordTail} keeps the lease path naming the tail.
 */
public final class FileBlockTail {
  private FileBlockTail() {}

  /**
   * Reads the tail of an open file (after its inode and lease rows, docs/architecture.md, "Lock
   * order"): its lease path (PK), its last and penultimate blocks at {@code mode} (one PK or B)
   * and, per tail block, its replicas, expected and corrupt replicas (one PPIS each, bounded by the
   * block) and its replication-check entries (one PK or B); with {@code removalRows} also what
   * {@link FileBlocks#withRemovalRows} reads, for the tail blocks only. Falls back to {@link
   * FileBlocks#lock} (every block) when the file has no lease path, when the lease path does not
   * know the tail (a file reopened by append or recovery, or after an abandoned block) or names a
   * block that is gone, and when {@code wantedBlockId} (or -1) is not in the tail. Without {@code
   * datanodes}, the tail blocks only.
   */
  public static FileBlocks lock(
      LockPhase tx,
      InodeRow file,
      LockMode mode,
      DatanodeManager datanodes,
      long wantedBlockId,
      boolean removalRows)
      throws StorageException {
    long id = file.id();
    LeasePathRow path = LeasePathTail.pathOf(tx, file, LockMode.READ_COMMITTED);
    List<Long> ids = new ArrayList<>(2);
    boolean known =
        path != null
            && path.lastBlockId() != LeasePathTail.UNKNOWN_BLOCK
            && path.penultimateBlockId() != LeasePathTail.UNKNOWN_BLOCK;
    if (known) {
      if (path.penultimateBlockId() != LeasePathTail.NO_BLOCK) {
        ids.add(path.penultimateBlockId());
      }
      if (path.lastBlockId() != LeasePathTail.NO_BLOCK) {
        ids.add(path.lastBlockId());
      }
      known = wantedBlockId < 0 || ids.contains(wantedBlockId);
    }
    List<BlockInfoRow> rows = known ? readBlocks(tx, id, ids, mode) : null;
    if (rows == null) {
      FileBlocks all =
          datanodes == null
              ? FileBlocks.blocksOnly(tx, id, mode)
              : FileBlocks.lock(tx, id, mode, datanodes);
      all.setLeasePath(path);
      return removalRows ? all.withRemovalRows(tx) : all;
    }
    FileBlocks f = new FileBlocks(id, rows);
    f.setLeasePath(path);
    f.setBaseLength(file.size() - rows.stream().mapToLong(BlockInfoRow::numBytes).sum());
    if (datanodes == null) {
      return f;
    }
    for (long b : ids) {
      f.readReplicasOf(tx, b, datanodes, true);
    }
    for (UnderReplicatedBlockRow r :
        BlockRowReads.byKeys(tx, UnderReplicatedBlockRow.TABLE, id, ids)) {
      f.markQueued(r.blockId());
    }
    return removalRows ? f.withRemovalRowsOf(tx, ids) : f;
  }

  /** The tail blocks by key, or null if one is gone (the lease path is stale). */
  private static List<BlockInfoRow> readBlocks(
      LockPhase tx, long inodeId, List<Long> ids, LockMode mode) throws StorageException {
    List<BlockInfoRow> rows = BlockRowReads.byKeys(tx, BlockInfoRow.TABLE, inodeId, ids, mode);
    return rows.size() == ids.size() ? rows : null;
  }
}
