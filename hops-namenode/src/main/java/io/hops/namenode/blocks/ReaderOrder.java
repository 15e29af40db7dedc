package io.hops.namenode.blocks;

import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.util.Time;

/** The order of a block's replicas for a reader (HDFS DatanodeManager.sortLocatedBlock). */
final class ReaderOrder {
  private final DatanodeManager datanodes;
  private final boolean avoidStaleForRead;
  private final long staleMillis;

  ReaderOrder(DatanodeManager datanodes, Configuration conf) {
    this.datanodes = datanodes;
    this.avoidStaleForRead =
        conf.getBoolean(
            DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_READ_KEY,
            DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_READ_DEFAULT);
    this.staleMillis =
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
  }

  /**
   * Sorts replicas for a reader as HDFS's DatanodeManager.sortLocatedBlock does: live nodes first
   * (stale ones after them when {@code dfs.namenode.avoid.read.stale.datanode} is set), then nodes
   * not live here; among the first, by network distance to the reader (its own node, then its rack,
   * then the rest), ties shuffled so that reads spread. A reader on no datanode's host is placed by
   * the topology mapping; one it cannot place is equally far from all.
   */
  <T> void sortForReader(List<T> replicas, Function<T, DatanodeState> nodeOf, String reader) {
    Collections.shuffle(replicas, ThreadLocalRandom.current());
    if (replicas.size() < 2) {
      return;
    }
    String host = reader == null || reader.isEmpty() ? null : reader;
    DatanodeState readerNode = host == null ? null : datanodes.onHost(host);
    String readerRack =
        readerNode != null
            ? readerNode.location()
            : host == null ? null : datanodes.locationOfHost(host);
    replicas.sort(
        Comparator.comparingInt((T r) -> activity(nodeOf.apply(r)))
            .thenComparingInt(r -> distance(nodeOf.apply(r), readerNode, readerRack, host)));
  }

  /** 0 live, 1 stale (when reads avoid stale nodes), 2 not live here, 3 unknown. */
  private int activity(DatanodeState n) {
    if (n == null) {
      return 3;
    }
    if (!datanodes.isLive(n)) {
      return 2;
    }
    boolean stale = Time.monotonicNow() - n.lastHeartbeat() > staleMillis;
    return avoidStaleForRead && stale ? 1 : 0;
  }

  private static int distance(
      DatanodeState n, DatanodeState readerNode, String readerRack, String reader) {
    if (n == null || readerRack == null) {
      return 0;
    }
    if (n == readerNode) {
      return 0;
    }
    return NetworkLocations.distance(n.location(), n.uuid(), readerRack, reader);
  }
}
