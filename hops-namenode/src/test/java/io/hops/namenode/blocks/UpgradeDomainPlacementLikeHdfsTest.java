package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.SideBySide;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tools.StockTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyWithUpgradeDomain;
import org.apache.hadoop.hdfs.server.blockmanagement.CombinedHostFileManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.Test;

/**
 * Upgrade domains ({@code BlockPlacementPolicyWithUpgradeDomain}, domains from the JSON hosts file)
 * against hops (two namenodes over one store, six stock DataNodes heartbeating both) and a
 * MiniDFSCluster of six with the same settings and the same file, three domains of two datanodes
 * each: every block's three replicas go to three domains; {@code -report} names each datanode's
 * domain; once the file puts two of the domains together, fsck finds every block mis-replicated
 * with HDFS's reason; and when a block with four replicas goes back to three, the replica deleted
 * is one whose domain another replica shares. On one rack, where HDFS's default policy would put
 * about six blocks in ten on fewer domains.
 */
class UpgradeDomainPlacementLikeHdfsTest {
  private static final int BLOCK = 1024;
  private static final int BLOCKS = 30;

  @Test
  void replicasSpanTheUpgradeDomainsLikeHdfs() throws Exception {
    Path hostsFile = Files.createTempDirectory("hops-ud-").resolve("hosts.json");
    Files.writeString(hostsFile, "[]");
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.set(
        DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY,
        CombinedHostFileManager.class.getName());
    conf.set(DFSConfigKeys.DFS_HOSTS, hostsFile.toString());
    conf.set(
        DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
        BlockPlacementPolicyWithUpgradeDomain.class.getName());
    List<String> hopsSteps;
    List<String> hdfsSteps;
    try (SideBySide clusters = SideBySide.start("upgrade-domains", conf, 6)) {
      Configuration hopsClient = clusters.through(clusters.other);
      hopsSteps =
          steps(
              clusters.hops.datanodes(),
              hopsClient,
              clusters.hopsSide.admin(),
              hostsFile,
              expected -> {
                // Written through one namenode, read back through the other.
                StockTool.Output o =
                    StockTool.dfsadmin(clusters.through(clusters.hops.namenode()), "-refreshNodes");
                assertThat(o.rc()).as(o.err()).isZero();
                awaitDomains(hopsClient, expected);
              });
      Configuration hdfsClient = ApacheHdfs.clientConf(clusters.hdfs, 3);
      hdfsSteps =
          steps(
              clusters.hdfs.getDataNodes(),
              hdfsClient,
              clusters.hdfsSide.admin(),
              hostsFile,
              expected -> clusters.refreshHdfsNodes());
    }
    assertThat(hopsSteps)
        .containsExactly(
            "3 domains: blocks on 3 domains 30, mis-replicated 0",
            "-report: {ud-0=2, ud-1=2, ud-2=2}",
            "2 domains: mis-replicated 30, reasons [The block has 3 replicas. But it only has 2"
                + " upgrade domains [udB, udA].]",
            "4 replicas, then 3: blocks on 3 domains 30, mis-replicated 0");
    assertThat(hopsSteps).isEqualTo(hdfsSteps);
  }

  /**
   * Has the namenodes read the hosts file; {@code expected}: the domain of each transfer address.
   */
  interface Refresh {
    void run(Map<String, String> expected) throws Exception;
  }

  private static List<String> steps(
      List<DataNode> datanodes,
      Configuration client,
      DistributedFileSystem fs,
      Path hostsFile,
      Refresh refresh)
      throws Exception {
    List<String> out = new ArrayList<>();
    // Three domains, two datanodes each: HDFS's default policy puts three random datanodes in
    // three domains four times in ten.
    IntFunction<String> three = i -> "ud-" + (i % 3);
    refresh.run(domains(datanodes, hostsFile, three));
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/spread");
    try (FSDataOutputStream o = fs.create(file, true, 4096, (short) 3, BLOCK)) {
      o.write(new byte[BLOCKS * BLOCK]);
    }
    HopsTestCluster.awaitReplicas(fs, file, 3);
    out.add(
        "3 domains: blocks on 3 domains "
            + spanning(fs, file, datanodes, three, 3)
            + ", mis-replicated "
            + misReplicated(fsck(client)));
    out.add("-report: " + reportedDomains(client));

    // Two of the three domains become one: every block has two replicas in it.
    refresh.run(domains(datanodes, hostsFile, i -> i % 3 == 2 ? "udB" : "udA"));
    String report = fsck(client);
    out.add("2 domains: mis-replicated " + misReplicated(report) + ", reasons " + reasons(report));

    // Back to three; a fourth replica may share a domain, and the one deleted must be such a one.
    refresh.run(domains(datanodes, hostsFile, three));
    fs.setReplication(file, (short) 4);
    HopsTestCluster.awaitReplicas(fs, file, 4);
    fs.setReplication(file, (short) 3);
    HopsTestCluster.awaitReplicas(fs, file, 3);
    out.add(
        "4 replicas, then 3: blocks on 3 domains "
            + spanning(fs, file, datanodes, three, 3)
            + ", mis-replicated "
            + misReplicated(fsck(client)));
    return out;
  }

  /**
   * Writes the JSON hosts file: every datanode NORMAL, datanode {@code i} in domain {@code d(i)};
   * answers the domain of each transfer address.
   */
  private static Map<String, String> domains(
      List<DataNode> datanodes, Path hostsFile, IntFunction<String> d) throws Exception {
    StringBuilder json = new StringBuilder("[");
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < datanodes.size(); i++) {
      var id = datanodes.get(i).getDatanodeId();
      out.put(id.getXferAddr(), d.apply(i));
      json.append(i == 0 ? "" : ",")
          .append("{\"hostName\":\"")
          .append(id.getIpAddr())
          .append("\",\"port\":")
          .append(id.getXferPort())
          .append(",\"upgradeDomain\":\"")
          .append(d.apply(i))
          .append("\"}");
    }
    Files.writeString(hostsFile, json.append(']').toString());
    return out;
  }

  /** How many of the file's blocks have replicas in {@code n} domains. */
  private static int spanning(
      FileSystem fs,
      org.apache.hadoop.fs.Path file,
      List<DataNode> datanodes,
      IntFunction<String> d,
      int n)
      throws Exception {
    Map<String, String> domainOf = new HashMap<>();
    for (int i = 0; i < datanodes.size(); i++) {
      domainOf.put(datanodes.get(i).getDatanodeId().getXferAddr(), d.apply(i));
    }
    int count = 0;
    for (BlockLocation l : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
      Set<String> domains = new HashSet<>();
      for (String name : l.getNames()) {
        domains.add(domainOf.get(name));
      }
      if (domains.size() == n) {
        count++;
      }
    }
    return count;
  }

  /** The domains {@code dfsadmin -report} names, with how many datanodes each. */
  private static Map<String, Integer> reportedDomains(Configuration client) throws Exception {
    StockTool.Output o = StockTool.dfsadmin(client, "-report");
    assertThat(o.rc()).as(o.err()).isZero();
    Map<String, Integer> out = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^Upgrade domain: (\\S+)$").matcher(o.out());
    while (m.find()) {
      out.merge(m.group(1), 1, Integer::sum);
    }
    return out;
  }

  private static String fsck(Configuration client) throws Exception {
    return StockTool.run(out -> new DFSck(client, out), "/").out();
  }

  private static String misReplicated(String fsck) {
    Matcher m = Pattern.compile("Mis-replicated blocks:\\s+(\\d+)").matcher(fsck);
    assertThat(m.find()).as(fsck).isTrue();
    return m.group(1);
  }

  /** The distinct reasons fsck gives for its violations, without the block names. */
  private static Set<String> reasons(String fsck) {
    Set<String> out = new java.util.TreeSet<>();
    Matcher m =
        Pattern.compile("Replica placement policy is violated for \\S+\\. (.*)$", Pattern.MULTILINE)
            .matcher(fsck);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /**
   * Waits (up to 30 s) until the namenode {@code client} talks to names the new domains: it reads
   * the stored hosts lists again at heartbeats, at most once a second.
   */
  private static void awaitDomains(Configuration client, Map<String, String> expected)
      throws Exception {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(client)) {
      while (true) {
        Map<String, String> seen = new HashMap<>();
        for (DatanodeInfo d : fs.getDataNodeStats()) {
          seen.put(d.getXferAddr(), d.getUpgradeDomain());
        }
        if (seen.equals(expected)) {
          return;
        }
        assertThat(System.nanoTime()).as("domains seen: %s", seen).isLessThan(deadline);
        Thread.sleep(200);
      }
    }
  }
}
