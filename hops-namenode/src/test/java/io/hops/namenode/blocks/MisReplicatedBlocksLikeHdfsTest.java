package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.NamenodeConfig;
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
 * the surplus, leaving three replicas on two racks, as HDFS does with the same steps.
 */
class MisReplicatedBlocksLikeHdfsTest {
  private static final int BLOCK = 1024;
  private static final int BLOCKS = 5;

  @Test
  void blocksOnOneRackOfTwoAreFoundAndFixedLikeHdfs() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setClass(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
        StaticMapping.class,
        DNSToSwitchMapping.class);
    List<String> hopsSteps;
    try (HopsTestCluster hops = new HopsTestCluster(conf)) {
      startOn(hops, 0, 3, "/m1");
      Configuration client = hops.clientConf();
      var http = hops.namenode().httpAddress();
      client.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:" + http.getPort());
      try (DistributedFileSystem fs = hops.client()) {
        hopsSteps = steps(fs, client, () -> startOn(hops, 3, 3, "/m2"));
      }
    }
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
    List<String> hdfsSteps;
    try {
      hdfs.waitActive();
      Configuration client = ApacheHdfs.clientConf(hdfs, 3);
      try (DistributedFileSystem fs =
          (DistributedFileSystem) FileSystem.get(hdfs.getURI(), client)) {
        hdfsSteps =
            steps(
                fs,
                client,
                () -> {
                  hdfs.startDataNodes(
                      hdfs.getConfiguration(0), 3, true, null, new String[] {"/m2", "/m2", "/m2"});
                  hdfs.waitActive();
                });
      }
    } finally {
      hdfs.shutdown();
    }
    assertThat(hopsSteps)
        .containsExactly(
            "one rack: {1=5}, mis-replicated 0",
            "two racks: {1=5}, mis-replicated 5, violations 5",
            "-replicate queued 5",
            "fixed: {2=5}, mis-replicated 0");
    // HDFS re-checks every block on its own when a single-rack cluster first gets a second rack
    // (DatanodeManager.checkIfClusterIsNowMultiRack), in the background: by the time its fsck
    // -replicate runs, that check has queued (and may have fixed) any number of the 5 blocks, so
    // only that line is compared as a bound. hops leaves them to fsck -replicate and the leader.
    assertThat(withoutQueued(hopsSteps)).isEqualTo(withoutQueued(hdfsSteps));
    assertThat(hdfsSteps.get(2)).matches("-replicate queued [0-" + BLOCKS + "]");
  }

  private static List<String> withoutQueued(List<String> steps) {
    return steps.stream().filter(s -> !s.startsWith("-replicate queued")).toList();
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

  private static List<String> steps(DistributedFileSystem fs, Configuration client, Step addRack)
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
    String report = fsck(client, "/");
    out.add(
        "two racks: "
            + racksPerBlock(fs, file)
            + ", mis-replicated "
            + value(report, " Mis-replicated blocks:")
            + ", violations "
            + report
                .lines()
                .filter(l -> l.contains("Replica placement policy is violated"))
                .count());
    out.add("-replicate queued " + value(fsck(client, "/", "-replicate"), " Blocks queued"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!racksPerBlock(fs, file).equals("{2=" + BLOCKS + "}")
        || !replicasPerBlock(fs, file).equals(Set.of(3))) {
      assertThat(System.nanoTime()).as("fixed within 60 s").isLessThan(deadline);
      Thread.sleep(200);
    }
    out.add("fixed: " + racksPerBlock(fs, file) + ", mis-replicated " + misReplicated(client));
    return out;
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
