package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Maintenance through the JSON hosts file ({@code CombinedHostFileManager}, {@code dfsadmin
 * -refreshNodes}) against hops (two namenodes over one store, four stock DataNodes heartbeating
 * both) and a MiniDFSCluster of four datanodes with the same settings and the same file: a datanode
 * put IN_MAINTENANCE gets there once the blocks only it held are copied, with its other blocks'
 * replicas as they are, readers are no longer sent to it, it stops without its blocks being copied
 * elsewhere, and at its expiry, still dead, its blocks are copied again; a live one returns to
 * service at its expiry, and when the file sets it back to NORMAL. The {@code -report} lines and
 * the /jmx maintenance counters are HDFS's. An open file holding up a decommission ({@code
 * DECOMMISSIONED} in the same file) is listed by {@code dfsadmin -listOpenFiles
 * -blockingDecommission} as HDFS lists it, by either namenode.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MaintenanceLikeHdfsTest {
  private static final int BLOCK = 64 * 1024;
  private static final String STATE_BEAN = "Hadoop:service=NameNode,name=FSNamesystemState";
  private static final String INFO_BEAN = "Hadoop:service=NameNode,name=NameNodeInfo";
  private static Path hostsFile;

  @RegisterExtension
  static final SideBySideExtension clusters =
      SideBySideExtension.of(() -> SideBySide.start("maintenance", conf(), 4));

  /** HDFS's datanodes in the order they started (a restart moves one to the end of its list). */
  private static List<DataNode> hdfsDatanodes;

  @BeforeAll
  static void noteHdfsDatanodes() {
    hdfsDatanodes = new ArrayList<>(clusters.hdfs().getDataNodes());
  }

  private static Configuration conf() throws IOException {
    hostsFile = Files.createTempDirectory("hops-hosts-").resolve("hosts.json");
    Files.writeString(hostsFile, "[]");
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 500);
    conf.setInt("dfs.namenode.decommission.interval", 1);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.set(
        "dfs.namenode.hosts.provider.classname",
        "org.apache.hadoop.hdfs.server.blockmanagement.CombinedHostFileManager");
    conf.set("dfs.hosts", hostsFile.toString());
    return conf;
  }

  /**
   * Writes the JSON hosts file with one entry for {@code dn}, then has hops (through {@code nn})
   * and HDFS read it; {@code hdfsDn} gets the same entry in HDFS's file.
   */
  private static void hostsFile(
      HopsNameNode nn, DataNode dn, DataNode hdfsDn, AdminStates state, long expiry)
      throws Exception {
    Files.writeString(hostsFile, entry(dn, state, expiry));
    StockTool.Output o = StockTool.dfsadmin(clusters.get().through(nn), "-refreshNodes");
    assertThat(o.rc()).as(o.err()).isZero();
    assertThat(o.out()).contains("Refresh nodes successful");
    Files.writeString(hostsFile, entry(hdfsDn, state, expiry));
    clusters.get().refreshHdfsNodes();
  }

  /**
   * Writes the JSON hosts file with every datanode NORMAL, then has hops (through {@code nn}) and
   * HDFS read it: an include list of them all.
   */
  private static void allNormal(HopsNameNode nn) throws Exception {
    Files.writeString(hostsFile, normal(clusters.hops().datanodes()));
    StockTool.Output o = StockTool.dfsadmin(clusters.get().through(nn), "-refreshNodes");
    assertThat(o.rc()).as(o.err()).isZero();
    Files.writeString(hostsFile, normal(hdfsDatanodes));
    clusters.get().refreshHdfsNodes();
  }

  private static String normal(List<DataNode> datanodes) {
    return datanodes.stream()
        .map(dn -> object(dn, AdminStates.NORMAL, 0))
        .collect(Collectors.joining(",", "[", "]"));
  }

  private static String entry(DataNode dn, AdminStates state, long expiry) {
    return "[" + object(dn, state, expiry) + "]";
  }

  private static String object(DataNode dn, AdminStates state, long expiry) {
    return "{\"hostName\":\""
        + dn.getDatanodeId().getIpAddr()
        + "\",\"port\":"
        + dn.getDatanodeId().getXferPort()
        + ",\"adminState\":\""
        + state.name()
        + "\""
        + (expiry > 0 ? ",\"maintenanceExpireTimeInMS\":" + expiry : "")
        + "}";
  }

  private static byte[] write(DistributedFileSystem fs, String path, short replication, int blocks)
      throws IOException {
    byte[] data = new byte[blocks * BLOCK];
    new Random(path.hashCode()).nextBytes(data);
    try (FSDataOutputStream out =
        fs.create(new org.apache.hadoop.fs.Path(path), true, 4096, replication, BLOCK)) {
      out.write(data);
    }
    return data;
  }

  private static DataNode byUuid(List<DataNode> datanodes, String uuid) {
    return datanodes.stream().filter(d -> uuid.equals(d.getDatanodeUuid())).findFirst().get();
  }

  private static void assertReads(DistributedFileSystem fs, String path, byte[] data)
      throws IOException {
    byte[] got = new byte[data.length];
    try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
      in.readFully(got);
    }
    assertThat(got).as(path).isEqualTo(data);
  }

  private static AdminStates state(DistributedFileSystem fs, String uuid) throws IOException {
    for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.ALL)) {
      if (d.getDatanodeUuid().equals(uuid)) {
        return d.getAdminState();
      }
    }
    throw new AssertionError("no datanode " + uuid);
  }

  private static void awaitState(DistributedFileSystem fs, String uuid, AdminStates want)
      throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    while (state(fs, uuid) != want) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(uuid + " is " + state(fs, uuid) + ", not " + want);
      }
      Thread.sleep(200);
    }
  }

  private static void awaitDead(DistributedFileSystem fs, String uuid) throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    while (Arrays.stream(fs.getDataNodeStats(DatanodeReportType.DEAD))
        .noneMatch(d -> d.getDatanodeUuid().equals(uuid))) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(uuid + " is not dead");
      }
      Thread.sleep(200);
    }
  }

  /** For each block of {@code path}, the datanodes a reader is given. */
  /** How many of the blocks, by their datanodes, have a replica on datanode {@code uuid}. */
  @SafeVarargs
  private static int onNode(String uuid, List<Set<String>> first, List<List<Set<String>>>... more) {
    List<Set<String>> all = new ArrayList<>(first);
    for (List<List<Set<String>>> m : more) {
      m.forEach(all::addAll);
    }
    return (int) all.stream().filter(l -> l.contains(uuid)).count();
  }

  /** The InMaintenanceReplicas count of {@code fsck /maint -maintenance}; 0 if it prints none. */
  private static int fsckInMaintenance(Configuration conf) throws Exception {
    String out = StockTool.run(o -> new DFSck(conf, o), "/maint", "-maintenance").out();
    Matcher m = Pattern.compile(" InMaintenanceReplicas:\t(\\d+)").matcher(out);
    assertThat(out).contains("Status: HEALTHY");
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  private static List<Set<String>> locations(DistributedFileSystem fs, String path)
      throws IOException {
    List<Set<String>> out = new ArrayList<>();
    for (LocatedBlock b :
        fs.getClient().getLocatedBlocks(path, 0, Long.MAX_VALUE).getLocatedBlocks()) {
      out.add(
          Arrays.stream(b.getLocations())
              .map(DatanodeInfo::getDatanodeUuid)
              .collect(Collectors.toSet()));
    }
    return out;
  }

  /** {@code before} without {@code uuid}: where the blocks are when nothing was copied. */
  private static List<Set<String>> without(List<Set<String>> before, String uuid) {
    List<Set<String>> out = new ArrayList<>();
    for (Set<String> s : before) {
      Set<String> t = new HashSet<>(s);
      t.remove(uuid);
      out.add(t);
    }
    return out;
  }

  private static JsonNode jmx(String httpBase, String bean) throws IOException {
    try (java.io.InputStream in =
        java.net.URI.create(httpBase + "/jmx?qry=" + bean).toURL().openStream()) {
      return new ObjectMapper().readTree(in).get("beans").get(0);
    }
  }

  private static String hdfsHttp() {
    return "http://" + NetUtils.getHostPortString(clusters.hdfs().getNameNode().getHttpAddress());
  }

  /** The maintenance counters of FSNamesystemState, as "key=value" strings. */
  private static List<String> counters(String httpBase) throws IOException {
    JsonNode b = jmx(httpBase, STATE_BEAN);
    List<String> out = new ArrayList<>();
    for (String key :
        List.of(
            "NumEnteringMaintenanceDataNodes",
            "NumInMaintenanceLiveDataNodes",
            "NumInMaintenanceDeadDataNodes",
            "NumInServiceLiveDataNodes",
            "NumLiveDataNodes",
            "NumDeadDataNodes")) {
      out.add(key + "=" + b.get(key).asInt());
    }
    return out;
  }

  /** Waits until hops's /jmx (of {@code nn}) shows the counters HDFS's shows now. */
  private static void assertCountersLikeHdfs(HopsNameNode nn) throws Exception {
    List<String> want = counters(hdfsHttp());
    long deadline = System.currentTimeMillis() + 60_000;
    while (!counters(nn.httpUri()).equals(want) && System.currentTimeMillis() < deadline) {
      Thread.sleep(300);
    }
    assertThat(counters(nn.httpUri())).isEqualTo(want);
  }

  /** The lines of a {@code dfsadmin -report} listing: headers and statuses, names left out. */
  private static List<String> reportLines(String report) {
    return report
        .lines()
        .filter(l -> l.endsWith("datanodes (0):") || l.matches(".*datanodes \\(\\d+\\):"))
        .toList();
  }

  private static List<String> statuses(String report) {
    return report.lines().filter(l -> l.startsWith("Decommission Status")).sorted().toList();
  }

  @Test
  @Order(1)
  void aDatanodeInMaintenanceStopsWithoutReReplicationAndIsCopiedAtExpiryLikeHdfs()
      throws Exception {
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other());
        DistributedFileSystem leaderFs = clusters.hops().client();
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      // The datanode put in maintenance holds the only replica of a block: it is copied before the
      // datanode is in maintenance (dfs.namenode.maintenance.replication.min is 1).
      byte[] hopsOnly = write(fs, "/maint/r1", (short) 1, 4);
      byte[] hdfsOnly = write(hfs, "/maint/r1", (short) 1, 4);
      String uuid = locations(fs, "/maint/r1").get(0).iterator().next();
      String hdfsUuid = locations(hfs, "/maint/r1").get(0).iterator().next();
      DataNode victim = byUuid(clusters.hops().datanodes(), uuid);
      DataNode hdfsVictim = byUuid(hdfsDatanodes, hdfsUuid);
      List<String> paths = List.of("/maint/r2", "/maint/r3");
      List<byte[]> hopsData = new ArrayList<>();
      List<byte[]> hdfsData = new ArrayList<>();
      hopsData.add(write(fs, paths.get(0), (short) 2, 4));
      hopsData.add(write(fs, paths.get(1), (short) 3, 4));
      hdfsData.add(write(hfs, paths.get(0), (short) 2, 4));
      hdfsData.add(write(hfs, paths.get(1), (short) 3, 4));
      for (int i = 0; i < paths.size(); i++) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(paths.get(i));
        HopsTestCluster.awaitReplicas(fs, p, 2 + i);
        HopsTestCluster.awaitReplicas(hfs, p, 2 + i);
      }

      List<List<Set<String>>> hopsBefore = new ArrayList<>();
      List<List<Set<String>>> hdfsBefore = new ArrayList<>();
      for (String p : paths) {
        hopsBefore.add(locations(fs, p));
        hdfsBefore.add(locations(hfs, p));
      }
      int hopsKept = onNode(uuid, locations(fs, "/maint/r1"), hopsBefore);
      int hdfsKept = onNode(hdfsUuid, locations(hfs, "/maint/r1"), hdfsBefore);
      long later = System.currentTimeMillis() + 600_000;
      // Through the namenode that is not the leader: the leader learns it from the database.
      hostsFile(clusters.other(), victim, hdfsVictim, AdminStates.IN_MAINTENANCE, later);
      assertThat(state(fs, uuid))
          .isIn(AdminStates.ENTERING_MAINTENANCE, AdminStates.IN_MAINTENANCE);
      awaitState(hfs, hdfsUuid, AdminStates.IN_MAINTENANCE);
      awaitState(leaderFs, uuid, AdminStates.IN_MAINTENANCE);
      awaitState(fs, uuid, AdminStates.IN_MAINTENANCE);

      // Its only replicas were copied once: one replica elsewhere.
      assertThat(locations(fs, "/maint/r1")).allMatch(l -> l.size() == 1 && !l.contains(uuid));
      assertThat(locations(hfs, "/maint/r1")).allMatch(l -> l.size() == 1 && !l.contains(hdfsUuid));
      assertReads(fs, "/maint/r1", hopsOnly);
      assertReads(hfs, "/maint/r1", hdfsOnly);
      // fsck -maintenance counts every replica it keeps, as HDFS's does, on both namenodes.
      assertThat(fsckInMaintenance(clusters.hdfsSide().conf())).isEqualTo(hdfsKept);
      assertThat(fsckInMaintenance(clusters.get().through(clusters.other()))).isEqualTo(hopsKept);
      assertThat(fsckInMaintenance(clusters.get().through(clusters.hops().namenode())))
          .isEqualTo(hopsKept);
      // Readers are no longer sent to it; every other replica is where it was, none was copied.
      for (int i = 0; i < paths.size(); i++) {
        assertThat(locations(fs, paths.get(i))).isEqualTo(without(hopsBefore.get(i), uuid));
        assertThat(locations(hfs, paths.get(i))).isEqualTo(without(hdfsBefore.get(i), hdfsUuid));
        assertReads(fs, paths.get(i), hopsData.get(i));
        assertReads(hfs, paths.get(i), hdfsData.get(i));
      }
      for (String listing : List.of("-inmaintenance", "-enteringmaintenance")) {
        StockTool.Output hopsReport =
            StockTool.dfsadmin(clusters.get().through(clusters.other()), "-report", listing);
        StockTool.Output hdfsReport =
            StockTool.dfsadmin(clusters.hdfsSide().conf(), "-report", listing);
        assertThat(reportLines(hopsReport.out()))
            .as(hopsReport.out())
            .isEqualTo(reportLines(hdfsReport.out()));
        assertThat(statuses(hopsReport.out())).isEqualTo(statuses(hdfsReport.out()));
      }
      assertThat(
              statuses(
                  StockTool.dfsadmin(
                          clusters.get().through(clusters.other()), "-report", "-inmaintenance")
                      .out()))
          .containsExactly("Decommission Status : In maintenance");
      assertCountersLikeHdfs(clusters.other());
      assertThat(counters(clusters.other().httpUri())).contains("NumInMaintenanceLiveDataNodes=1");
      assertThat(
              jmx(clusters.other().httpUri(), INFO_BEAN).get("EnteringMaintenanceNodes").asText())
          .isEqualTo(jmx(hdfsHttp(), INFO_BEAN).get("EnteringMaintenanceNodes").asText())
          .isEqualTo("{}");

      // It stops: dead in maintenance, its blocks are not copied elsewhere, reads go on.
      victim.shutdown();
      clusters.hdfs().stopDataNode(hdfsVictim.getDatanodeId().getXferAddr());
      awaitDead(fs, uuid);
      awaitDead(leaderFs, uuid);
      awaitDead(hfs, hdfsUuid);
      Thread.sleep(5_000); // several rounds of both namenodes' monitors
      assertThat(state(fs, uuid)).isEqualTo(AdminStates.IN_MAINTENANCE);
      assertThat(state(hfs, hdfsUuid)).isEqualTo(AdminStates.IN_MAINTENANCE);
      for (int i = 0; i < paths.size(); i++) {
        assertThat(locations(fs, paths.get(i)))
            .as("where %s is after the datanode in maintenance died", paths.get(i))
            .isEqualTo(without(hopsBefore.get(i), uuid));
        assertThat(locations(hfs, paths.get(i))).isEqualTo(without(hdfsBefore.get(i), hdfsUuid));
        assertReads(fs, paths.get(i), hopsData.get(i));
        assertReads(hfs, paths.get(i), hdfsData.get(i));
      }
      assertReads(fs, "/maint/r1", hopsOnly);
      assertReads(hfs, "/maint/r1", hdfsOnly);
      // fsck -maintenance counts every replica it keeps, as HDFS's does, on both namenodes.
      assertThat(fsckInMaintenance(clusters.hdfsSide().conf())).isEqualTo(hdfsKept);
      assertThat(fsckInMaintenance(clusters.get().through(clusters.other()))).isEqualTo(hopsKept);
      assertThat(fsckInMaintenance(clusters.get().through(clusters.hops().namenode())))
          .isEqualTo(hopsKept);
      assertCountersLikeHdfs(clusters.other());
      assertThat(counters(clusters.other().httpUri())).contains("NumInMaintenanceDeadDataNodes=1");

      // Its maintenance expires while it is dead: back to normal, its blocks copied again.
      long soon = System.currentTimeMillis() + 2_000;
      hostsFile(clusters.hops().namenode(), victim, hdfsVictim, AdminStates.IN_MAINTENANCE, soon);
      awaitState(hfs, hdfsUuid, AdminStates.NORMAL);
      awaitState(fs, uuid, AdminStates.NORMAL);
      for (int i = 0; i < paths.size(); i++) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(paths.get(i));
        HopsTestCluster.awaitReplicas(fs, p, 2 + i);
        HopsTestCluster.awaitReplicas(hfs, p, 2 + i);
        assertReads(fs, paths.get(i), hopsData.get(i));
      }
      assertCountersLikeHdfs(clusters.other());
    }
  }

  @Test
  @Order(2)
  void aLiveDatanodeReturnsToServiceAtExpiryAndWhenSetNormalLikeHdfs() throws Exception {
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other());
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      DataNode dn =
          clusters.hops().datanodes().stream().filter(DataNode::isDatanodeUp).findFirst().get();
      DataNode hdfsDn =
          clusters.hdfs().getDataNodes().get(0); // the one stopped is no longer listed
      String uuid = dn.getDatanodeUuid();
      String hdfsUuid = hdfsDn.getDatanodeUuid();

      // At its expiry.
      long expiry = System.currentTimeMillis() + 8_000;
      hostsFile(clusters.other(), dn, hdfsDn, AdminStates.IN_MAINTENANCE, expiry);
      awaitState(hfs, hdfsUuid, AdminStates.IN_MAINTENANCE);
      awaitState(fs, uuid, AdminStates.IN_MAINTENANCE);
      assertCountersLikeHdfs(clusters.other());
      awaitState(hfs, hdfsUuid, AdminStates.NORMAL);
      awaitState(fs, uuid, AdminStates.NORMAL);
      assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(expiry);
      assertCountersLikeHdfs(clusters.other());

      // When the file sets it back to NORMAL.
      hostsFile(
          clusters.other(),
          dn,
          hdfsDn,
          AdminStates.IN_MAINTENANCE,
          System.currentTimeMillis() + 600_000);
      awaitState(hfs, hdfsUuid, AdminStates.IN_MAINTENANCE);
      awaitState(fs, uuid, AdminStates.IN_MAINTENANCE);
      allNormal(clusters.hops().namenode());
      assertThat(state(hfs, hdfsUuid)).isEqualTo(AdminStates.NORMAL);
      awaitState(fs, uuid, AdminStates.NORMAL); // the other namenode reads it within a second
      assertCountersLikeHdfs(clusters.other());
      StockTool.Output hopsReport =
          StockTool.dfsadmin(clusters.get().through(clusters.other()), "-report");
      StockTool.Output hdfsReport = StockTool.dfsadmin(clusters.hdfsSide().conf(), "-report");
      assertThat(reportLines(hopsReport.out())).isEqualTo(reportLines(hdfsReport.out()));
      assertThat(statuses(hopsReport.out())).isEqualTo(statuses(hdfsReport.out()));
    }
  }

  /** {@code dfsadmin -listOpenFiles -blockingDecommission}, the client names left out. */
  private static String blockingFiles(Configuration conf, String authority) throws Exception {
    StockTool.Output o = StockTool.dfsadmin(conf, "-listOpenFiles", "-blockingDecommission");
    return ("rc=" + o.rc() + "\n" + o.out())
        .replaceAll("DFSClient_\\S+", "CLIENT")
        .replace(authority, "NN");
  }

  @Test
  @Order(3)
  void anOpenFileHoldingUpADecommissionIsListedLikeHdfs() throws Exception {
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other());
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      // Three datanodes live: a block of replication 3 cannot be on three others.
      FSDataOutputStream hopsOut =
          fs.create(new org.apache.hadoop.fs.Path("/maint/open"), true, 4096, (short) 3, BLOCK);
      FSDataOutputStream hdfsOut =
          hfs.create(new org.apache.hadoop.fs.Path("/maint/open"), true, 4096, (short) 3, BLOCK);
      try {
        byte[] data = new byte[BLOCK + BLOCK / 2];
        new Random(7).nextBytes(data);
        hopsOut.write(data);
        hopsOut.hflush();
        hdfsOut.write(data);
        hdfsOut.hflush();
        DataNode dn =
            clusters.hops().datanodes().stream().filter(DataNode::isDatanodeUp).findFirst().get();
        DataNode hdfsDn = clusters.hdfs().getDataNodes().get(0);
        hostsFile(clusters.other(), dn, hdfsDn, AdminStates.DECOMMISSIONED, 0);
        awaitState(fs, dn.getDatanodeUuid(), AdminStates.DECOMMISSION_INPROGRESS);
        // HDFS lists what its monitor found at its last check.
        String hdfsAuthority = hfs.getUri().getAuthority();
        long deadline = System.currentTimeMillis() + 60_000;
        String expected = blockingFiles(clusters.hdfsSide().conf(), hdfsAuthority);
        while (!expected.contains("/maint/open") && System.currentTimeMillis() < deadline) {
          Thread.sleep(300);
          expected = blockingFiles(clusters.hdfsSide().conf(), hdfsAuthority);
        }
        assertThat(expected).contains("/maint/open");
        assertThat(
                blockingFiles(clusters.get().through(clusters.other()), fs.getUri().getAuthority()))
            .isEqualTo(expected);
        assertThat(
                blockingFiles(
                    clusters.get().through(clusters.hops().namenode()),
                    java.net.URI.create(clusters.hops().namenode().uri()).getAuthority()))
            .isEqualTo(expected);
        assertThat(state(fs, dn.getDatanodeUuid())).isEqualTo(AdminStates.DECOMMISSION_INPROGRESS);
      } finally {
        hopsOut.close();
        hdfsOut.close();
        allNormal(clusters.hops().namenode());
      }
      // Closed, it no longer holds anything up.
      assertThat(
              blockingFiles(clusters.get().through(clusters.other()), fs.getUri().getAuthority()))
          .isEqualTo(blockingFiles(clusters.hdfsSide().conf(), hfs.getUri().getAuthority()))
          .doesNotContain("/maint/open");
    }
  }
}
