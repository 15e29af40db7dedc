package io.hops.namenode.perf;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Time to DECOMMISSIONED of one of four datanodes, hops against a MiniDFSCluster with the same
 * settings, in one run: {@code -Dhops.bench.decommission=BLOCKS} blocks of 1 KB in files of 100
 * blocks, replication 2, so the datanode holds about half of them. Both check decommissioning
 * datanodes every second and schedule re-replication every second; HDFS's other defaults.
 */
class DecommissionMeasurement {
  static final int BLOCK = 1024;
  static final int PER_FILE = 100;

  @Test
  @EnabledIfSystemProperty(named = "hops.bench.decommission", matches = "\\d+")
  void measure() throws Exception {
    int blocks = Integer.getInteger("hops.bench.decommission");
    Path dir = Files.createTempDirectory("decom-bench-");
    Path exclude = dir.resolve("exclude");
    Files.writeString(exclude, "");
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.decommission.interval", 1);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 1000);
    conf.set("dfs.hosts.exclude", exclude.toString());
    long hopsMillis;
    long hopsHeld;
    try (HopsTestCluster hops = new HopsTestCluster(conf)) {
      hops.startDatanodes(4);
      hops.waitForLive(4);
      try (DistributedFileSystem fs = hops.client()) {
        write(fs, blocks);
        DataNode victim = hops.datanodes().get(0);
        hopsHeld = held(victim, fs);
        Files.writeString(exclude, victim.getDatanodeId().getXferAddr() + "\n");
        long start = System.nanoTime();
        fs.refreshNodes();
        await(fs, victim.getDatanodeUuid());
        hopsMillis = (System.nanoTime() - start) / 1_000_000;
      }
    }
    Files.writeString(exclude, "");
    long hdfsMillis;
    long hdfsHeld;
    MiniDFSCluster hdfs = ApacheHdfs.start("decom-bench", conf, 4);
    try (DistributedFileSystem fs =
        (DistributedFileSystem) FileSystem.get(hdfs.getURI(), ApacheHdfs.clientConf(hdfs, 2))) {
      write(fs, blocks);
      DataNode victim = hdfs.getDataNodes().get(0);
      hdfsHeld = held(victim, fs);
      Files.writeString(exclude, victim.getDatanodeId().getXferAddr() + "\n");
      long start = System.nanoTime();
      // HDFS's refreshNodes RPC reads the site files again; the conf is handed over instead.
      hdfs.getNamesystem()
          .getBlockManager()
          .getDatanodeManager()
          .refreshNodes(hdfs.getConfiguration(0));
      await(fs, victim.getDatanodeUuid());
      hdfsMillis = (System.nanoTime() - start) / 1_000_000;
    } finally {
      hdfs.shutdown();
    }
    System.out.printf(
        "decommission of 1 of 4 datanodes, %d blocks written (replication 2):%n"
            + "  hops: %d replicas on it, DECOMMISSIONED after %d ms%n"
            + "  HDFS: %d replicas on it, DECOMMISSIONED after %d ms%n",
        blocks, hopsHeld, hopsMillis, hdfsHeld, hdfsMillis);
  }

  /**
   * {@code blocks} blocks of {@link #BLOCK} bytes in files {@code /bench/f<i>} of {@link #PER_FILE}
   * blocks, replication 2; returns once every block has its 2 replicas.
   */
  static void write(DistributedFileSystem fs, int blocks) throws Exception {
    Random r = new Random(1);
    for (int f = 0; f * PER_FILE < blocks; f++) {
      int n = Math.min(PER_FILE, blocks - f * PER_FILE);
      byte[] data = new byte[n * BLOCK];
      r.nextBytes(data);
      try (FSDataOutputStream out =
          fs.create(new org.apache.hadoop.fs.Path("/bench/f" + f), true, 4096, (short) 2, BLOCK)) {
        out.write(data);
      }
    }
    for (int f = 0; f * PER_FILE < blocks; f++) {
      HopsTestCluster.awaitReplicas(fs, new org.apache.hadoop.fs.Path("/bench/f" + f), 2);
    }
  }

  /** The replicas {@code dn} holds, as its block report counts them. */
  static long held(DataNode dn, DistributedFileSystem fs) throws Exception {
    String pool =
        fs.getClient()
            .getNamenode()
            .getBlockLocations("/bench/f0", 0, 1)
            .getLocatedBlocks()
            .get(0)
            .getBlock()
            .getBlockPoolId();
    return dn.getFSDataset().getBlockReports(pool).values().stream()
        .mapToLong(r -> r.getNumberOfBlocks())
        .sum();
  }

  private static void await(DistributedFileSystem fs, String uuid) throws Exception {
    long deadline = System.currentTimeMillis() + 600_000;
    while (true) {
      for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.ALL)) {
        if (d.getDatanodeUuid().equals(uuid) && d.getAdminState() == AdminStates.DECOMMISSIONED) {
          return;
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(uuid + " not decommissioned in 10 minutes");
      }
      Thread.sleep(100);
    }
  }
}
