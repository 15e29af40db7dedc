package io.hops.namenode.bench;

import io.hops.election.Membership;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.ReportOwnership;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.rpc.DatanodeRpc;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.HdfsClusterRestart;
import org.apache.hadoop.hdfs.server.namenode.HdfsClusterRestart.Times;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

/**
 * A cluster restart back out of startup safe mode: {@value #DATANODES} datanodes of {@code blocks}
 * replicas each (one replica per block), every namenode stopped and started again over the embedded
 * store, then the datanodes register, heartbeat and send their full reports all at once; timed from
 * the first registration until the leader leaves startup safe mode ({@code
 * dfs.namenode.safemode.threshold-pct} 0.999, extension 0) and until every report is applied. Two
 * stores: the replica rows kept, as after a clean stop (hops's restart: its reports are repeated
 * ones, and safe mode counts the recorded replicas of every datanode heard from), and the replica
 * rows lost (every report a first one, as each of HDFS's after its restart). In the same run,
 * Apache HDFS's namenode restarted from its image with as many blocks and datanodes ({@link
 * HdfsClusterRestart}), and the ratios. Not a test. Run: {@code java -cp <test classpath>
 * io.hops.namenode.bench.ClusterRestartThroughput [blocks [namenodes,...]]}, e.g. {@code 100000
 * 1,3}; {@code -Dhops.bench.replicas-kept=true,false} the stores measured, {@code
 * -Dhops.bench.hdfs=false} hops only.
 */
public final class ClusterRestartThroughput {
  static final int DATANODES = 10;
  private static final long FIRST_BLOCK = 1L << 40;
  private static final long CAPACITY = 1L << 40;

  public static void main(String[] args) throws Exception {
    int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    String[] namenodes = (args.length > 1 ? args[1] : "1,3").split(",");
    String[] kept = System.getProperty("hops.bench.replicas-kept", "true,false").split(",");
    List<String> lines = new ArrayList<>();
    List<Times> hops = new ArrayList<>();
    for (String k : kept) {
      for (String n : namenodes) {
        Times t = measure(Integer.parseInt(n), blocks, Boolean.parseBoolean(k));
        String line =
            String.format(
                "hops, %s namenode(s), replica rows %s: %d x %,d replicas: out of safe mode after"
                    + " %,d ms (%,d ms of CPU), every report applied after %,d ms (%,d ms of CPU)",
                n,
                Boolean.parseBoolean(k) ? "kept" : "lost",
                DATANODES,
                blocks,
                t.safeModeOff(),
                t.safeModeCpu(),
                t.reportsApplied(),
                t.reportsCpu());
        System.out.println(line);
        lines.add(line);
        hops.add(t);
      }
    }
    if (!Boolean.parseBoolean(System.getProperty("hops.bench.hdfs", "true"))) {
      return;
    }
    Times hdfs = HdfsClusterRestart.measure(DATANODES, blocks);
    System.out.printf(
        "HDFS: %d x %,d replicas: out of safe mode after %,d ms (%,d ms of CPU), every report"
            + " applied after %,d ms (%,d ms of CPU)%n",
        DATANODES,
        blocks,
        hdfs.safeModeOff(),
        hdfs.safeModeCpu(),
        hdfs.reportsApplied(),
        hdfs.reportsCpu());
    for (int i = 0; i < hops.size(); i++) {
      Times t = hops.get(i);
      System.out.println(lines.get(i));
      System.out.printf(
          "  hops / HDFS: out of safe mode %.2fx HDFS's time (%.2fx its CPU), every report"
              + " applied %.2fx HDFS's time (%.2fx its CPU)%n",
          t.safeModeOff() / (double) Math.max(1, hdfs.safeModeOff()),
          t.safeModeCpu() / (double) Math.max(1, hdfs.safeModeCpu()),
          t.reportsApplied() / (double) Math.max(1, hdfs.reportsApplied()),
          t.reportsCpu() / (double) Math.max(1, hdfs.reportsCpu()));
    }
  }

  /**
   * One restart of {@code namenodes} namenodes over the blocks of {@value #DATANODES} datanodes.
   */
  private static Times measure(int namenodes, int blocks, boolean replicasKept) throws Exception {
    Configuration conf = new Configuration(false);
    conf.setFloat(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_KEY, 0.999f);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
    List<HopsNameNode> nns = new ArrayList<>();
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      HopsNameNode before = cluster.namenode();
      String[] uuids = new String[DATANODES];
      for (int d = 0; d < DATANODES; d++) {
        uuids[d] = UUID.randomUUID().toString();
        StorageRef ref =
            before.datanodes().storageRef("DS-" + uuids[d], uuids[d], StorageType.DEFAULT);
        BlockReportThroughput.makeBlocks(
            before,
            1_000_000L + d,
            FIRST_BLOCK + (long) d * blocks,
            blocks,
            replicasKept ? ref.id() : -1);
      }
      before.close();
      try {
        for (int i = 0; i < namenodes; i++) {
          nns.add(cluster.startAnotherNamenode());
        }
        HopsNameNode leader = awaitStartingCluster(nns);
        return restart(nns, leader, uuids, blocks);
      } finally {
        for (int i = nns.size() - 1; i >= 0; i--) {
          nns.get(i).close();
        }
      }
    }
  }

  /** The leader, once every namenode is a member and the leader judges startup safe mode. */
  private static HopsNameNode awaitStartingCluster(List<HopsNameNode> nns) throws Exception {
    while (true) {
      for (HopsNameNode nn : nns) {
        if (nn.election().isLeader()
            && nns.stream().allMatch(n -> n.election().membership().members().size() == nns.size())
            && BlockReportThroughput.deferring(nn)) {
          return nn;
        }
      }
      Thread.sleep(100);
    }
  }

  /** The datanodes come back all at once; the times until safe mode ends and reports are in. */
  private static Times restart(
      List<HopsNameNode> nns, HopsNameNode leader, String[] uuids, int blocks) throws Exception {
    Membership m = leader.election().membership();
    List<DatanodeRpc> rpcs = new ArrayList<>();
    int[] owned = new int[nns.size()];
    for (HopsNameNode nn : nns) {
      rpcs.add(HopsNameNode.datanodeRpc(nn.namesystem()));
    }
    List<StorageBlockReport[]> reports = new ArrayList<>();
    List<DatanodeRegistration> regs = new ArrayList<>();
    for (int d = 0; d < DATANODES; d++) {
      // Made before the clock starts: a datanode has its list when it starts.
      reports.add(
          BlockReportThroughput.fullReport(uuids[d], FIRST_BLOCK + (long) d * blocks, blocks));
      regs.add(BlockReportThroughput.registration(leader, uuids[d], 10_000 + d));
      long owner = ReportOwnership.ownerOf(uuids[d], m);
      for (int i = 0; i < nns.size(); i++) {
        owned[i] += nns.get(i).election().id() == owner ? 1 : 0;
      }
    }
    System.out.printf("datanodes whose reports each namenode applies: %s%n", join(owned));
    String pool = leader.namesystem().blocks().blockPoolId();
    List<Callable<Void>> datanodes = new ArrayList<>();
    for (int d = 0; d < DATANODES; d++) {
      DatanodeRegistration reg = regs.get(d);
      StorageBlockReport[] report = reports.get(d);
      datanodes.add(() -> comeBack(rpcs, reg, report, pool));
    }
    return HdfsClusterRestart.timed(datanodes, () -> leader.safeMode().inStartupSafeMode());
  }

  /**
   * What a datanode does as its namenodes come back: registers with each, heartbeats to each with
   * its storage (asking each for a full report lease), and sends each its full report under the
   * lease that namenode granted (only the owner of its reports grants one and applies it).
   */
  private static Void comeBack(
      List<DatanodeRpc> rpcs, DatanodeRegistration reg, StorageBlockReport[] report, String pool)
      throws Exception {
    for (DatanodeRpc rpc : rpcs) {
      rpc.registerDatanode(reg);
    }
    DatanodeStorage storage = report[0].getStorage();
    StorageReport[] storages = {new StorageReport(storage, false, CAPACITY, 0, CAPACITY, 0, 0)};
    long[] leases = new long[rpcs.size()];
    for (int i = 0; i < rpcs.size(); i++) {
      leases[i] =
          rpcs.get(i)
              .sendHeartbeat(
                  reg,
                  storages,
                  0,
                  0,
                  0,
                  0,
                  0,
                  null,
                  true,
                  SlowPeerReports.EMPTY_REPORT,
                  SlowDiskReports.EMPTY_REPORT)
              .getFullBlockReportLeaseId();
    }
    // Each report under the lease its namenode granted (only the owner grants one), as a
    // datanode's.
    for (int i = 0; i < rpcs.size(); i++) {
      rpcs.get(i)
          .blockReport(
              reg, pool, report, new BlockReportContext(1, 0, System.nanoTime(), leases[i]));
    }
    return null;
  }

  private static String join(int[] counts) {
    StringBuilder s = new StringBuilder();
    for (int c : counts) {
      s.append(s.length() == 0 ? "" : ", ").append(c);
    }
    return s.toString();
  }
}
