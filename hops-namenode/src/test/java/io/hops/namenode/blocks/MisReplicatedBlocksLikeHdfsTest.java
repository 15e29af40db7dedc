package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tools.StockTool;
import java.io.File;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.StaticMapping;
import org.junit.jupiter.api.Test;

/**
 * Blocks written while the cluster had one rack are mis-replicated once a second rack joins: fsck
 * counts them and prints HDFS's "Replica placement policy is violated" line, {@code fsck
 * -replicate} queues them, and the leader's re-replication copies each to the new rack and deletes
 * the surplus, leaving three replicas on two racks, as HDFS does with the same steps. Without fsck,
 * the second rack's arrival alone has every block re-checked and fixed, in hops as in HDFS.
 */
class MisReplicatedBlocksLikeHdfsTest {
  private static final int BLOCK = 1024;
  private static final int BLOCKS = 5;

  @Test
  void blocksOnOneRackOfTwoAreFoundAndFixedLikeHdfs() throws Exception {
    List<String> hopsSteps = onHops(true);
    List<String> hdfsSteps = onHdfs(true);
    // Both re-check every block on their own when a single-rack cluster first gets a second rack
    // (HDFS DatanodeManager.checkIfClusterIsNowMultiRack; hops's leader, RackHistory), in the
    // background: by the time each fsck runs, that check may have queued and fixed any number of
    // the blocks, so the two middle steps are bounds. fsck must count what it prints.
    for (List<String> steps : List.of(hopsSteps, hdfsSteps)) {
      assertThat(steps).hasSize(4);
      assertThat(steps.get(0)).isEqualTo("one rack: {1=5}, mis-replicated 0");
      assertThat(steps.get(1))
          .matches("two racks: mis-replicated ([0-" + BLOCKS + "]), violations \\1");
      assertThat(steps.get(2)).matches("-replicate queued [0-" + BLOCKS + "]");
      assertThat(steps.get(3)).isEqualTo("fixed: {2=5}, mis-replicated 0");
    }
  }

  /**
   * The second rack alone gets every block fixed, without fsck -replicate: HDFS re-checks all
   * blocks when a single-rack cluster becomes multi-rack, and so does hops's leader, walking the
   * replicas from the database; the multi_rack row then says the re-check is done.
   */
  @Test
  void aSecondRackGetsEveryBlockFixedWithoutFsckLikeHdfs() throws Exception {
    List<String> hopsSteps = onHops(false);
    List<String> hdfsSteps = onHdfs(false);
    assertThat(hopsSteps)
        .containsExactly(
            "one rack: {1=5}, mis-replicated 0",
            "fixed without fsck -replicate: {2=5}, mis-replicated 0",
            "re-check MULTI_RACK");
    assertThat(hdfsSteps).isEqualTo(hopsSteps.subList(0, 2));
  }

  private static List<String> onHops(boolean fsckReplicate) throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setClass(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
        StaticMapping.class,
        DNSToSwitchMapping.class);
    try (HopsTestCluster hops = new HopsTestCluster(conf)) {
      startOn(hops, 0, 3, "/m1");
      Configuration client = hops.clientConf();
      var http = hops.namenode().httpAddress();
      client.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:" + http.getPort());
      List<String> out;
      try (DistributedFileSystem fs = hops.client()) {
        out = steps(fs, client, () -> startOn(hops, 3, 3, "/m2"), fsckReplicate);
      }
      if (!fsckReplicate) {
        try (Transaction tx = hops.namenode().namesystem().storage().begin()) {
          out.add("re-check " + RackHistory.read(tx, LockMode.READ_COMMITTED).stage());
        }
      }
      return out;
    }
  }

  private static List<String> onHdfs(boolean fsckReplicate) throws Exception {
    Configuration h = new Configuration();
    h.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    h.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    h.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-misreplicated-" + System.nanoTime()).getAbsolutePath());
    MiniDFSCluster hdfs =
        new MiniDFSCluster.Builder(h)
            .numDataNodes(3)
            .racks(new String[] {"/m1", "/m1", "/m1"})
            .build();
    try {
      hdfs.waitActive();
      Configuration client = ApacheHdfs.clientConf(hdfs, 3);
      try (DistributedFileSystem fs =
          (DistributedFileSystem) FileSystem.get(hdfs.getURI(), client)) {
        return steps(
            fs,
            client,
            () -> {
              hdfs.startDataNodes(
                  hdfs.getConfiguration(0), 3, true, null, new String[] {"/m2", "/m2", "/m2"});
              hdfs.waitActive();
            },
            fsckReplicate);
      }
    } finally {
      hdfs.shutdown();
    }
  }

  interface Step {
    void run() throws Exception;
  }

  /** Datanodes {@code from} to {@code from+n-1}, named {@code misdn-i.hops}, on {@code rack}. */
  private static void startOn(HopsTestCluster hops, int from, int n, String rack) throws Exception {
    for (int i = from; i < from + n; i++) {
      String host = "misdn-" + i + ".hops";
      NetUtils.addStaticResolution(host, "127.0.0.1");
      StaticMapping.addNodeToRack(host, rack);
      Configuration dn = new Configuration(false);
      dn.set("dfs.datanode.hostname", host);
      hops.startDatanodes(1, dn);
    }
  }

  /**
   * Writes a file on one rack, adds the second, and waits (bounded) until every block is on two
   * racks with three replicas; with {@code fsckReplicate}, fsck reports and queues them first.
   */
  private static List<String> steps(
      DistributedFileSystem fs, Configuration client, Step addRack, boolean fsckReplicate)
      throws Exception {
    List<String> out = new ArrayList<>();
    Path file = new Path("/misplaced");
    try (FSDataOutputStream o = fs.create(file, true, 4096, (short) 3, BLOCK)) {
      o.write(new byte[BLOCKS * BLOCK]);
    }
    HopsTestCluster.awaitReplicas(fs, file, 3);
    // A block completed before its last replica was reported is queued as low-redundancy; the
    // queue must be empty before the rack joins, or its check would place a copy there unasked.
    long drained = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (fs.getLowRedundancyBlocksCount() > 0) {
      assertThat(System.nanoTime()).as("queue drained within 30 s").isLessThan(drained);
      Thread.sleep(200);
    }
    // Several rounds of re-replication: the checks queued as the blocks completed are done (on one
    // rack the blocks are well placed), so only fsck -replicate queues them once a rack joins.
    Thread.sleep(2000);
    out.add("one rack: " + racksPerBlock(fs, file) + ", mis-replicated " + misReplicated(client));
    addRack.run();
    if (!fsckReplicate) {
      awaitFixed(fs, file, 30);
      out.add(
          "fixed without fsck -replicate: "
              + racksPerBlock(fs, file)
              + ", mis-replicated "
              + misReplicated(client));
      return out;
    }
    String report = fsck(client, "/");
    out.add(
        "two racks: mis-replicated "
            + value(report, " Mis-replicated blocks:")
            + ", violations "
            + report
                .lines()
                .filter(l -> l.contains("Replica placement policy is violated"))
                .count());
    out.add("-replicate queued " + value(fsck(client, "/", "-replicate"), " Blocks queued"));
    awaitFixed(fs, file, 60);
    out.add("fixed: " + racksPerBlock(fs, file) + ", mis-replicated " + misReplicated(client));
    return out;
  }

  /** Waits until every block of the file has three replicas on two racks. */
  private static void awaitFixed(FileSystem fs, Path file, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!racksPerBlock(fs, file).equals("{2=" + BLOCKS + "}")
        || !replicasPerBlock(fs, file).equals(Set.of(3))) {
      assertThat(System.nanoTime()).as("fixed within " + seconds + " s").isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static String fsck(Configuration client, String... args) throws Exception {
    return StockTool.run(o -> new DFSck(client, o), args).out();
  }

  private static String misReplicated(Configuration client) throws Exception {
    return value(fsck(client, "/"), " Mis-replicated blocks:");
  }

  /** The first number after {@code label} in a report. */
  private static String value(String report, String label) {
    String line =
        report
            .lines()
            .filter(l -> l.startsWith(label))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + label + " in\n" + report));
    return line.substring(line.indexOf(':') + 1).strip().split("[ \t]")[0];
  }

  /** How many blocks are on how many racks, e.g. {1=5}. */
  private static String racksPerBlock(FileSystem fs, Path file) throws Exception {
    java.util.TreeMap<Integer, Integer> out = new java.util.TreeMap<>();
    for (BlockLocation l : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
      Set<String> racks = new HashSet<>();
      for (String t : l.getTopologyPaths()) {
        racks.add(t.substring(0, t.lastIndexOf('/')));
      }
      out.merge(racks.size(), 1, Integer::sum);
    }
    return out.toString();
  }

  private static Set<Integer> replicasPerBlock(FileSystem fs, Path file) throws Exception {
    Set<Integer> out = new HashSet<>();
    for (BlockLocation l : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
      out.add(l.getHosts().length);
    }
    return out;
  }
}
