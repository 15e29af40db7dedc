package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tools.StockTool;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.StaticMapping;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rack awareness against hops and Apache HDFS (a MiniDFSCluster) with the same layout: six stock
 * DataNodes on three racks by Hadoop's StaticMapping, two per rack. Blocks are placed by HDFS's
 * rule (two racks, the writer's and one other, at most two replicas on one), re-replication and
 * excess deletion keep it, replicas are sorted for a reader by network distance, the racks are
 * stored with the datanodes so that another namenode agrees without resolving them, and {@code
 * dfsadmin -printTopology}, {@code -report} and {@code fsck -racks} show them as HDFS does.
 */
class RackPlacementLikeHdfsTest {
  private static final String[] RACKS = {"/r1", "/r1", "/r2", "/r2", "/r3", "/r3"};
  private static final int BLOCK = 1024;

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setClass(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
        StaticMapping.class,
        DNSToSwitchMapping.class);
    hops = new HopsTestCluster(conf);
    for (int i = 0; i < RACKS.length; i++) {
      // As MiniDFSCluster names its datanodes: a host name of their own, an alias of this host.
      String host = hopsHost(i);
      NetUtils.addStaticResolution(host, "127.0.0.1");
      StaticMapping.addNodeToRack(host, RACKS[i]);
      Configuration dn = new Configuration(false);
      dn.set("dfs.datanode.hostname", host);
      hops.startDatanodes(1, dn);
    }
    hopsFs = hops.client();
    Configuration h = new Configuration();
    h.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    h.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    h.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-racks-" + System.nanoTime()).getAbsolutePath());
    hdfs = new MiniDFSCluster.Builder(h).numDataNodes(RACKS.length).racks(RACKS).build();
    hdfs.waitActive();
    hdfsFs = (DistributedFileSystem) FileSystem.get(hdfs.getURI(), ApacheHdfs.clientConf(hdfs, 3));
  }

  static String hopsHost(int i) {
    return "rackdn-" + i + ".hops";
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {hopsFs, hdfsFs}) {
      if (c != null) {
        c.close();
      }
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (hops != null) {
      hops.close();
    }
  }

  @Test
  void threeHundredBlocksArePlacedByTheRackRuleLikeHdfs() throws Exception {
    Path file = new Path("/racks/many");
    Map<String, Integer> onHops = shapes(hopsFs, write(hopsFs, file, 300, (short) 3));
    Map<String, Integer> onHdfs = shapes(hdfsFs, write(hdfsFs, file, 300, (short) 3));
    // Every block: two replicas on one rack, the third on another (HDFS's 2+1).
    assertThat(onHops).containsExactly(Map.entry("2+1", 300));
    assertThat(onHops).isEqualTo(onHdfs);
    // Spread over every rack, as HDFS's random choices spread them.
    assertThat(replicasPerRack(hopsFs, file).values()).hasSize(3).allMatch(n -> n > 150);
    assertThat(replicasPerRack(hdfsFs, file).values()).hasSize(3).allMatch(n -> n > 150);
  }

  @Test
  void reReplicationAndExcessDeletionKeepTheRackRuleLikeHdfs() throws Exception {
    Path file = new Path("/racks/raised");
    List<String> seen = new ArrayList<>();
    for (DistributedFileSystem fs : new DistributedFileSystem[] {hopsFs, hdfsFs}) {
      write(fs, file, 20, (short) 1);
      fs.setReplication(file, (short) 4);
      HopsTestCluster.awaitReplicas(fs, file, 4);
      Map<String, Integer> raised = shapes(fs, file);
      fs.setReplication(file, (short) 2);
      HopsTestCluster.awaitReplicas(fs, file, 2);
      seen.add(raised + " -> " + shapes(fs, file));
    }
    // Four replicas: two on the first's rack, one on another, the fourth anywhere but a third on
    // one rack (HDFS's random choice); the two left are on two racks.
    for (String s : seen) {
      assertThat(s).matches("\\{(2\\+1\\+1=\\d+)?(, )?(2\\+2=\\d+)?\\} -> \\{1\\+1=20\\}");
    }
  }

  @Test
  void replicasAreSortedByNetworkDistanceToTheReaderLikeHdfs() throws Exception {
    Path file = new Path("/racks/read");
    List<LocatedBlock> hopsBlocks = located(hopsFs, write(hopsFs, file, 30, (short) 3));
    List<LocatedBlock> hdfsBlocks = located(hdfsFs, write(hdfsFs, file, 30, (short) 3));
    BlockPlacement placement = hops.namenode().namesystem().blocks().placement();
    io.hops.namenode.blocks.DatanodeManager dm = hops.namenode().namesystem().blocks().datanodes();
    DatanodeManager hdfsDm = hdfs.getNamesystem().getBlockManager().getDatanodeManager();
    StaticMapping.addNodeToRack("client-on-r2.hops", "/r2");
    for (int i = 0; i < RACKS.length; i++) {
      for (String reader : new String[] {hopsHost(i), "client-on-r2.hops"}) {
        for (LocatedBlock lb : hopsBlocks) {
          List<DatanodeInfo> replicas = new ArrayList<>(Arrays.asList(lb.getLocations()));
          placement.sortForReader(replicas, d -> dm.node(d.getDatanodeUuid()), reader);
          assertThat(distances(replicas, reader))
              .as("hops, reader " + reader + ", " + lb.getBlock())
              .isSorted();
          if (!reader.startsWith("client")) {
            assertThat(replicas.get(0).getHostName().equals(reader))
                .as("the reader's own replica first")
                .isEqualTo(replicas.stream().anyMatch(d -> d.getHostName().equals(reader)));
          }
        }
      }
      // HDFS, the same readers and layout: its rack first (HDFS finds a reader's datanode by its
      // address only, and all of these share one, so a reader named by host is placed by rack).
      String reader = "host" + i + ".foo.com";
      for (LocatedBlock lb : hdfsBlocks) {
        hdfsDm.sortLocatedBlocks(reader, List.of(lb));
        assertThat(distances(Arrays.asList(lb.getLocations()), reader))
            .as("HDFS, reader " + reader)
            .map(d -> Math.max(d, 2))
            .isSorted();
      }
    }
    // A reader on /r2 reads the block's /r2 replicas first, whether it is a datanode or not.
    int withR2 = 0;
    for (LocatedBlock lb : hopsBlocks) {
      List<DatanodeInfo> replicas = new ArrayList<>(Arrays.asList(lb.getLocations()));
      placement.sortForReader(replicas, d -> dm.node(d.getDatanodeUuid()), "client-on-r2.hops");
      long onR2 = replicas.stream().filter(d -> rackOf(d.getHostName()).equals("/r2")).count();
      withR2 += onR2 > 0 ? 1 : 0;
      for (int k = 0; k < onR2; k++) {
        assertThat(rackOf(replicas.get(k).getHostName())).isEqualTo("/r2");
      }
    }
    assertThat(withR2).as("blocks with a replica on /r2").isPositive();
  }

  @Test
  void racksAreStoredSoAnotherNamenodeAgreesWithoutResolving() throws Exception {
    Map<String, String> before = new TreeMap<>();
    for (DatanodeInfo d : hopsFs.getDataNodeStats()) {
      before.put(d.getHostName(), d.getNetworkLocation());
    }
    assertThat(before.values()).containsExactlyInAnyOrder(RACKS);
    // The mapping changes: a namenode that resolved the datanodes now would see /moved.
    for (int i = 0; i < RACKS.length; i++) {
      StaticMapping.addNodeToRack(hopsHost(i), "/moved");
    }
    try (HopsNameNode other = hops.startAnotherNamenode()) {
      Map<String, String> seen = new TreeMap<>();
      for (var n : other.namesystem().blocks().datanodes().all()) {
        seen.put(n.id().getHostName(), n.location());
      }
      assertThat(seen).isEqualTo(before);
    } finally {
      for (int i = 0; i < RACKS.length; i++) {
        StaticMapping.addNodeToRack(hopsHost(i), RACKS[i]);
      }
    }
  }

  @Test
  void printTopologyAndReportShowTheRacksLikeHdfs() throws Exception {
    String onHops = dfsadmin(hops.clientConf(), "-printTopology");
    String onHdfs = dfsadmin(ApacheHdfs.clientConf(hdfs, 3), "-printTopology");
    assertThat(onHops).startsWith("Rack: /r1\n").contains("Rack: /r2\n", "Rack: /r3\n");
    assertThat(addressesOut(onHops)).isEqualTo(addressesOut(onHdfs));
    String report = dfsadmin(hops.clientConf(), "-report");
    for (String rack : new String[] {"/r1", "/r2", "/r3"}) {
      assertThat(report.split("\n")).filteredOn(l -> l.equals("Rack: " + rack)).hasSize(2);
    }
  }

  @Test
  void fsckCountsRacksAndShowsThemLikeHdfs() throws Exception {
    Path file = new Path("/racks/checked");
    List<String> seen = new ArrayList<>();
    for (DistributedFileSystem fs : new DistributedFileSystem[] {hopsFs, hdfsFs}) {
      write(fs, file, 3, (short) 3);
      Configuration c = fs == hopsFs ? fsckConf() : ApacheHdfs.clientConf(hdfs, 3);
      String out =
          StockTool.run(o -> new DFSck(c, o), file.toString(), "-files", "-blocks", "-racks").out();
      assertThat(out).contains(" Number of racks:\t\t3", " Mis-replicated blocks:\t\t0 (0.0 %)");
      seen.add(
          out.replaceAll("/[0-9.]+:[0-9]+", "/ADDR")
              .replaceAll("blk_[0-9_]+", "BLK")
              .replaceAll("BP-[^:]+", "BP")
              .lines()
              .filter(l -> l.contains("Live_repl"))
              .map(l -> l.replaceAll("/r[123]", "/R"))
              .toList()
              .toString());
    }
    assertThat(seen.get(0)).contains("[/R/ADDR, /R/ADDR, /R/ADDR]").isEqualTo(seen.get(1));
  }

  /** A client configuration whose fsck goes to hops's web server. */
  private static Configuration fsckConf() {
    Configuration c = hops.clientConf();
    var http = hops.namenode().httpAddress();
    c.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:" + http.getPort());
    return c;
  }

  private static String dfsadmin(Configuration c, String... args) throws Exception {
    return StockTool.run(o -> new DFSAdmin(c), args).out();
  }

  /** The output with each datanode's address and host name replaced. */
  private static String addressesOut(String s) {
    return s.replaceAll("[0-9.]+:[0-9]+ \\([^)]*\\)", "ADDR");
  }

  /** Writes {@code blocks} full blocks and waits for every replica. */
  private static Path write(DistributedFileSystem fs, Path file, int blocks, short replication)
      throws IOException {
    try (FSDataOutputStream out = fs.create(file, true, 4096, replication, BLOCK)) {
      out.write(new byte[blocks * BLOCK]);
    }
    HopsTestCluster.awaitReplicas(fs, file, replication);
    return file;
  }

  private static List<LocatedBlock> located(DistributedFileSystem fs, Path file)
      throws IOException {
    return fs.getClient().getLocatedBlocks(file.toString(), 0, Long.MAX_VALUE).getLocatedBlocks();
  }

  /**
   * How many blocks have each shape: the number of replicas per rack, largest first ("2+1": two on
   * one rack and one on another).
   */
  private static Map<String, Integer> shapes(FileSystem fs, Path file) throws IOException {
    Map<String, Integer> out = new TreeMap<>();
    for (BlockLocation l : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
      Map<String, Integer> perRack = new HashMap<>();
      for (String t : l.getTopologyPaths()) {
        perRack.merge(t.substring(0, t.lastIndexOf('/')), 1, Integer::sum);
      }
      String shape =
          perRack.values().stream()
              .sorted((a, b) -> b - a)
              .map(String::valueOf)
              .reduce((a, b) -> a + "+" + b)
              .orElse("");
      out.merge(shape, 1, Integer::sum);
    }
    return out;
  }

  private static Map<String, Integer> replicasPerRack(FileSystem fs, Path file) throws IOException {
    Map<String, Integer> out = new TreeMap<>();
    for (BlockLocation l : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
      for (String t : l.getTopologyPaths()) {
        out.merge(t.substring(0, t.lastIndexOf('/')), 1, Integer::sum);
      }
    }
    return out;
  }

  /** The rack the test's mapping puts a host on. */
  private static String rackOf(String host) {
    if (host.startsWith("client-on-r2")) {
      return "/r2";
    }
    for (int i = 0; i < RACKS.length; i++) {
      if (host.equals(hopsHost(i)) || host.equals("host" + i + ".foo.com")) {
        return RACKS[i];
      }
    }
    throw new IllegalArgumentException(host);
  }

  /** Each replica's distance to the reader: 0 its own node, 2 its rack, 4 another. */
  private static List<Integer> distances(List<DatanodeInfo> replicas, String reader) {
    String readerRack = rackOf(reader);
    List<Integer> out = new ArrayList<>();
    for (DatanodeInfo d : replicas) {
      out.add(
          d.getHostName().equals(reader) ? 0 : rackOf(d.getHostName()).equals(readerRack) ? 2 : 4);
    }
    return out;
  }
}
