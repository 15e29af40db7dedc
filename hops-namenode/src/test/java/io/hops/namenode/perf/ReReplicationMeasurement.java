package io.hops.namenode.perf;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Time to full replication after one of four datanodes dies, hops against a MiniDFSCluster with the
 * same settings, in one run: {@code -Dhops.bench.rereplication=BLOCKS} blocks of 1 KB (files of 100
 * blocks, replication 2, written as {@link DecommissionMeasurement} writes them), one datanode
 * stopped, and the clock runs until every block again has 2 replicas on live datanodes. The time
 * includes declaring the datanode dead (heartbeat every second, recheck every second: about 12 s on
 * both). {@code -Dhops.bench.rereplication.multiplier=M} sets {@code
 * dfs.namenode.replication.work.multiplier.per.iteration} (HDFS's default 2) and {@code
 * -Dhops.bench.rereplication.streams=S} {@code dfs.namenode.replication.max-streams} and its hard
 * limit (default 2 and 4) on both, the pace HDFS's re-replication keeps.
 */
class ReReplicationMeasurement {

  @Test
  @EnabledIfSystemProperty(named = "hops.bench.rereplication", matches = "\\d+")
  void measure() throws Exception {
    int blocks = Integer.getInteger("hops.bench.rereplication");
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", DecommissionMeasurement.BLOCK);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 1000);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 1000);
    int multiplier = Integer.getInteger("hops.bench.rereplication.multiplier", 2);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION, multiplier);
    Integer streams = Integer.getInteger("hops.bench.rereplication.streams");
    if (streams != null) {
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, streams);
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, streams);
    }
    long hopsMillis;
    long hopsHeld;
    try (HopsTestCluster hops = new HopsTestCluster(conf)) {
      hops.startDatanodes(4);
      hops.waitForLive(4);
      try (DistributedFileSystem fs = hops.client()) {
        DecommissionMeasurement.write(fs, blocks);
        DataNode victim = hops.datanodes().get(0);
        hopsHeld = DecommissionMeasurement.held(victim, fs);
        hopsMillis = stopAndAwaitReplication(fs, victim, blocks);
      }
    }
    long hdfsMillis;
    long hdfsHeld;
    MiniDFSCluster hdfs = ApacheHdfs.start("rereplication-bench", conf, 4);
    try (DistributedFileSystem fs =
        (DistributedFileSystem) FileSystem.get(hdfs.getURI(), ApacheHdfs.clientConf(hdfs, 2))) {
      DecommissionMeasurement.write(fs, blocks);
      DataNode victim = hdfs.getDataNodes().get(0);
      hdfsHeld = DecommissionMeasurement.held(victim, fs);
      hdfsMillis = stopAndAwaitReplication(fs, victim, blocks);
    } finally {
      hdfs.shutdown();
    }
    System.out.printf(
        "re-replication after 1 of 4 datanodes died, %d blocks written (replication 2),"
            + " work multiplier %d, max streams %s:%n"
            + "  hops: %d replicas on it, fully replicated after %d ms%n"
            + "  HDFS: %d replicas on it, fully replicated after %d ms (hops / HDFS %.2f)%n",
        blocks,
        multiplier,
        streams == null ? "default" : streams.toString(),
        hopsHeld,
        hopsMillis,
        hdfsHeld,
        hdfsMillis,
        (double) hopsMillis / hdfsMillis);
  }

  /** Stops {@code victim} and returns the milliseconds until its blocks are replicated again. */
  private static long stopAndAwaitReplication(DistributedFileSystem fs, DataNode victim, int blocks)
      throws Exception {
    String dead = victim.getDatanodeId().getXferAddr();
    long start = System.nanoTime();
    victim.shutdown();
    awaitFullyReplicated(fs, blocks, dead);
    return (System.nanoTime() - start) / 1_000_000;
  }

  /**
   * Until every block of the files {@link DecommissionMeasurement#write} wrote has 2 locations,
   * none on the datanode at {@code dead} (once declared dead its replicas are no longer listed); a
   * file found complete is not read again.
   */
  private static void awaitFullyReplicated(DistributedFileSystem fs, int blocks, String dead)
      throws Exception {
    long deadline = System.currentTimeMillis() + 3_600_000;
    int files = (blocks + DecommissionMeasurement.PER_FILE - 1) / DecommissionMeasurement.PER_FILE;
    int f = 0;
    while (f < files) {
      if (complete(fs.getFileBlockLocations(new Path("/bench/f" + f), 0, Long.MAX_VALUE), dead)) {
        f++;
        continue;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("/bench/f" + f + " not fully replicated in an hour");
      }
      Thread.sleep(100);
    }
  }

  /** Every block has 2 locations, none of them {@code dead}'s. */
  private static boolean complete(BlockLocation[] locations, String dead)
      throws java.io.IOException {
    for (BlockLocation l : locations) {
      if (l.getNames().length != 2 || List.of(l.getNames()).contains(dead)) {
        return false;
      }
    }
    return true;
  }
}
