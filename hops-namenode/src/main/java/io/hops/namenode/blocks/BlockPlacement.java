package io.hops.namenode.blocks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyWithUpgradeDomain;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where new replicas go, and which go when there are too many (HDFS BlockPlacementPolicyDefault). A
 * target is a live datanode this namenode has heard from since it started, with room for a whole
 * block on one storage, not excluded, not already holding the block, and not much busier than
 * average. Favored nodes come first, then the writer's own node; the others follow HDFS's rack
 * rule, over the network locations stored with the datanodes (docs/architecture.md, "Racks"): the
 * first replica on the writer's node (or its rack, or anywhere), the second on another rack, the
 * third on the second's rack (or, for a block whose first two replicas share a rack, on another),
 * the rest anywhere, never more than {@code (replicas-1)/racks+2} on one rack. Each replica goes to
 * a storage of the type the file's storage policy asks for, as the datanodes report their storages'
 * types. With {@code dfs.block.replicator.classname} set to HDFS's {@code
 * BlockPlacementPolicyWithUpgradeDomain}, a block's replicas also go to distinct upgrade domains
 * (the JSON hosts file's, a datanode without one being a domain of its own) until they span {@code
 * dfs.namenode.upgrade.domain.factor} of them, as in HDFS (docs/architecture.md, "Racks").
 */
public final class BlockPlacement {
  private static final Logger LOG = LoggerFactory.getLogger(BlockPlacement.class);

  /** A replica the block already has (or a pipeline already uses): its datanode and type. */
  public record Placed(String datanodeUuid, StorageType type) {}

  private final DatanodeManager datanodes;
  private final boolean avoidStaleForRead;
  private final long staleMillis;

  /** How many upgrade domains a block's replicas must span; 0 when the policy ignores them. */
  private final int upgradeDomainFactor;

  public BlockPlacement(DatanodeManager datanodes, Configuration conf) {
    this.datanodes = datanodes;
    this.upgradeDomainFactor = upgradeDomainFactor(conf);
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
   * {@code dfs.namenode.upgrade.domain.factor} when {@code dfs.block.replicator.classname} names
   * HDFS's upgrade-domain policy, else 0. Other policies than HDFS's default and that one are not
   * implemented: the default rule serves them, with a warning.
   */
  private static int upgradeDomainFactor(Configuration conf) {
    String policy = conf.getTrimmed(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, "");
    if (policy.equals(BlockPlacementPolicyWithUpgradeDomain.class.getName())) {
      return conf.getInt(
          DFSConfigKeys.DFS_UPGRADE_DOMAIN_FACTOR, DFSConfigKeys.DFS_UPGRADE_DOMAIN_FACTOR_DEFAULT);
    }
    if (!policy.isEmpty() && !policy.equals(BlockPlacementPolicyDefault.class.getName())) {
      LOG.warn(
          "{} = {} is not supported: blocks are placed by HDFS's default policy",
          DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
          policy);
    }
    return 0;
  }

  /** A datanode's upgrade domain, or its transfer address when it has none (as HDFS falls back). */
  static String upgradeDomainOf(DatanodeState n) {
    String d = n.upgradeDomain();
    return d != null ? d : n.id().getXferAddr();
  }

  /**
   * Which datanodes may take the block's next replica under the upgrade-domain policy (HDFS
   * isGoodDatanode): until its replicas, those it has and those chosen, span the factor's number of
   * domains, only one in a domain they do not use. HDFS asks this while fewer replicas than the
   * factor are placed; counting domains instead is the same for a new block (its replicas are in
   * distinct domains) and lets a block whose replicas share a domain be spread again.
   */
  private Predicate<DatanodeState> addsDomain(List<Placed> chosen, List<StorageStat> out) {
    if (upgradeDomainFactor <= 0) {
      return n -> true;
    }
    Set<String> domains = new HashSet<>();
    for (Placed p : chosen) {
      DatanodeState n = datanodes.node(p.datanodeUuid());
      if (n != null) {
        domains.add(upgradeDomainOf(n));
      }
    }
    for (StorageStat s : out) {
      domains.add(upgradeDomainOf(datanodes.node(s.ref.datanodeUuid())));
    }
    if (domains.size() >= upgradeDomainFactor) {
      return n -> true;
    }
    return n -> !domains.contains(upgradeDomainOf(n));
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
   * {@code policy} and whose replicas so far are {@code chosen} (HDFS
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
      moveFirst(candidates, preferred, n -> isOn(n, writer));
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
            && addsDomain(chosen, out).test(n)) {
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
      boolean isWriter = !local && isOn(n, writer);
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
        addsDomain(chosen, out).and(n -> perRack.getOrDefault(n.location(), 0) < maxPerRack);
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
   * Whether a block's replicas are spread as the policy wants (HDFS verifyBlockPlacement): on at
   * least two racks when the cluster has two and the block wants two replicas, and, under the
   * upgrade-domain policy, on as many upgrade domains as it wants replicas, up to the factor; false
   * means mis-replicated.
   */
  public boolean isPlacementSatisfied(Collection<String> datanodeUuids, int replication) {
    Set<String> racks = new HashSet<>();
    Set<String> domains = new HashSet<>();
    for (String uuid : datanodeUuids) {
      DatanodeState n = datanodes.node(uuid);
      if (n != null) {
        racks.add(n.location());
        if (upgradeDomainFactor > 0) { // a block's every check on the hot path: no work if unused
          domains.add(upgradeDomainOf(n));
        }
      }
    }
    return violation(racks, domains, replication, datanodes.racks()) == null;
  }

  /**
   * Why a block with replicas on {@code locations} breaks the policy for {@code replication}
   * replicas in a cluster of {@code totalRacks} racks, in HDFS's words (BlockPlacementStatus
   * getErrorDescription), or null when it does not: as {@link #isPlacementSatisfied}, for fsck.
   */
  public String violation(DatanodeInfo[] locations, int replication, int totalRacks) {
    Set<String> racks = new HashSet<>();
    Set<String> domains = new HashSet<>();
    for (DatanodeInfo d : locations) {
      racks.add(d.getNetworkLocation());
      domains.add(d.getUpgradeDomain() != null ? d.getUpgradeDomain() : d.getXferAddr());
    }
    return violation(racks, domains, replication, totalRacks);
  }

  private String violation(
      Set<String> racks, Set<String> domains, int replication, int totalRacks) {
    // HDFS BlockPlacementStatusDefault: a cluster that never had two racks has no rack rule.
    int requiredRacks = Math.min(2, replication);
    boolean racksOk =
        totalRacks <= 1 || racks.size() >= requiredRacks || racks.size() >= totalRacks;
    boolean domainsOk =
        upgradeDomainFactor <= 0
            || (replication <= upgradeDomainFactor
                ? replication <= domains.size()
                : domains.size() >= upgradeDomainFactor);
    if (racksOk && domainsOk) {
      return null;
    }
    StringBuilder why = new StringBuilder();
    if (!racksOk) {
      why.append("Block should be additionally replicated on ")
          .append(requiredRacks - racks.size())
          .append(" more rack(s). Total number of racks in the cluster: ")
          .append(totalRacks);
    }
    if (!domainsOk) {
      if (why.length() > 0) {
        why.append(' ');
      }
      why.append("The block has ")
          .append(replication)
          .append(" replicas. But it only has ")
          .append(domains.size())
          .append(" upgrade domains ")
          .append(domains)
          .append('.');
    }
    return why.toString();
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
   * Which {@code count} of a block's replicas to delete when it has too many (HDFS
   * BlockPlacementPolicyDefault.chooseReplicasToDelete): each time among the replicas on a rack
   * that holds more than one (all of them if none does), so that no rack is left without its copy,
   * the one whose datanode has been silent longer than {@code staleMillis} the longest, else the
   * one with the least remaining space.
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
    if (upgradeDomainFactor <= 0) {
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
    return n == null ? r.datanodeUuid() : upgradeDomainOf(n);
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

  /** Whether {@code n} runs on the machine {@code host} (an address or a host name). */
  public static boolean isOn(DatanodeState n, String host) {
    return host.equals(n.id().getIpAddr()) || host.equals(n.id().getHostName());
  }

  /**
   * Sorts replicas for a reader as HDFS's DatanodeManager.sortLocatedBlock does: live nodes first
   * (stale ones after them when {@code dfs.namenode.avoid.read.stale.datanode} is set), then nodes
   * not live here; among the first, by network distance to the reader (its own node, then its rack,
   * then the rest), ties shuffled so that reads spread. A reader on no datanode's host is placed by
   * the topology mapping; one it cannot place is equally far from all.
   */
  public <T> void sortForReader(
      List<T> replicas, Function<T, DatanodeState> nodeOf, String reader) {
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
