package io.hops.namenode.blocks;

import io.hops.namenode.blocks.DatanodeManager.Node;
import io.hops.namenode.blocks.DatanodeManager.StorageStat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.util.Time;

/**
 * Where new replicas go (HDFS BlockPlacementPolicyDefault, without racks: every node is on {@link
 * DatanodeManager#DEFAULT_RACK}). A target is a live datanode this namenode has heard from since it
 * started, with room for a whole block on one storage, not excluded, not already holding the block,
 * and not much busier than average; favored nodes come first, then the writer's own node, then the
 * others in random order. Each replica goes to a storage of the type the file's storage policy asks
 * for, as the datanodes report their storages' types.
 */
public final class BlockPlacement {
  private final DatanodeManager datanodes;

  public BlockPlacement(DatanodeManager datanodes) {
    this.datanodes = datanodes;
  }

  /**
   * Up to {@code count} storages on distinct datanodes for a block of the default policy (HOT) that
   * has no replicas yet. {@code excluded} holds datanode uuids, {@code favored} transfer addresses
   * ({@code host:port}); {@code writer} is the client's address.
   */
  public List<StorageStat> chooseTargets(
      int count, String writer, Set<String> excluded, List<String> favored, long blockSize) {
    return chooseTargets(
        count, writer, excluded, favored, blockSize, StoragePolicies.defaultPolicy(), List.of());
  }

  /**
   * Up to {@code count} more storages, on distinct datanodes, for a block whose storage policy is
   * {@code policy} and whose replicas so far are on storages of the types {@code chosen} (HDFS
   * BlockPlacementPolicyDefault.chooseTarget): the policy names the types wanted for all the
   * replicas, less those already chosen; a target is a storage of a wanted type. When some wanted
   * type cannot be placed, the types still wanted count as unavailable and the rest is placed again
   * with the policy's fallbacks for them (creation fallbacks for a block with no replica yet,
   * replication fallbacks otherwise); a type with no fallback is dropped, so fewer targets may come
   * back (HDFS: COLD without ARCHIVE storage places nothing).
   */
  public List<StorageStat> chooseTargets(
      int count,
      String writer,
      Set<String> excluded,
      List<String> favored,
      long blockSize,
      BlockStoragePolicy policy,
      List<StorageType> chosen) {
    List<Node> candidates = new ArrayList<>();
    for (Node n : datanodes.heardFromLive()) {
      if (!excluded.contains(n.uuid()) && hasRoom(n, blockSize)) {
        candidates.add(n);
      }
    }
    dropBusy(candidates, count);
    Collections.shuffle(candidates, ThreadLocalRandom.current());
    List<Node> preferred = new ArrayList<>();
    if (favored != null) {
      for (String f : favored) {
        moveFirst(candidates, preferred, n -> matchesAddress(n, f));
      }
    }
    if (writer != null) {
      moveFirst(candidates, preferred, n -> isOn(n, writer));
    }
    boolean newBlock = chosen.isEmpty();
    short total = (short) (count + chosen.size());
    EnumSet<StorageType> unavailable = EnumSet.noneOf(StorageType.class);
    List<StorageStat> out = new ArrayList<>(count);
    Set<String> used = new HashSet<>();
    while (true) {
      List<StorageType> have = new ArrayList<>(chosen);
      out.forEach(s -> have.add(s.ref.type()));
      EnumMap<StorageType, Integer> wanted =
          counts(policy.chooseStorageTypes(total, have, unavailable, newBlock));
      Set<StorageType> firstTry = unavailable.isEmpty() ? EnumSet.noneOf(StorageType.class) : null;
      if (firstTry != null) {
        firstTry.addAll(wanted.keySet());
      }
      // The writer's and favored nodes take the first wanted type they have (HDFS
      // chooseLocalOrFavoredStorage); each other replica goes to a random node with room on the
      // first wanted type some node has (HDFS chooseRandom over DFSNetworkTopology).
      for (Node n : preferred) {
        if (out.size() < count && !used.contains(n.uuid())) {
          take(n, null, wanted, blockSize, out, used);
        }
      }
      while (out.size() < count && takeRandom(candidates, wanted, blockSize, out, used)) {
        // placed one more
      }
      if (out.isEmpty() && firstTry != null) {
        excludeTried(excluded, writer, firstTry);
      }
      if (out.size() == count || !unavailable.addAll(wanted.keySet())) {
        return out;
      }
    }
  }

  private void excludeTried(Set<String> excluded, String writer, Set<StorageType> types) {
    boolean local = writer == null; // HDFS resolves the writer's host to one datanode
    for (Node n : datanodes.live()) {
      boolean hasType =
          n.storages().stream().anyMatch(s -> !s.failed && types.contains(s.ref.type()));
      boolean isWriter = !local && isOn(n, writer);
      if (hasType || isWriter) {
        excluded.add(n.uuid());
        local |= isWriter;
      }
    }
  }

  private boolean takeRandom(
      List<Node> nodes,
      EnumMap<StorageType, Integer> wanted,
      long blockSize,
      List<StorageStat> out,
      Set<String> used) {
    for (StorageType t : wanted.keySet()) {
      for (Node n : nodes) {
        if (!used.contains(n.uuid()) && take(n, t, wanted, blockSize, out, used)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Places a replica on {@code n}: on a storage of type {@code only}, or if null of the first
   * wanted type it has room on. Counts the type off {@code wanted}.
   */
  private static boolean take(
      Node n,
      StorageType only,
      EnumMap<StorageType, Integer> wanted,
      long blockSize,
      List<StorageStat> out,
      Set<String> used) {
    for (var it = wanted.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (only != null && e.getKey() != only) {
        continue;
      }
      StorageStat s = roomiest(n, e.getKey(), blockSize);
      if (s != null) {
        if (e.getValue() == 1) {
          it.remove();
        } else {
          e.setValue(e.getValue() - 1);
        }
        out.add(s);
        used.add(n.uuid());
        return true;
      }
    }
    return false;
  }

  /** The storage of type {@code t} on {@code n} with the most room, if it has a block's worth. */
  private static StorageStat roomiest(Node n, StorageType t, long blockSize) {
    StorageStat best = null;
    for (StorageStat s : n.storages()) {
      if (!s.failed
          && s.ref.type() == t
          && s.remaining >= blockSize
          && (best == null || s.remaining > best.remaining)) {
        best = s;
      }
    }
    return best;
  }

  private static boolean hasRoom(Node n, long blockSize) {
    for (StorageStat s : n.storages()) {
      if (!s.failed && s.remaining >= blockSize) {
        return true;
      }
    }
    return false;
  }

  private static EnumMap<StorageType, Integer> counts(List<StorageType> types) {
    EnumMap<StorageType, Integer> out = new EnumMap<>(StorageType.class);
    types.forEach(t -> out.merge(t, 1, Integer::sum));
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
