package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Key;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
    List<ReplicaRow> replicas =
        tx.findByPartition(ReplicaRow.TABLE, inodeId, "block_id", blockId, LockMode.READ_COMMITTED);
    return judge(datanodes, expected, replicas, corrupt);
  }

  /**
   * As {@link #of} for each block of {@code blocks} ({@code [inodeId, blockId]}, no two alike),
   * aligned with them, read with one access per table whatever their number: the blocks by key, the
   * files they lack in {@code replicationCache} by id, and the replicas of their files (every block
   * of a file asked for, those not asked for dropped). {@code corrupt} holds the corrupt replicas'
   * storages by block; a block it lacks has none.
   */
  public static List<BlockHealth> ofAll(
      Transaction tx,
      DatanodeManager datanodes,
      List<List<Long>> blocks,
      Map<List<Long>, Set<Integer>> corrupt,
      Map<Long, Short> replicationCache)
      throws StorageException {
    if (blocks.isEmpty()) {
      return List.of();
    }
    List<Key> keys = new ArrayList<>(blocks.size());
    Set<Long> files = new LinkedHashSet<>();
    for (List<Long> b : blocks) {
      keys.add(BlockInfoRow.TABLE.key(b.get(0), b.get(1)));
      files.add(b.get(0));
    }
    List<BlockInfoRow> found = tx.findBatch(BlockInfoRow.TABLE, keys, LockMode.READ_COMMITTED);
    Set<Long> complete = new HashSet<>();
    for (BlockInfoRow b : found) {
      if (b != null && b.underConstructionState() == BlockState.COMPLETE) {
        complete.add(b.inodeId());
      }
    }
    files.retainAll(complete);
    replications(tx, files, replicationCache);
    Map<List<Long>, List<ReplicaRow>> replicas = new HashMap<>();
    for (ReplicaRow r :
        tx.findByPartitions(ReplicaRow.TABLE, List.copyOf(files), LockMode.READ_COMMITTED)) {
      replicas.computeIfAbsent(List.of(r.inodeId(), r.blockId()), k -> new ArrayList<>()).add(r);
    }
    List<BlockHealth> health = new ArrayList<>(blocks.size());
    for (int i = 0; i < blocks.size(); i++) {
      BlockInfoRow b = found.get(i);
      if (b == null || b.underConstructionState() != BlockState.COMPLETE) {
        health.add(NOT_COUNTED);
        continue;
      }
      List<Long> block = blocks.get(i);
      health.add(
          judge(
              datanodes,
              replicationCache.get(block.get(0)),
              replicas.getOrDefault(block, List.of()),
              corrupt.getOrDefault(block, Set.of())));
    }
    return health;
  }

  private static BlockHealth judge(
      DatanodeManager datanodes, int expected, List<ReplicaRow> replicas, Set<Integer> corrupt)
      throws StorageException {
    int live = 0;
    for (ReplicaRow r : replicas) {
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

  /**
   * Puts the replication of each of {@code files} into {@code cache}: live files in one read by id,
   * the others (kept for snapshots, or gone) one by one.
   */
  private static void replications(Transaction tx, Set<Long> files, Map<Long, Short> cache)
      throws StorageException {
    List<Long> unknown = new ArrayList<>();
    for (long id : files) {
      if (!cache.containsKey(id)) {
        unknown.add(id);
      }
    }
    if (unknown.isEmpty()) {
      return;
    }
    for (InodeRow r : tx.findByIndexIn(InodeRow.TABLE, "id", unknown, LockMode.READ_COMMITTED)) {
      cache.put(r.id(), r.replication());
    }
    for (long id : unknown) {
      if (!cache.containsKey(id)) {
        cache.put(id, KeptReplication.of(tx, id).replication());
      }
    }
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
