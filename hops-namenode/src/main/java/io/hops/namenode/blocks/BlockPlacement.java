package io.hops.namenode.blocks;

import io.hops.namenode.blocks.DatanodeManager.Node;
import io.hops.namenode.blocks.DatanodeManager.StorageStat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.apache.hadoop.util.Time;

/**
 * Where new replicas go (HDFS BlockPlacementPolicyDefault, without racks: every node is on {@link
 * DatanodeManager#DEFAULT_RACK}). A target is a live datanode with room for a whole block on one
 * storage, not excluded, not already holding the block, and not much busier than average; favored
 * nodes come first, then the writer's own node, then the others in random order.
 */
public final class BlockPlacement {
  private final DatanodeManager datanodes;

  public BlockPlacement(DatanodeManager datanodes) {
    this.datanodes = datanodes;
  }

  /**
   * Up to {@code count} storages on distinct datanodes. {@code excluded} holds datanode uuids,
   * {@code favored} transfer addresses ({@code host:port}); {@code writer} is the client's address.
   */
  public List<StorageStat> chooseTargets(
      int count, String writer, Set<String> excluded, List<String> favored, long blockSize) {
    List<Node> candidates = new ArrayList<>();
    for (Node n : datanodes.live()) {
      StorageStat s = n.bestStorage();
      if (!excluded.contains(n.uuid()) && s != null && s.remaining >= blockSize) {
        candidates.add(n);
      }
    }
    dropBusy(candidates, count);
    Collections.shuffle(candidates, ThreadLocalRandom.current());
    List<Node> ordered = new ArrayList<>(candidates.size());
    if (favored != null) {
      for (String f : favored) {
        moveFirst(candidates, ordered, n -> matchesAddress(n, f));
      }
    }
    if (writer != null) {
      moveFirst(candidates, ordered, n -> isOn(n, writer));
    }
    ordered.addAll(candidates);
    List<StorageStat> out = new ArrayList<>(count);
    for (Node n : ordered) {
      if (out.size() == count) {
        break;
      }
      out.add(n.bestStorage());
    }
    return out;
  }

  /**
   * Which {@code count} of a block's replicas to delete when it has too many (HDFS
   * BlockPlacementPolicyDefault.chooseReplicaToDelete, all on one rack): each time the one whose
   * datanode has been silent longer than {@code staleMillis} the longest, else the one with the
   * least remaining space.
   */
  public List<StorageRef> chooseExcess(List<StorageRef> replicas, int count, long staleMillis) {
    List<StorageRef> left = new ArrayList<>(replicas);
    List<StorageRef> out = new ArrayList<>(count);
    long staleBefore = Time.monotonicNow() - staleMillis;
    while (out.size() < count && !left.isEmpty()) {
      StorageRef oldest = null;
      long oldestBeat = staleBefore;
      StorageRef fullest = null;
      long minSpace = Long.MAX_VALUE;
      for (StorageRef r : left) {
        Node n = datanodes.node(r.datanodeUuid());
        long beat = n == null ? Long.MIN_VALUE : n.lastHeartbeat();
        if (beat < oldestBeat) {
          oldestBeat = beat;
          oldest = r;
        }
        StorageStat s = datanodes.stat(r);
        long free = s == null ? 0 : s.remaining;
        if (free < minSpace) {
          minSpace = free;
          fullest = r;
        }
      }
      StorageRef chosen = oldest != null ? oldest : fullest;
      out.add(chosen);
      left.remove(chosen);
    }
    return out;
  }

  /**
   * HDFS's considerLoad: skip nodes with more than twice the average transfers, if others will do.
   */
  private static void dropBusy(List<Node> candidates, int count) {
    if (candidates.size() <= count) {
      return;
    }
    double avg = candidates.stream().mapToInt(Node::xceivers).average().orElse(0);
    List<Node> calm = new ArrayList<>();
    for (Node n : candidates) {
      if (n.xceivers() <= 2 * avg + 2) {
        calm.add(n);
      }
    }
    if (calm.size() >= count) {
      candidates.retainAll(calm);
    }
  }

  private static void moveFirst(
      List<Node> from, List<Node> to, java.util.function.Predicate<Node> which) {
    for (int i = 0; i < from.size(); i++) {
      if (which.test(from.get(i))) {
        to.add(from.remove(i));
        return;
      }
    }
  }

  private static boolean matchesAddress(Node n, String hostPort) {
    return hostPort.equals(n.id().getXferAddr())
        || hostPort.equals(n.id().getXferAddrWithHostname());
  }

  /** Whether {@code n} runs on the machine {@code host} (an address or a host name). */
  public static boolean isOn(Node n, String host) {
    return host.equals(n.id().getIpAddr()) || host.equals(n.id().getHostName());
  }

  /**
   * Sorts replicas for a reader: its own node first, then live nodes, then nodes not heard from
   * (HDFS: by network distance, ties shuffled so that reads spread).
   */
  public <T> void sortForReader(List<T> replicas, Function<T, Node> nodeOf, String reader) {
    Collections.shuffle(replicas, ThreadLocalRandom.current());
    replicas.sort(Comparator.comparingInt(r -> distance(nodeOf.apply(r), reader)));
  }

  private int distance(Node n, String reader) {
    if (n == null) {
      return 3;
    }
    if (!datanodes.isLive(n)) {
      return 2;
    }
    return reader != null && isOn(n, reader) ? 0 : 1;
  }
}
