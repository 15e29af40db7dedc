package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.ReplicaRow;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a block that some table marks (for a replication check, being re-replicated, with a corrupt
 * replica) counts as in the block health numbers, judged from what is true now. One judgement for
 * {@code getStats}, {@code listCorruptFileBlocks}, {@code metaSave} and the leader's census.
 */
public enum BlockHealth {
  /** A stale mark, a block being written, or a file that is gone: not counted at all. */
  NOT_COUNTED,
  /** Counted (as corrupt, if it has corrupt replicas), with enough live replicas. */
  HEALTHY,
  LOW_REDUNDANCY,
  MISSING,
  MISSING_REPLICATION_ONE;

  /**
   * A marked block's health from what is true now: its live replicas not in {@code corrupt} against
   * its file's replication now (a mark's own expectation may predate a setReplication). As HDFS, a
   * complete block with no live replica is missing and not low-redundancy; blocks under
   * construction are not counted. {@code replicationCache} holds files' replication by inode id.
   */
  public static BlockHealth of(
      Transaction tx,
      DatanodeManager datanodes,
      long inodeId,
      long blockId,
      Set<Integer> corrupt,
      Map<Long, Short> replicationCache)
      throws StorageException {
    BlockInfoRow b =
        tx.find(
            BlockInfoRow.TABLE, BlockInfoRow.TABLE.key(inodeId, blockId), LockMode.READ_COMMITTED);
    if (b == null || b.underConstructionState() != BlockState.COMPLETE) {
      return NOT_COUNTED;
    }
    int expected = replication(tx, inodeId, replicationCache);
    int live = 0;
    for (ReplicaRow r :
        tx.findByPartition(
            ReplicaRow.TABLE, inodeId, "block_id", blockId, LockMode.READ_COMMITTED)) {
      StorageRef s = datanodes.storage(r.storageId());
      if (!corrupt.contains(r.storageId()) && datanodes.isLive(s)) {
        live++;
      }
    }
    if (expected <= 0) {
      return corrupt.isEmpty() ? NOT_COUNTED : HEALTHY; // the file is gone
    }
    if (live == 0) {
      return expected == 1 ? MISSING_REPLICATION_ONE : MISSING;
    }
    return live < expected ? LOW_REDUNDANCY : HEALTHY;
  }

  private static int replication(Transaction tx, long inodeId, Map<Long, Short> cache)
      throws StorageException {
    Short r = cache.get(inodeId);
    if (r == null) {
      List<InodeRow> found = tx.findByIndex(InodeRow.TABLE, "id", inodeId, LockMode.READ_COMMITTED);
      r =
          found.isEmpty()
              ? KeptReplication.of(tx, inodeId).replication()
              : found.get(0).replication();
      cache.put(inodeId, r);
    }
    return r;
  }
}
