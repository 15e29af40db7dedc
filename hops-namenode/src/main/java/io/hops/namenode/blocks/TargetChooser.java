package io.hops.namenode.blocks;

import io.hops.namenode.blocks.BlockPlacement.Placed;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;

/**
 * Where a block's new replicas go (HDFS BlockPlacementPolicyDefault.chooseTarget), for {@link
 * BlockPlacement}: a target is a live datanode this namenode has heard from since it started, with
 * room for a whole block on one storage, not excluded, not already holding the block, and not much
 * busier than average. Favored nodes come first, then the writer's own node; the others follow
 * HDFS's rack rule, over the network locations stored with the datanodes (docs/architecture.md,
 * "Racks"): the first replica on the writer's node (or its rack, or anywhere), the second on
 * another rack, the third on the second's rack (or, for a block whose first two replicas share a
 * rack, on another), the rest anywhere, never more than {@code (replicas-1)/racks+2} on one rack.
 * Each replica goes to a storage of the type the file's storage policy asks for, as the datanodes
 * report their storages' types, and to a new upgrade domain while {@link UpgradeDomains} asks for
 * one.
 */
final class TargetChooser {
  private final DatanodeManager datanodes;
  private final UpgradeDomains upgradeDomains;

  TargetChooser(DatanodeManager datanodes, UpgradeDomains upgradeDomains) {
    this.datanodes = datanodes;
    this.upgradeDomains = upgradeDomains;
  }

  /**
   * Up to {@code count} more storages, on distinct datanodes, for a block whose storage policy is
   * {@code policy} and whose replicas so far are {@code chosen} (HDFS
   * BlockPlacementPolicyDefault.chooseTarget): the policy names the types wanted for all the
   * replicas, less those already chosen; a target is a storage of a wanted type. When some wanted
   * type cannot be placed, the types still wanted count as unavailable and the rest is placed again
   * with the policy's fallbacks for them (creation fallbacks for a block with no replica yet,
   * replication fallbacks otherwise); a type with no fallback is dropped, so fewer targets may come
   * back (HDFS: COLD without ARCHIVE storage places nothing).
   */
  List<StorageStat> chooseTargets(
      int count,
      String writer,
      Set<String> excluded,
      List<String> favored,
      long blockSize,
      BlockStoragePolicy policy,
      List<Placed> chosen) {
    if (count <= 0) {
      return List.of();
    }
    List<DatanodeState> candidates = new ArrayList<>();
    for (DatanodeState n : datanodes.heardFromLive()) {
      // HDFS isGoodDatanode: a datanode being decommissioned takes no new replica.
      if (n.isInService() && !excluded.contains(n.uuid()) && hasRoom(n, blockSize)) {
        candidates.add(n);
      }
    }
    dropBusy(candidates, count);
    Collections.shuffle(candidates, ThreadLocalRandom.current());
    List<DatanodeState> preferred = new ArrayList<>();
    if (favored != null) {
      for (String f : favored) {
        moveFirst(candidates, preferred, n -> matchesAddress(n, f));
      }
    }
    if (writer != null) {
      moveFirst(candidates, preferred, n -> BlockPlacement.isOn(n, writer));
    }
    DatanodeState writerNode = writer == null ? null : datanodes.onHost(writer);
    int maxPerRack = maxPerRack(chosen.size(), count);
    boolean newBlock = chosen.isEmpty();
    short total = (short) (count + chosen.size());
    EnumSet<StorageType> unavailable = EnumSet.noneOf(StorageType.class);
    List<StorageStat> out = new ArrayList<>(count);
    Set<String> used = new HashSet<>();
    while (true) {
      List<StorageType> have = new ArrayList<>();
      chosen.forEach(p -> have.add(p.type()));
      out.forEach(s -> have.add(s.ref.type()));
      EnumMap<StorageType, Integer> wanted =
          counts(policy.chooseStorageTypes(total, have, unavailable, newBlock));
      Set<StorageType> firstTry = unavailable.isEmpty() ? EnumSet.noneOf(StorageType.class) : null;
      if (firstTry != null) {
        firstTry.addAll(wanted.keySet());
      }
      // The writer's and favored nodes take the first wanted type they have (HDFS
      // chooseLocalOrFavoredStorage); each other replica goes to a random node with room on the
      // first wanted type some node has (HDFS chooseRandom over DFSNetworkTopology), on the rack
      // HDFS's order asks for if it can.
      for (DatanodeState n : preferred) {
        if (out.size() < count
            && !used.contains(n.uuid())
            && perRack(chosen, out).getOrDefault(n.location(), 0) < maxPerRack
            && upgradeDomains.addsDomain(chosen, out).test(n)) {
          take(n, null, wanted, blockSize, out, used);
        }
      }
      while (out.size() < count
          && takeNext(candidates, wanted, blockSize, out, used, chosen, writerNode, maxPerRack)) {
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
    for (DatanodeState n : datanodes.live()) {
      boolean hasType =
          n.storages().stream().anyMatch(s -> !s.failed && types.contains(s.ref.type()));
      boolean isWriter = !local && BlockPlacement.isOn(n, writer);
      if (hasType || isWriter) {
        excluded.add(n.uuid());
        local |= isWriter;
      }
    }
  }

  /**
   * Places one more replica by HDFS's order (chooseTargetInOrder): with none placed, on the
   * writer's rack; after one, on another rack; after two on one rack, on another; after two on two
   * racks, on the second's rack (or, re-replicating, the writer's); failing that, or after three,
   * anywhere; always within {@code maxPerRack}.
   */
  private boolean takeNext(
      List<DatanodeState> nodes,
      EnumMap<StorageType, Integer> wanted,
      long blockSize,
      List<StorageStat> out,
      Set<String> used,
      List<Placed> chosen,
      DatanodeState writer,
      int maxPerRack) {
    List<String> racks = new ArrayList<>();
    for (Placed p : chosen) {
      DatanodeState n = datanodes.node(p.datanodeUuid());
      if (n != null) {
        racks.add(n.location());
      }
    }
    for (StorageStat s : out) {
      racks.add(datanodes.node(s.ref.datanodeUuid()).location());
    }
    Map<String, Integer> perRack = perRack(chosen, out);
    Predicate<DatanodeState> roomOnRack =
        upgradeDomains
            .addsDomain(chosen, out)
            .and(n -> perRack.getOrDefault(n.location(), 0) < maxPerRack);
    Predicate<DatanodeState> first = null;
    if (racks.isEmpty()) {
      first = writer == null ? null : onRack(writer.location());
    } else if (racks.size() == 1 || (racks.size() == 2 && racks.get(0).equals(racks.get(1)))) {
      first = onRack(racks.get(0)).negate();
    } else if (racks.size() == 2) {
      // Re-replicating, HDFS's writer is the copy's source, or else the first replica.
      boolean newBlock = chosen.isEmpty();
      String writerRack = writer == null ? racks.get(0) : writer.location();
      first = onRack(newBlock ? racks.get(1) : writerRack);
    }
    return (first != null && takeRandom(nodes, wanted, blockSize, out, used, roomOnRack.and(first)))
        || takeRandom(nodes, wanted, blockSize, out, used, roomOnRack);
  }

  private static Predicate<DatanodeState> onRack(String rack) {
    return n -> n.location().equals(rack);
  }

  /** How many of the block's replicas, those it has and those chosen, each rack holds. */
  private Map<String, Integer> perRack(List<Placed> chosen, List<StorageStat> out) {
    Map<String, Integer> counts = new HashMap<>();
    for (Placed p : chosen) {
      DatanodeState n = datanodes.node(p.datanodeUuid());
      if (n != null) {
        counts.merge(n.location(), 1, Integer::sum);
      }
    }
    for (StorageStat s : out) {
      counts.merge(datanodes.node(s.ref.datanodeUuid()).location(), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * HDFS getMaxNodesPerRack: {@code (replicas-1)/racks+2}, less one if that would let every replica
   * share a rack; all of them on a one-rack cluster.
   */
  private int maxPerRack(int chosen, int count) {
    int total = Math.min(chosen + count, datanodes.live().size());
    int racks = datanodes.racks();
    if (racks <= 1 || total <= 1) {
      return Math.max(total, 1);
    }
    int max = (total - 1) / racks + 2;
    return max == total ? max - 1 : max;
  }

  private boolean takeRandom(
      List<DatanodeState> nodes,
      EnumMap<StorageType, Integer> wanted,
      long blockSize,
      List<StorageStat> out,
      Set<String> used,
      Predicate<DatanodeState> allowed) {
    for (StorageType t : wanted.keySet()) {
      for (DatanodeState n : nodes) {
        if (!used.contains(n.uuid())
            && allowed.test(n)
            && take(n, t, wanted, blockSize, out, used)) {
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
      DatanodeState n,
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
  private static StorageStat roomiest(DatanodeState n, StorageType t, long blockSize) {
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

  private static boolean hasRoom(DatanodeState n, long blockSize) {
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
   * HDFS's considerLoad: skip nodes with more than twice the average transfers, if others will do.
   */
  private static void dropBusy(List<DatanodeState> candidates, int count) {
    if (candidates.size() <= count) {
      return;
    }
    double avg = candidates.stream().mapToInt(DatanodeState::xceivers).average().orElse(0);
    List<DatanodeState> calm = new ArrayList<>();
    for (DatanodeState n : candidates) {
      if (n.xceivers() <= 2 * avg + 2) {
        calm.add(n);
      }
    }
    if (calm.size() >= count) {
      candidates.retainAll(calm);
    }
  }

  private static void moveFirst(
      List<DatanodeState> from,
      List<DatanodeState> to,
      java.util.function.Predicate<DatanodeState> which) {
    for (int i = 0; i < from.size(); i++) {
      if (which.test(from.get(i))) {
        to.add(from.remove(i));
        return;
      }
    }
  }

  private static boolean matchesAddress(DatanodeState n, String hostPort) {
    return hostPort.equals(n.id().getXferAddr())
        || hostPort.equals(n.id().getXferAddrWithHostname());
  }
}
