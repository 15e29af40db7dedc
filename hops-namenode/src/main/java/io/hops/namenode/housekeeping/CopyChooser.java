package io.hops.namenode.housekeeping;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockPlacement;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.housekeeping.ReplicationCheck.Budget;
import io.hops.namenode.housekeeping.ReplicationCheck.Limits;
import io.hops.namenode.housekeeping.ReplicationCheck.Transfer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;

/**
 * The copy {@link ReplicationCheck} makes of a block that needs one: its source (HDFS
 * chooseSourceDatanodes, within the round's budget of streams per datanode) and its targets (the
 * placement policy's choice), and whether the copy spreads a mis-replicated block.
 */
final class CopyChooser {
  /** The copy to make, or none; {@code hopeless}: the datanodes as they are cannot help. */
  record Choice(Transfer transfer, boolean hopeless) {}

  private final BlockManager bm;
  private final DatanodeManager dm;
  private final Budget budget;
  private final Limits limits;

  CopyChooser(BlockManager bm, Budget budget, Limits limits) {
    this.bm = bm;
    this.dm = bm.datanodes();
    this.budget = budget;
    this.limits = limits;
  }

  /**
   * A copy of the block from a live replica, one on a decommissioning datanode too (as HDFS's
   * chooseSourceDatanodes), chosen at random among the datanodes not already sending their share
   * this round, to up to {@code needed} new datanodes, or none if none can be made now; then {@code
   * hopeless} says whether the datanodes as they are cannot help (no live replica, or no datanode
   * to copy to), rather than this round's limits.
   */
  Choice choose(
      BlockInfoRow b,
      List<StorageRef> live,
      List<StorageRef> retiring,
      Set<String> containing,
      PendingBlockRow p,
      int needed,
      int priority,
      BlockStoragePolicy policy) {
    List<StorageRef> copies = new ArrayList<>(live);
    copies.addAll(retiring);
    boolean hopeless = copies.isEmpty();
    if (budget.transfersLeft <= 0 || copies.isEmpty()) {
      return new Choice(null, hopeless);
    }
    int limit =
        priority == ReplicationCheck.HIGHEST_PRIORITY
            ? limits.maxStreamsHard()
            : limits.maxStreams();
    List<DatanodeState> sources = new ArrayList<>();
    for (StorageRef s : copies) {
      DatanodeState n = dm.node(s.datanodeUuid());
      if (n != null && budget.perSource.getOrDefault(n.uuid(), 0) < limit) {
        sources.add(n);
      }
    }
    if (sources.isEmpty()) {
      return new Choice(null, hopeless);
    }
    DatanodeState source = sources.get(ThreadLocalRandom.current().nextInt(sources.size()));
    Set<String> excluded = new HashSet<>(containing);
    if (p != null) {
      for (String id : p.targets().split(",", -1)) {
        if (id.isBlank()) {
          continue;
        }
        StorageRef s = dm.cachedStorage(Integer.parseInt(id.trim()));
        if (s != null) {
          excluded.add(s.datanodeUuid());
        }
      }
    }
    // HDFS ReplicationWork: the live replicas count as chosen, so the new ones get the types the
    // policy still wants, with its replication fallbacks.
    List<BlockPlacement.Placed> chosen =
        live.stream().map(s -> new BlockPlacement.Placed(s.datanodeUuid(), s.type())).toList();
    List<StorageStat> targets =
        bm.placement().chooseTargets(needed, null, excluded, null, b.numBytes(), policy, chosen);
    hopeless = targets.isEmpty();
    return new Choice(hopeless ? null : new Transfer(source, b, targets), hopeless);
  }

  /** Whether the block, with the transfer's copies, is on enough racks. */
  boolean spreads(List<StorageRef> live, Transfer t) {
    List<String> uuids = new ArrayList<>();
    live.forEach(s -> uuids.add(s.datanodeUuid()));
    t.targets().forEach(s -> uuids.add(s.ref.datanodeUuid()));
    return bm.placement().isPlacementSatisfied(uuids, uuids.size());
  }
}
