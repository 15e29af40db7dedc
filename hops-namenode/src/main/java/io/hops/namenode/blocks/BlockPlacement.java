package io.hops.namenode.blocks;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * Where new replicas go, and which go when there are too many (HDFS BlockPlacementPolicyDefault),
 * over the datanodes this namenode knows. Each rule is its own class: {@link TargetChooser} (the
 * rack rule, storage types and favored nodes, for new blocks and re-replication), {@link
 * ExcessReplicas} (which replicas to delete), {@link PlacementStatus} (whether a block's replicas
 * are spread as the policy wants), {@link ReaderOrder} (replicas sorted for a reader) and {@link
 * UpgradeDomains} (HDFS's {@code BlockPlacementPolicyWithUpgradeDomain}, when {@code
 * dfs.block.replicator.classname} names it). docs/architecture.md, "Racks".
 */
public final class BlockPlacement {

  /** A replica the block already has (or a pipeline already uses): its datanode and type. */
  public record Placed(String datanodeUuid, StorageType type) {}

  private final TargetChooser targets;
  private final ExcessReplicas excess;
  private final PlacementStatus status;
  private final ReaderOrder readerOrder;

  public BlockPlacement(DatanodeManager datanodes, Configuration conf) {
    UpgradeDomains upgradeDomains = new UpgradeDomains(datanodes, conf);
    this.targets = new TargetChooser(datanodes, upgradeDomains);
    this.excess = new ExcessReplicas(datanodes, upgradeDomains);
    this.status = new PlacementStatus(datanodes, upgradeDomains);
    this.readerOrder = new ReaderOrder(datanodes, conf);
  }

  /**
   * Up to {@code count} storages on distinct datanodes for a block of the default policy (HOT) that
   * has no replicas yet. {@code excluded} holds datanode uuids, {@code favored} transfer addresses
   * ({@code host:port}); {@code writer} is the client's address.
   */
  public List<StorageStat> chooseTargets(
      int count, String writer, Set<String> excluded, List<String> favored, long blockSize) {
    return targets.chooseTargets(
        count, writer, excluded, favored, blockSize, StoragePolicies.defaultPolicy(), List.of());
  }

  /**
   * Up to {@code count} more storages, on distinct datanodes, for a block whose storage policy is
   * {@code policy} and whose replicas so far are {@code chosen}: {@link TargetChooser}.
   */
  public List<StorageStat> chooseTargets(
      int count,
      String writer,
      Set<String> excluded,
      List<String> favored,
      long blockSize,
      BlockStoragePolicy policy,
      List<Placed> chosen) {
    return targets.chooseTargets(count, writer, excluded, favored, blockSize, policy, chosen);
  }

  /** Whether a block's replicas are spread as the policy wants; false means mis-replicated. */
  public boolean isPlacementSatisfied(Collection<String> datanodeUuids, int replication) {
    return status.isPlacementSatisfied(datanodeUuids, replication);
  }

  /**
   * Why a block with replicas on {@code locations} breaks the policy for {@code replication}
   * replicas in a cluster of {@code totalRacks} racks, in HDFS's words (BlockPlacementStatus
   * getErrorDescription), or null when it does not: as {@link #isPlacementSatisfied}, for fsck.
   */
  public String violation(DatanodeInfo[] locations, int replication, int totalRacks) {
    return status.violation(locations, replication, totalRacks);
  }

  /**
   * Which {@code count} of a block's replicas to delete when it has too many: {@link
   * ExcessReplicas}.
   */
  public List<StorageRef> chooseExcess(List<StorageRef> replicas, int count, long staleMillis) {
    return excess.chooseExcess(replicas, count, staleMillis);
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
    readerOrder.sortForReader(replicas, nodeOf, reader);
  }
}
