package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code dfsadmin -setBalancerBandwidth} and {@code -metasave} against hops (two namenodes, two
 * stock DataNodes heartbeating both) and against a MiniDFSCluster with two datanodes: the bandwidth
 * reaches every datanode whichever namenode takes the command, and the metasave file has HDFS's
 * sections and block lines.
 */
class OperatorCommandsLikeHdfsTest {
  private static final int BLOCK = 1024 * 1024;
  private static Path logDir;
  private static String oldLogDir;

  @RegisterExtension
  static final SideBySideExtension clusters =
      SideBySideExtension.of(
          () -> {
            oldLogDir = System.getProperty("hadoop.log.dir");
            logDir = Files.createTempDirectory("hops-metasave-");
            System.setProperty("hadoop.log.dir", logDir.toString());
            Configuration conf = new Configuration(false);
            conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
            conf.setInt("dfs.heartbeat.interval", 1);
            return SideBySide.start("operator", conf, 2);
          });

  @AfterAll
  static void restoreLogDir() {
    if (oldLogDir == null) {
      System.clearProperty("hadoop.log.dir");
    } else {
      System.setProperty("hadoop.log.dir", oldLogDir);
    }
  }

  /** HDFS's client settings, files with one replica. */
  private static Configuration hdfsConf() {
    return ApacheHdfs.clientConf(clusters.hdfs(), 1);
  }

  /** What {@code -getBalancerBandwidth} prints for each datanode, once all print {@code want}. */
  private static List<String> bandwidths(Configuration conf, List<DataNode> datanodes, long want)
      throws Exception {
    String expected = "Balancer bandwidth is " + want + " bytes per second.";
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      List<String> shown = new ArrayList<>();
      for (DataNode dn : datanodes) {
        StockTool.Output o =
            StockTool.dfsadmin(conf, "-getBalancerBandwidth", dn.getDatanodeId().getIpcAddr(false));
        assertThat(o.rc()).as(o.err()).isZero();
        shown.add(o.out().strip());
      }
      if (shown.stream().allMatch(expected::equals) || System.currentTimeMillis() > deadline) {
        return shown;
      }
      Thread.sleep(200);
    }
  }

  @Test
  void balancerBandwidthReachesEveryDatanodeWhicheverNamenodeTakesIt() throws Exception {
    // Sent to the namenode that is not the leader: the datanodes obey only the leader's heartbeat
    // answers, so the value must reach it through the database.
    StockTool.Output set =
        StockTool.dfsadmin(
            clusters.get().through(clusters.other()), "-setBalancerBandwidth", "12345678");
    StockTool.Output setHdfs = StockTool.dfsadmin(hdfsConf(), "-setBalancerBandwidth", "12345678");
    assertThat(set.rc()).as(set.err()).isZero();
    assertThat(set.out())
        .isEqualTo(setHdfs.out())
        .contains("Balancer bandwidth is set to 12345678");
    List<String> hopsShown =
        bandwidths(clusters.get().through(clusters.other()), clusters.hops().datanodes(), 12345678);
    assertThat(hopsShown)
        .isEqualTo(bandwidths(hdfsConf(), clusters.hdfs().getDataNodes(), 12345678))
        .containsOnly("Balancer bandwidth is 12345678 bytes per second.");

    // Again through the leader, with another value: every setting reaches the datanodes.
    StockTool.Output again =
        StockTool.dfsadmin(
            clusters.get().through(clusters.hops().namenode()), "-setBalancerBandwidth", "2345678");
    assertThat(again.rc()).as(again.err()).isZero();
    assertThat(
            bandwidths(
                clusters.get().through(clusters.hops().namenode()),
                clusters.hops().datanodes(),
                2345678))
        .containsOnly("Balancer bandwidth is 2345678 bytes per second.");
  }

  private static void write(DistributedFileSystem fs, String path, short replication)
      throws IOException {
    byte[] data = new byte[BLOCK / 2];
    new Random(7).nextBytes(data);
    try (FSDataOutputStream out =
        fs.create(new org.apache.hadoop.fs.Path(path), true, 4096, replication, BLOCK)) {
      out.write(data);
    }
  }

  /**
   * The metasave file's lines, once it lists one block waiting for replication with both its
   * replicas recorded (the second one's report may come after the file is closed).
   */
  private static List<String> metasave(Configuration conf, String name) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      StockTool.Output o = StockTool.dfsadmin(conf, "-metasave", name);
      assertThat(o.rc()).as(o.err()).isZero();
      assertThat(o.out()).startsWith("Created metasave file " + name + " in the log directory");
      File file = new File(logDir.toFile(), name);
      List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
      boolean ready =
          lines.contains("Metasave: Blocks waiting for reconstruction: 1")
              && lines.stream().anyMatch(l -> l.contains("(replicas: live: 2 "))
              && lines.stream().noneMatch(l -> l.contains("out of date"));
      if (ready || System.currentTimeMillis() > deadline) {
        return lines;
      }
      Thread.sleep(200);
    }
  }

  /** A line with block names, addresses and numbers that differ between clusters masked. */
  private static String shape(String line) {
    return line.replaceAll("blk_\\d+_\\d+", "blk_ID_GS")
        .replaceAll("\\d+\\.\\d+\\.\\d+\\.\\d+:\\d+", "IP:PORT")
        .replaceAll(
            "^\\d+ files and directories, \\d+ blocks = \\d+",
            "N files and directories, B" + " blocks = T");
  }

  @Test
  void metasaveWritesHdfsSectionsFromTheDatabase() throws Exception {
    // Three replicas wanted, two datanodes: the block waits for replication on both clusters.
    try (DistributedFileSystem fs = clusters.hops().client();
        DistributedFileSystem hfs =
            (DistributedFileSystem) FileSystem.get(clusters.hdfs().getURI(), hdfsConf())) {
      write(fs, "/meta/f", (short) 3);
      write(hfs, "/meta/f", (short) 3);
    }
    // Through the namenode that is not the leader: the state is read from the database.
    List<String> hopsLines = metasave(clusters.get().through(clusters.other()), "hops-meta.txt");
    List<String> hdfsLines = metasave(hdfsConf(), "hdfs-meta.txt");
    List<String> hopsHead = hopsLines.stream().map(OperatorCommandsLikeHdfsTest::shape).toList();
    List<String> hdfsHead = hdfsLines.stream().map(OperatorCommandsLikeHdfsTest::shape).toList();
    // Every line up to the datanode list (whose lines carry each datanode's own numbers).
    int hopsEnd = hopsHead.indexOf("Metasave: Number of datanodes: 2");
    int hdfsEnd = hdfsHead.indexOf("Metasave: Number of datanodes: 2");
    assertThat(hopsEnd).as(String.join("\n", hopsLines)).isPositive();
    assertThat(hdfsEnd).as(String.join("\n", hdfsLines)).isPositive();
    assertThat(hopsHead.subList(0, hopsEnd + 1))
        .as(String.join("\n", hopsLines))
        .isEqualTo(hdfsHead.subList(0, hdfsEnd + 1))
        .contains(
            "Live Datanodes: 2",
            "Dead Datanodes: 0",
            "Metasave: Blocks waiting for reconstruction: 1",
            "Metasave: Blocks currently missing: 0",
            "Mis-replicated blocks that have been postponed:",
            "Metasave: Blocks being reconstructed: 0",
            "Metasave: Blocks 0 waiting deletion from 0 datanodes.",
            "Corrupt Blocks:");
    // HDFS's DatanodeInfo.dumpDatanode, one line per datanode.
    for (List<String> head : List.of(hopsHead, hdfsHead)) {
      assertThat(head.subList(head.indexOf("Metasave: Number of datanodes: 2") + 1, head.size()))
          .hasSize(2)
          .allMatch(l -> l.matches("IP:PORT IN \\d+\\(.*"), "a datanode line");
    }
  }
}
