package io.hops.namenode.blocks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.util.Time;

/**
 * Which of a block's replicas go when it has too many (HDFS
 * BlockPlacementPolicyDefault.chooseReplicasToDelete), for {@link BlockPlacement}: never the last
 * copy on a rack, nor, under the upgrade-domain policy, the last in a domain.
 */
final class ExcessReplicas {
  private final DatanodeManager datanodes;
  private final UpgradeDomains upgradeDomains;

  ExcessReplicas(DatanodeManager datanodes, UpgradeDomains upgradeDomains) {
    this.datanodes = datanodes;
    this.upgradeDomains = upgradeDomains;
  }

  /**
   * Which {@code count} of a block's replicas to delete when it has too many (HDFS
   * BlockPlacementPolicyDefault.chooseReplicasToDelete): each time among the replicas on a rack
   * that holds more than one (all of them if none does), so that no rack is left without its copy,
   * the one whose datanode has been silent longer than {@code staleMillis} the longest, else the
   * one with the least remaining space.
   */
  List<StorageRef> chooseExcess(List<StorageRef> replicas, int count, long staleMillis) {
    List<StorageRef> left = new ArrayList<>(replicas);
    List<StorageRef> out = new ArrayList<>(count);
    long staleBefore = Time.monotonicNow() - staleMillis;
    while (out.size() < count && !left.isEmpty()) {
      StorageRef oldest = null;
      long oldestBeat = staleBefore;
      StorageRef fullest = null;
      long minSpace = Long.MAX_VALUE;
      for (StorageRef r : deletable(left)) {
        DatanodeState n = datanodes.node(r.datanodeUuid());
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
   * The replicas to delete one of (HDFS pickupReplicaSet): those on racks holding more than one, or
   * all if none does; under the upgrade-domain policy, when some replicas share a domain, those of
   * them that also share a rack, else all of them that share a domain, so that a deletion leaves
   * the domains the block spans.
   */
  private List<StorageRef> deletable(List<StorageRef> replicas) {
    List<StorageRef> byRack = onSharedRacks(replicas);
    if (upgradeDomains.factor() <= 0) {
      return byRack;
    }
    Map<String, Integer> perDomain = new HashMap<>();
    for (StorageRef r : replicas) {
      perDomain.merge(domainOf(r), 1, Integer::sum);
    }
    List<StorageRef> sharedDomain = new ArrayList<>();
    for (StorageRef r : replicas) {
      if (perDomain.get(domainOf(r)) > 1) {
        sharedDomain.add(r);
      }
    }
    if (sharedDomain.isEmpty()) {
      return byRack;
    }
    boolean someRackShared = sharesARack(replicas);
    List<StorageRef> sharedBoth = new ArrayList<>();
    for (StorageRef r : sharedDomain) {
      if (someRackShared && byRack.contains(r)) {
        sharedBoth.add(r);
      }
    }
    return sharedBoth.isEmpty() ? sharedDomain : sharedBoth;
  }

  private boolean sharesARack(List<StorageRef> replicas) {
    Set<String> racks = new HashSet<>();
    for (StorageRef r : replicas) {
      if (!racks.add(rackOf(r))) {
        return true;
      }
    }
    return false;
  }

  private String domainOf(StorageRef r) {
    DatanodeState n = datanodes.node(r.datanodeUuid());
    return n == null ? r.datanodeUuid() : UpgradeDomains.of(n);
  }

  /**
   * The replicas on racks holding more than one of them, or all if none does (HDFS moreThanOne).
   */
  private List<StorageRef> onSharedRacks(List<StorageRef> replicas) {
    Map<String, Integer> perRack = new HashMap<>();
    for (StorageRef r : replicas) {
      perRack.merge(rackOf(r), 1, Integer::sum);
    }
    List<StorageRef> shared = new ArrayList<>();
    for (StorageRef r : replicas) {
      if (perRack.get(rackOf(r)) > 1) {
        shared.add(r);
      }
    }
    return shared.isEmpty() ? replicas : shared;
  }

  private String rackOf(StorageRef r) {
    DatanodeState n = datanodes.node(r.datanodeUuid());
    return n == null ? NetworkTopology.DEFAULT_RACK : n.location();
  }
}
