package io.hops.namenode.metrics;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.namenode.blocks.BlockHealthCounts;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.housekeeping.NamespaceCensus;
import io.hops.namenode.ops.GetStats;
import io.hops.namenode.rpc.SafeMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.util.Time;

/**
 * The cluster-wide values the HDFS metrics report, read together: capacity and block health from
 * the code of the {@code getStats} RPC ({@link GetStats}), files and blocks from the leader's
 * {@link NamespaceCensus}, safe mode from the database, and the datanodes from this namenode's
 * heartbeats (every namenode gets every heartbeat, so they agree, as HDFS's soft state). As in
 * HDFS's dead-node metrics, a dead datanode the include list leaves out is not counted, and the
 * include list's hosts that no datanode registered from are ({@code neverRegistered}).
 */
public record ClusterSnapshot(
    long capacityTotal,
    long capacityUsed,
    long capacityRemaining,
    long blockPoolUsed,
    long lowRedundancyBlocks,
    long corruptBlocks,
    long missingBlocks,
    long missingReplicationOneBlocks,
    long pendingDeletionBlocks,
    long pendingReplicationBlocks,
    long filesTotal,
    long blocksTotal,
    long censusTakenAt,
    List<DatanodeState> liveNodes,
    List<DatanodeState> deadNodes,
    List<DatanodeInfo> neverRegistered,
    int staleNodes,
    int totalLoad,
    boolean safeMode,
    long takenAtMillis) {

  public long capacityUsedNonDfs() {
    return Math.max(0, capacityTotal - capacityUsed - capacityRemaining);
  }

  public float percentUsed() {
    return capacityTotal <= 0 ? 100f : capacityUsed * 100f / capacityTotal;
  }

  /** HDFS's count of dead datanodes: the dead registered ones and the never-registered. */
  public int deadCount() {
    return deadNodes.size() + neverRegistered.size();
  }

  public float percentRemaining() {
    return capacityTotal <= 0 ? 0f : capacityRemaining * 100f / capacityTotal;
  }

  /** Reads the values now. */
  public static ClusterSnapshot take(
      Storage storage, BlockManager blocks, Configuration conf, SafeMode safeMode)
      throws IOException {
    long[] stats = GetStats.stats(storage, blocks);
    long[] census;
    long pendingReplication;
    try (Transaction tx = storage.begin()) {
      census = NamespaceCensus.read(tx);
      pendingReplication = BlockHealthCounts.read(tx).pendingReplication();
    }
    DatanodeManager dm = blocks.datanodes();
    dm.admin().refresh(true); // another namenode may have changed the hosts lists just now
    long staleAfter =
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
    List<DatanodeState> live = new ArrayList<>();
    List<DatanodeState> dead = new ArrayList<>();
    int stale = 0;
    int load = 0;
    long bpUsed = 0;
    long now = Time.monotonicNow();
    for (DatanodeState n : dm.all()) {
      if (!dm.isLive(n)) {
        if (dm.admin().isIncluded(n.id())) {
          dead.add(n);
        }
      } else if (n.heardFrom()) {
        live.add(n);
        load += n.xceivers();
        bpUsed += n.blockPoolUsed();
        if (now - n.lastHeartbeat() > staleAfter) {
          stale++;
        }
      }
    }
    return new ClusterSnapshot(
        stats[ClientProtocol.GET_STATS_CAPACITY_IDX],
        stats[ClientProtocol.GET_STATS_USED_IDX],
        stats[ClientProtocol.GET_STATS_REMAINING_IDX],
        bpUsed,
        stats[ClientProtocol.GET_STATS_LOW_REDUNDANCY_IDX],
        stats[ClientProtocol.GET_STATS_CORRUPT_BLOCKS_IDX],
        stats[ClientProtocol.GET_STATS_MISSING_BLOCKS_IDX],
        stats[ClientProtocol.GET_STATS_MISSING_REPL_ONE_BLOCKS_IDX],
        stats[ClientProtocol.GET_STATS_PENDING_DELETION_BLOCKS_IDX],
        pendingReplication,
        census[0],
        census[1],
        census[2],
        List.copyOf(live),
        List.copyOf(dead),
        dm.unregisteredIncludes().list(dm),
        stale,
        load,
        safeMode.get(),
        System.currentTimeMillis());
  }
}
