package io.hops.namenode.blocks;

import io.hops.namenode.blocks.BlockPlacement.Placed;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyWithUpgradeDomain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS's {@code BlockPlacementPolicyWithUpgradeDomain}, when {@code dfs.block.replicator.classname}
 * names it: a block's replicas go to distinct upgrade domains (the JSON hosts file's, a datanode
 * without one being a domain of its own) until they span {@code dfs.namenode.upgrade.domain.factor}
 * of them (docs/architecture.md, "Racks"). With HDFS's default policy the factor is 0 and every
 * node qualifies.
 */
final class UpgradeDomains {
  private static final Logger LOG = LoggerFactory.getLogger(BlockPlacement.class);

  private final DatanodeManager datanodes;

  /** How many upgrade domains a block's replicas must span; 0 when the policy ignores them. */
  private final int factor;

  UpgradeDomains(DatanodeManager datanodes, Configuration conf) {
    this.datanodes = datanodes;
    this.factor = factorOf(conf);
  }

  int factor() {
    return factor;
  }

  /** A datanode's upgrade domain, or its transfer address when it has none (as HDFS falls back). */
  static String of(DatanodeState n) {
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
  Predicate<DatanodeState> addsDomain(List<Placed> chosen, List<StorageStat> out) {
    if (factor <= 0) {
      return n -> true;
    }
    Set<String> domains = new HashSet<>();
    for (Placed p : chosen) {
      DatanodeState n = datanodes.node(p.datanodeUuid());
      if (n != null) {
        domains.add(of(n));
      }
    }
    for (StorageStat s : out) {
      domains.add(of(datanodes.node(s.ref.datanodeUuid())));
    }
    if (domains.size() >= factor) {
      return n -> true;
    }
    return n -> !domains.contains(of(n));
  }

  /**
   * {@code dfs.namenode.upgrade.domain.factor} when {@code dfs.block.replicator.classname} names
   * HDFS's upgrade-domain policy, else 0. Other policies than HDFS's default and that one are not
   * implemented: the default rule serves them, with a warning.
   */
  private static int factorOf(Configuration conf) {
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
}
