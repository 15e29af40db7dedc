package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the reports show of the hosts lists, against hops (two namenodes over one store, three stock
 * DataNodes heartbeating both) and a MiniDFSCluster of three datanodes with the same settings: the
 * include list's hosts that no datanode registered from are dead datanodes in {@code dfsadmin
 * -report -dead} and {@code getDatanodeReport(DEAD)}, on every namenode as on HDFS's; {@code /jmx}
 * {@code DecomNodes} counts a decommissioning datanode's blocks left as HDFS's does and fsck its
 * replicas; {@code /jmx}'s {@code NumDeadDataNodes}, {@code NumDecomDeadDataNodes} and {@code
 * DeadNodes} count and list the never-registered hosts as HDFS's do.
 */
class DecommissionReportsLikeHdfsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DecommissionHosts hosts = DecommissionHosts.empty();

  @RegisterExtension
  static final SideBySideExtension clusters =
      SideBySideExtension.of(() -> SideBySide.start("decommission-reports", hosts.conf(), 3));

  static Configuration through(HopsNameNode nn) {
    return clusters.get().through(nn);
  }

  static StockTool.Output dfsadmin(Configuration conf, String... args) throws Exception {
    StockTool.Output o = StockTool.dfsadmin(conf, args);
    assertThat(o.rc()).as(o.err()).isZero();
    return o;
  }

  /** Writes the hosts files: {@code own}'s addresses and {@code extra} included, then refreshes. */
  static void hostsLists(boolean onHops, String extraIncluded, String excluded) throws Exception {
    StringBuilder in = new StringBuilder();
    List<DataNode> own = onHops ? clusters.hops().datanodes() : clusters.hdfs().getDataNodes();
    for (DataNode dn : own) {
      in.append(dn.getDatanodeId().getXferAddr()).append('\n');
    }
    writeAndRefresh(onHops, in + extraIncluded, excluded);
  }

  /** Empty hosts lists on both clusters. */
  static void clearLists() throws Exception {
    writeAndRefresh(true, "", "");
    writeAndRefresh(false, "", "");
  }

  private static void writeAndRefresh(boolean onHops, String included, String excluded)
      throws Exception {
    Files.writeString(hosts.include(), included);
    Files.writeString(hosts.exclude(), excluded);
    if (onHops) {
      assertThat(dfsadmin(through(clusters.other()), "-refreshNodes").out())
          .contains("Refresh nodes successful");
    } else {
      clusters.get().refreshHdfsNodes();
    }
  }

  /** The part of {@code dfsadmin -report} from its datanodes' heading on. */
  static String datanodesPart(String report, String heading) {
    int at = report.indexOf(heading);
    assertThat(at).as(report).isNotNegative();
    return report.substring(at);
  }

  /** What a report says of each datanode, in its order. */
  private static List<String> describe(DatanodeInfo[] nodes) {
    List<String> out = new ArrayList<>();
    for (DatanodeInfo d : nodes) {
      out.add(
          String.join(
              " ",
              d.getIpAddr(),
              d.getHostName(),
              "uuid=" + d.getDatanodeUuid(),
              "xfer=" + d.getXferPort(),
              "info=" + d.getInfoPort(),
              "infoSecure=" + d.getInfoSecurePort(),
              "ipc=" + d.getIpcPort(),
              d.getNetworkLocation(),
              String.valueOf(d.getAdminState()),
              "lastUpdate=" + d.getLastUpdate(),
              "blocks=" + d.getNumBlocks(),
              "capacity=" + d.getCapacity()));
    }
    return out;
  }

  private static final int BLOCK = 64 * 1024;

  private static void write(FSDataOutputStream out, int bytes) throws IOException {
    byte[] data = new byte[bytes];
    new Random(bytes).nextBytes(data);
    out.write(data);
  }

  private static FSDataOutputStream create(DistributedFileSystem fs, String path)
      throws IOException {
    return fs.create(new org.apache.hadoop.fs.Path(path), true, 4096, (short) 3, BLOCK);
  }

  /** A NameNodeInfo attribute of {@code nn}'s /jmx, parsed from its JSON string. */
  static JsonNode nameNodeInfo(HopsNameNode nn, String attribute) throws IOException {
    return JSON.readTree(bean(nn, "NameNodeInfo").get(attribute).asText());
  }

  /** The bean {@code Hadoop:service=NameNode,name=<name>} of {@code nn}'s /jmx. */
  static JsonNode bean(HopsNameNode nn, String name) throws IOException {
    try (java.io.InputStream in =
        java.net
            .URI
            .create(nn.httpUri() + "/jmx?qry=Hadoop:service=NameNode,name=" + name)
            .toURL()
            .openStream()) {
      return JSON.readTree(in).get("beans").get(0);
    }
  }

  /**
   * A DeadNodes value without each entry's {@code lastContact}, which counts from a clock of each
   * process's own.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Map<String, Object>> deadNodes(String json) throws IOException {
    Map<String, Map<String, Object>> nodes = JSON.readValue(json, TreeMap.class);
    nodes.values().forEach(m -> m.remove("lastContact"));
    return nodes;
  }

  /** The per-datanode counts of a DecomNodes or EnteringMaintenanceNodes entry. */
  static String counts(JsonNode nodes, String xferAddr, String outOfServiceKey) {
    for (JsonNode n : nodes) {
      if (n.get("xferaddr").asText().equals(xferAddr)) {
        return "underReplicatedBlocks="
            + n.path("underReplicatedBlocks").asText("missing")
            + " "
            + outOfServiceKey
            + "="
            + n.path(outOfServiceKey).asText("missing")
            + " underReplicateInOpenFiles="
            + n.path("underReplicateInOpenFiles").asText("missing");
      }
    }
    return "not listed in " + nodes;
  }

  /**
   * What {@code fsck /reports -files -blocks -replicaDetails} says that does not name a block or a
   * datanode: its totals, and how many replicas it marks in each state.
   */
  static String fsckSummary(Configuration conf) throws Exception {
    String out =
        StockTool.run(o -> new DFSck(conf, o), "/reports", "-files", "-blocks", "-replicaDetails")
            .out();
    int from = out.indexOf("Status:");
    int to = out.indexOf("FSCK ended");
    assertThat(from).as(out).isNotNegative();
    StringBuilder states = new StringBuilder(out.substring(from, to));
    for (String state : List.of("(LIVE)", "(DECOMMISSIONING)", "(DECOMMISSIONED)")) {
      states.append(state).append(" x").append(out.split(Pattern.quote(state), -1).length - 1);
      states.append('\n');
    }
    return states.toString();
  }

  @Test
  void decomNodesCountTheBlocksLeftLikeHdfsOnEveryNamenode() throws Exception {
    // Three datanodes and three replicas: the excluded one stays decommissioning, every block
    // short of a copy, those of the open file too.
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other());
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      List<FSDataOutputStream> open = new ArrayList<>();
      for (DistributedFileSystem f : List.of(fs, hfs)) {
        try (FSDataOutputStream out = create(f, "/reports/closed")) {
          write(out, 2 * BLOCK);
        }
        FSDataOutputStream out = create(f, "/reports/open");
        write(out, 2 * BLOCK + 100);
        out.hflush();
        open.add(out);
      }
      HopsTestCluster.awaitReplicas(fs, new org.apache.hadoop.fs.Path("/reports/closed"), 3);
      DataNode victim = clusters.hops().datanodes().get(0);
      DataNode hdfsVictim = clusters.hdfs().getDataNodes().get(0);
      try {
        hostsLists(true, "", victim.getDatanodeId().getXferAddr() + "\n");
        hostsLists(false, "", hdfsVictim.getDatanodeId().getXferAddr() + "\n");
        String key = "decommissionOnlyReplicas";
        String hdfsCounts = "";
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
          hdfsCounts =
              counts(
                  JSON.readTree(clusters.hdfs().getNamesystem().getDecomNodes()),
                  hdfsVictim.getDatanodeId().getXferAddr(),
                  key);
          String hopsCounts =
              counts(
                  nameNodeInfo(clusters.other(), "DecomNodes"),
                  victim.getDatanodeId().getXferAddr(),
                  key);
          if (hdfsCounts.startsWith("underReplicatedBlocks=4") && hopsCounts.equals(hdfsCounts)) {
            break;
          }
          Thread.sleep(500);
        }
        assertThat(hdfsCounts)
            .isEqualTo(
                "underReplicatedBlocks=4 decommissionOnlyReplicas=0 underReplicateInOpenFiles=2");
        for (HopsNameNode nn : List.of(clusters.hops().namenode(), clusters.other())) {
          JsonNode decom = nameNodeInfo(nn, "DecomNodes");
          assertThat(counts(decom, victim.getDatanodeId().getXferAddr(), key))
              .as(decom.toString())
              .isEqualTo(hdfsCounts);
          assertThat(decom.elements().next().get("decommissionDuration").asLong()).isNotNegative();
        }

        // fsck counts the decommissioning replicas apart and marks them, as HDFS's does.
        String hdfsFsck = fsckSummary(clusters.hdfsSide().conf());
        assertThat(hdfsFsck).contains(" DecommissioningReplicas:\t2");
        for (HopsNameNode nn : List.of(clusters.hops().namenode(), clusters.other())) {
          assertThat(fsckSummary(through(nn))).isEqualTo(hdfsFsck);
        }
      } finally {
        for (FSDataOutputStream out : open) {
          out.close();
        }
        clearLists();
      }
    }
  }

  @Test
  void includedHostsNeverRegisteredAreDeadOnEveryNamenodeLikeHdfs() throws Exception {
    // A host with a port no datanode uses, one excluded too, one address with no datanode at all.
    String extra = "127.0.0.1:1\n127.0.0.1:2\n127.0.0.2\n";
    String excluded = "127.0.0.1:2\n";
    try (DistributedFileSystem leaderFs = clusters.hops().client();
        DistributedFileSystem otherFs = clusters.hops().client(clusters.other());
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      hostsLists(true, extra, excluded);
      hostsLists(false, extra, excluded);

      List<String> hdfsDead = describe(hfs.getDataNodeStats(DatanodeReportType.DEAD));
      assertThat(hdfsDead).hasSize(3);
      assertThat(describe(leaderFs.getDataNodeStats(DatanodeReportType.DEAD))).isEqualTo(hdfsDead);
      assertThat(describe(otherFs.getDataNodeStats(DatanodeReportType.DEAD))).isEqualTo(hdfsDead);
      assertThat(describe(otherFs.getDataNodeStats(DatanodeReportType.ALL)))
          .hasSize(6)
          .endsWith(hdfsDead.toArray(new String[0]));
      assertThat(otherFs.getClient().getDatanodeStorageReport(DatanodeReportType.DEAD))
          .hasSameSizeAs(
              clusters
                  .hdfs()
                  .getFileSystem()
                  .getClient()
                  .getDatanodeStorageReport(DatanodeReportType.DEAD));
      assertThat(describe(otherFs.getDataNodeStats(DatanodeReportType.LIVE))).hasSize(3);

      String hdfsReport =
          datanodesPart(dfsadmin(clusters.hdfsSide().conf(), "-report", "-dead").out(), "Dead");
      assertThat(hdfsReport).startsWith("Dead datanodes (3):");
      for (HopsNameNode nn : List.of(clusters.hops().namenode(), clusters.other())) {
        String hopsReport = datanodesPart(dfsadmin(through(nn), "-report", "-dead").out(), "Dead");
        assertThat(hopsReport).isEqualTo(hdfsReport);
      }

      // /jmx: the same dead datanodes, counted and listed.
      assertThat(clusters.hdfs().getNamesystem().getNumDeadDataNodes()).isEqualTo(3);
      Map<String, Map<String, Object>> hdfsDeadNodes =
          deadNodes(clusters.hdfs().getNamesystem().getDeadNodes());
      for (HopsNameNode nn : List.of(clusters.hops().namenode(), clusters.other())) {
        long deadline = System.currentTimeMillis() + 10_000; // metrics are read once a second
        while (bean(nn, "FSNamesystemState").get("NumDeadDataNodes").asInt() != 3
            && System.currentTimeMillis() < deadline) {
          Thread.sleep(200);
        }
        JsonNode state = bean(nn, "FSNamesystemState");
        assertThat(state.get("NumDeadDataNodes").asInt()).isEqualTo(3);
        assertThat(state.get("NumDecomDeadDataNodes").asInt())
            .isEqualTo(clusters.hdfs().getNamesystem().getNumDecomDeadDataNodes())
            .isEqualTo(1);
        assertThat(deadNodes(bean(nn, "NameNodeInfo").get("DeadNodes").asText()))
            .isEqualTo(hdfsDeadNodes);
      }
    } finally {
      clearLists();
    }
  }
}
