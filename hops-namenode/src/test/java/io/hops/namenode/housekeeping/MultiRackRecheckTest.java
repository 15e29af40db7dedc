package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.RackHistory;
import io.hops.namenode.blocks.RackHistory.Stage;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.StaticMapping;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@code multi_rack} row through a cluster's life: it names the one rack while the datanodes
 * are on it, the second rack makes the re-check due, and the leader's walk moves through it a
 * bounded number of blocks per round, its place kept in the row (what a new leader resumes from),
 * until it ends and every block is fixed. Rounds are run by hand, so each is one step.
 */
class MultiRackRecheckTest {
  private static final int BLOCK = 1024;
  private static final int BLOCKS = 5;

  @Test
  void theWalkMovesThroughTheRowOneBoundedRoundAtATime() throws Exception {
    try (HopsTestCluster hops = new HopsTestCluster(conf())) {
      walk(hops);
    }
  }

  /** The same over MariaDB (its paged scan of {@code replicas}, its row locks). */
  @Test
  void theWalkMovesThroughTheRowOverMariadb() throws Exception {
    try (HopsTestCluster hops = HopsTestCluster.onMariadbOrNull(conf())) {
      Assumptions.assumeTrue(hops != null, "HOPS_TEST_MYSQL_URL is not set");
      walk(hops);
    }
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, TimeUnit.HOURS.toMillis(1));
    conf.setInt(NamenodeConfig.HOUSEKEEPING_PAGE_ROWS, 4); // a block's 3 replicas and one more
    conf.setInt(DFSConfigKeys.DFS_BLOCK_MISREPLICATION_PROCESSING_LIMIT, 1);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setClass(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
        StaticMapping.class,
        DNSToSwitchMapping.class);
    return conf;
  }

  private static void walk(HopsTestCluster hops) throws Exception {
    startOn(hops, 0, 3, "/w1");
    Path file = new Path("/walked");
    try (DistributedFileSystem fs = hops.client()) {
      try (FSDataOutputStream o = fs.create(file, true, 4096, (short) 3, BLOCK)) {
        o.write(new byte[BLOCKS * BLOCK]);
      }
      HopsTestCluster.awaitReplicas(fs, file, 3);
      assertThat(row(hops)).isEqualTo("SINGLE_RACK /w1");

      startOn(hops, 3, 3, "/w2");
      assertThat(row(hops)).isEqualTo("RECHECK_DUE at the start, 0 checked");

      List<String> rows = new ArrayList<>();
      for (int round = 0; round < BLOCKS; round++) {
        hops.namenode().housekeeping().runOnce();
        rows.add(row(hops));
      }
      assertThat(rows)
          .containsExactly(
              "RECHECK_DUE after a block, 1 checked",
              "RECHECK_DUE after a block, 2 checked",
              "RECHECK_DUE after a block, 3 checked",
              "RECHECK_DUE after a block, 4 checked",
              "MULTI_RACK");

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!onTwoRacks(fs, file)) {
        assertThat(System.nanoTime()).as("fixed within 30 s").isLessThan(deadline);
        hops.namenode().housekeeping().runOnce();
        Thread.sleep(200);
      }
    }
  }

  private static String row(HopsTestCluster hops) throws Exception {
    try (Transaction tx = hops.namenode().namesystem().storage().begin()) {
      RackHistory.State s = RackHistory.read(tx, LockMode.READ_COMMITTED);
      if (s.stage() == Stage.SINGLE_RACK) {
        return "SINGLE_RACK " + s.singleRack();
      }
      if (s.stage() == Stage.RECHECK_DUE) {
        return "RECHECK_DUE "
            + (s.walk().after() == null ? "at the start" : "after a block")
            + ", "
            + s.walk().checked()
            + " checked";
      }
      return String.valueOf(s.stage());
    }
  }

  private static boolean onTwoRacks(DistributedFileSystem fs, Path file) throws Exception {
    for (BlockLocation l : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
      Set<String> racks = new HashSet<>();
      for (String t : l.getTopologyPaths()) {
        racks.add(t.substring(0, t.lastIndexOf('/')));
      }
      if (racks.size() != 2 || l.getHosts().length != 3) {
        return false;
      }
    }
    return true;
  }

  private static void startOn(HopsTestCluster hops, int from, int n, String rack) throws Exception {
    for (int i = from; i < from + n; i++) {
      String host = "walkdn-" + i + ".hops";
      NetUtils.addStaticResolution(host, "127.0.0.1");
      StaticMapping.addNodeToRack(host, rack);
      Configuration dn = new Configuration(false);
      dn.set("dfs.datanode.hostname", host);
      hops.startDatanodes(1, dn);
    }
  }
}
