package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.blocks.BlockHealth;
import io.hops.namenode.blocks.BlockHealthCounts;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ECBlockGroupStats;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;

/**
 * {@code getStats} ({@code hdfs dfs -df}, {@code hdfs dfsadmin -report}) and {@code
 * getReplicatedBlockStats}: capacity, use and room from the live datanodes' last heartbeats to this
 * namenode (soft state, as in HDFS: no database access), and block health as the leader's census
 * last counted it ({@link BlockHealthCounts}) (one batched read), so a call costs the same however
 * many files, blocks or blocks in trouble there are.
 *
 * <p>Block health counts the blocks some table says need attention: marked for a replication check
 * ({@code under_replicated_blocks}), being re-replicated ({@code pending_blocks}), or with a
 * corrupt replica ({@code corrupt_replicas}), each judged from what is true now ({@link
 * BlockHealth}). {@code listCorruptFileBlocks} still reads them at once ({@link #missingBlocks}).
 */
public final class GetStats {
  /** Block health, HDFS's LowRedundancyBlocks and CorruptReplicasMap counts. */
  public record BlockCounts(
      long lowRedundancy, long corrupt, long missing, long missingReplicationOne, long pending) {}

  private GetStats() {}

  /** The array indexed by {@code ClientProtocol.GET_STATS_*}. */
  public static long[] stats(Storage storage, BlockManager blocks) throws IOException {
    long[] stats = new long[ClientProtocol.STATS_ARRAY_LENGTH];
    for (DatanodeState n : blocks.datanodes().live()) {
      stats[ClientProtocol.GET_STATS_CAPACITY_IDX] += n.capacity();
      stats[ClientProtocol.GET_STATS_USED_IDX] += n.dfsUsed();
      stats[ClientProtocol.GET_STATS_REMAINING_IDX] += n.remaining();
    }
    BlockHealthCounts c = health(storage);
    stats[ClientProtocol.GET_STATS_LOW_REDUNDANCY_IDX] = c.lowRedundancy();
    stats[ClientProtocol.GET_STATS_CORRUPT_BLOCKS_IDX] = c.corrupt();
    stats[ClientProtocol.GET_STATS_MISSING_BLOCKS_IDX] = c.missing();
    stats[ClientProtocol.GET_STATS_MISSING_REPL_ONE_BLOCKS_IDX] = c.missingReplicationOne();
    stats[ClientProtocol.GET_STATS_PENDING_DELETION_BLOCKS_IDX] = c.pendingDeletion();
    return stats;
  }

  public static ReplicatedBlockStats replicated(Storage storage) throws IOException {
    BlockHealthCounts c = health(storage);
    return new ReplicatedBlockStats(
        c.lowRedundancy(),
        c.corrupt(),
        c.missing(),
        c.missingReplicationOne(),
        0,
        c.pendingDeletion());
  }

  /** The leader's last block health count: one batched read. */
  public static BlockHealthCounts health(Storage storage) throws IOException {
    try (Transaction tx = storage.begin()) {
      return BlockHealthCounts.read(tx);
    }
  }

  /** hops has no erasure coding. */
  public static ECBlockGroupStats erasureCoded() {
    return new ECBlockGroupStats(0, 0, 0, 0, 0);
  }

  /**
   * The complete blocks with no live replica, (inode id, block id) in block id order: HDFS's
   * corrupt-file-blocks queue, for {@code listCorruptFileBlocks}.
   */
  public static List<List<Long>> missingBlocks(Storage storage, BlockManager blocks)
      throws StorageException {
    List<List<Long>> missing = new ArrayList<>();
    blockCounts(storage, blocks, missing);
    missing.sort(java.util.Comparator.comparing((List<Long> b) -> b.get(1)));
    return missing;
  }

  private static BlockCounts blockCounts(
      Storage storage, BlockManager blocks, List<List<Long>> missingOut) throws StorageException {
    DatanodeManager datanodes = blocks.datanodes();
    try (Transaction tx = storage.begin()) {
      Set<List<Long>> candidates = new LinkedHashSet<>(); // (inode id, block id)
      for (UnderReplicatedBlockRow r :
          tx.scanAll(UnderReplicatedBlockRow.TABLE, LockMode.READ_COMMITTED)) {
        candidates.add(List.of(r.inodeId(), r.blockId()));
      }
      for (PendingBlockRow r : tx.scanAll(PendingBlockRow.TABLE, LockMode.READ_COMMITTED)) {
        candidates.add(List.of(r.inodeId(), r.blockId()));
      }
      Map<List<Long>, Set<Integer>> corrupt = new HashMap<>();
      for (CorruptReplicaRow r : tx.scanAll(CorruptReplicaRow.TABLE, LockMode.READ_COMMITTED)) {
        List<Long> block = List.of(r.inodeId(), r.blockId());
        corrupt.computeIfAbsent(block, b -> new HashSet<>()).add(r.storageId());
        candidates.add(block);
      }
      long pending = tx.scanAll(InvalidatedBlockRow.TABLE, LockMode.READ_COMMITTED).size();
      Map<Long, Short> replication = new HashMap<>();
      long low = 0;
      long missing = 0;
      long missingOne = 0;
      long corruptBlocks = 0;
      for (List<Long> candidate : candidates) {
        Set<Integer> bad = corrupt.getOrDefault(candidate, Set.of());
        BlockHealth h =
            BlockHealth.of(tx, datanodes, candidate.get(0), candidate.get(1), bad, replication);
        if (h == BlockHealth.NOT_COUNTED) {
          continue;
        }
        if (!bad.isEmpty()) {
          corruptBlocks++;
        }
        if (h == BlockHealth.MISSING || h == BlockHealth.MISSING_REPLICATION_ONE) {
          missing++;
          missingOut.add(candidate);
          if (h == BlockHealth.MISSING_REPLICATION_ONE) {
            missingOne++;
          }
        } else if (h == BlockHealth.LOW_REDUNDANCY) {
          low++;
        }
      }
      return new BlockCounts(low, corruptBlocks, missing, missingOne, pending);
    }
  }
}
