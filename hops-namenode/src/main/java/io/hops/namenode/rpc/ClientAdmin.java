package io.hops.namenode.rpc;

import io.hops.dal.Storage;
import io.hops.namenode.blocks.BalancerBandwidth;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeAdmin;
import io.hops.namenode.ops.GetStats;
import io.hops.namenode.ops.MetaSave;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ECBlockGroupStats;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;

/**
 * The {@code ClientProtocol} calls of operators ({@code dfsadmin}): the cluster's safe mode,
 * statistics, datanode reports, the hosts files, the balancer's bandwidth, metasave and rolling
 * upgrades.
 */
public final class ClientAdmin {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final Configuration conf;
  private final Storage storage;
  private volatile SafeMode safeMode;

  public ClientAdmin(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      Configuration conf,
      Storage storage) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.conf = conf;
    this.storage = storage;
  }

  /** The cluster's safe mode as this namenode sees it; the RPC server gates writes with it. */
  public SafeMode safeMode() {
    SafeMode m = safeMode;
    if (m == null) {
      synchronized (this) {
        if (safeMode == null) {
          safeMode =
              new SafeMode(
                  runner,
                  storage,
                  blocks,
                  conf,
                  conf.getTrimmed(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1"));
        }
        m = safeMode;
      }
    }
    return m;
  }

  /**
   * Safe mode for the whole cluster ({@link SafeMode}): manual, or startup safe mode while the
   * namenodes start; leave and forceExit end both, at once.
   */
  boolean setSafeMode(HdfsConstants.SafeModeAction action, boolean isChecked) throws IOException {
    if (action == HdfsConstants.SafeModeAction.SAFEMODE_GET) {
      return safeMode().get();
    }
    NamenodeRpc.checkSuperuser(checkers, action.toString().toLowerCase(Locale.ROOT));
    return switch (action) {
      case SAFEMODE_ENTER -> safeMode().set(true);
      case SAFEMODE_LEAVE, SAFEMODE_FORCE_EXIT -> safeMode().set(false);
      default -> safeMode().get();
    };
  }

  long[] getStats() throws IOException {
    return GetStats.stats(storage, blocks);
  }

  ReplicatedBlockStats getReplicatedBlockStats() throws IOException {
    return GetStats.replicated(storage);
  }

  ECBlockGroupStats getECBlockGroupStats() {
    return GetStats.erasureCoded();
  }

  DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "datanodeReport");
    return DatanodeReports.nodes(blocks.datanodes(), type);
  }

  DatanodeStorageReport[] getDatanodeStorageReport(HdfsConstants.DatanodeReportType type)
      throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "getDatanodeStorageReport");
    return DatanodeReports.storages(blocks.datanodes(), type);
  }

  /** hops tracks no slow peers or disks (HDFS's answer with that tracking off). */
  DatanodeInfo[] getSlowDatanodeReport() {
    return new DatanodeInfo[0];
  }

  /**
   * {@code dfsadmin -refreshNodes}: this namenode's hosts files, stored with the admin states they
   * give for every namenode to apply ({@link DatanodeAdmin}).
   */
  void refreshNodes() throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "refreshNodes");
    blocks.datanodes().admin().refreshNodes(conf);
  }

  /**
   * {@code dfsadmin -setBalancerBandwidth}: stored for every namenode, and passed to each datanode
   * by the leader's next heartbeat answer ({@link BalancerBandwidth}).
   */
  void setBalancerBandwidth(long bandwidth) throws IOException {
    if (bandwidth > HdfsServerConstants.MAX_BANDWIDTH_PER_DATANODE) {
      throw new IllegalArgumentException(
          "Bandwidth should not exceed maximum limit "
              + HdfsServerConstants.MAX_BANDWIDTH_PER_DATANODE
              + " bytes per second");
    }
    NamenodeRpc.checkSuperuser(checkers, "setBalancerBandwidth");
    BalancerBandwidth.set(storage, bandwidth);
  }

  /**
   * {@code dfsadmin -metasave FILE}: HDFS's dump of the block state, read from the database ({@link
   * MetaSave}), written to {@code FILE} in {@code hadoop.log.dir} of this namenode as HDFS writes
   * it.
   */
  void metaSave(String filename) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "metaSave");
    File file = new File(System.getProperty("hadoop.log.dir"), filename);
    try (PrintWriter out =
        new PrintWriter(
            new BufferedWriter(
                new OutputStreamWriter(
                    Files.newOutputStream(file.toPath()), StandardCharsets.UTF_8)))) {
      MetaSave.write(storage, blocks, out);
    }
  }

  /** No rolling upgrade is ever in progress: a schema upgrade happens as a namenode starts. */
  RollingUpgradeInfo rollingUpgrade(HdfsConstants.RollingUpgradeAction action) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "queryRollingUpgrade");
    if (action == HdfsConstants.RollingUpgradeAction.QUERY) {
      return null;
    }
    throw new UnsupportedOperationException(
        "ClientProtocol.rollingUpgrade "
            + action
            + " is not supported by hops: the metadata schema is upgraded when a namenode starts");
  }
}
