package io.hops.namenode.blocks;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * Whether a block's replicas are spread as the placement policy wants (HDFS
 * BlockPlacementStatusDefault and BlockPlacementStatusWithUpgradeDomain), for {@link
 * BlockPlacement}: a block that is not is mis-replicated.
 */
final class PlacementStatus {
  private final DatanodeManager datanodes;
  private final UpgradeDomains upgradeDomains;

  PlacementStatus(DatanodeManager datanodes, UpgradeDomains upgradeDomains) {
    this.datanodes = datanodes;
    this.upgradeDomains = upgradeDomains;
  }

  /**
   * Whether a block's replicas are spread as the policy wants (HDFS verifyBlockPlacement): on at
   * least two racks when the cluster has two and the block wants two replicas, and, under the
   * upgrade-domain policy, on as many upgrade domains as it wants replicas, up to the factor; false
   * means mis-replicated.
   */
  boolean isPlacementSatisfied(Collection<String> datanodeUuids, int replication) {
    Set<String> racks = new HashSet<>();
    Set<String> domains = new HashSet<>();
    for (String uuid : datanodeUuids) {
      DatanodeState n = datanodes.node(uuid);
      if (n != null) {
        racks.add(n.location());
        if (upgradeDomains.factor()
            > 0) { // a block's every check on the hot path: no work if unused
          domains.add(UpgradeDomains.of(n));
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
  String violation(DatanodeInfo[] locations, int replication, int totalRacks) {
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
        upgradeDomains.factor() <= 0
            || (replication <= upgradeDomains.factor()
                ? replication <= domains.size()
                : domains.size() >= upgradeDomains.factor());
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
}
