package io.hops.namenode.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;

/**
 * What a monitoring agent sees of a running cluster (two namenodes over one store, a stock client,
 * a real DataNode): HDFS's beans and attributes in {@code /jmx} with the values of what the test
 * did, the same cluster-wide totals from both namenodes, and a {@code /prom} that Prometheus's own
 * parser reads.
 */
class NamenodeMetricsTest {
  private static final long BLOCK = 1024 * 1024;
  private static final String[] FS_NAMESYSTEM = {
    "FilesTotal",
    "BlocksTotal",
    "CapacityTotal",
    "CapacityUsed",
    "CapacityRemaining",
    "NumLiveDataNodes",
    "NumDeadDataNodes",
    "StaleDataNodes",
    "UnderReplicatedBlocks",
    "PendingReplicationBlocks",
    "CorruptBlocks",
    "MissingBlocks",
    "PendingDeletionBlocks",
    "TotalLoad",
    "tag.HAState"
  };
  private static final String[] FS_NAMESYSTEM_STATE = {
    "FSState",
    "FilesTotal",
    "BlocksTotal",
    "CapacityTotal",
    "CapacityUsed",
    "CapacityRemaining",
    "NumLiveDataNodes",
    "NumDeadDataNodes",
    "NumStaleDataNodes",
    "UnderReplicatedBlocks",
    "PendingReplicationBlocks",
    "PendingDeletionBlocks",
    "TotalLoad"
  };
  private static final String[] CLUSTER_TOTALS = {
    "FilesTotal",
    "BlocksTotal",
    "CapacityTotal",
    "NumLiveDataNodes",
    "NumDeadDataNodes",
    "UnderReplicatedBlocks",
    "PendingReplicationBlocks",
    "CorruptBlocks",
    "MissingBlocks"
  };

  @Test
  void jmxAndPromShowWhatTheClusterDidAlikeFromBothNamenodes() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.CENSUS_INTERVAL_MS, 0);
    conf.setLong(NamenodeConfig.METRICS_SNAPSHOT_MS, 200);
    conf.set("dfs.metrics.percentiles.intervals", "1");
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    try (HopsTestCluster cluster = new HopsTestCluster(conf);
        HopsNameNode second = cluster.startAnotherNamenode()) {
      HopsNameNode first = cluster.namenode();
      List<DataNode> dns = cluster.startDatanodes(1, new Configuration(false), second);
      try (DistributedFileSystem fs = cluster.client(first)) {
        fs.mkdirs(new org.apache.hadoop.fs.Path("/m"));
        byte[] data = new byte[(int) (BLOCK + BLOCK / 2)];
        for (int i = 0; i < 3; i++) {
          try (FSDataOutputStream out =
              fs.create(new org.apache.hadoop.fs.Path("/m/f" + i), true, 4096, (short) 1, BLOCK)) {
            out.write(data);
          }
        }
        fs.listStatus(new org.apache.hadoop.fs.Path("/m"));
        fs.getFileStatus(new org.apache.hadoop.fs.Path("/m/f0"));
        assertThat(
                fs.rename(
                    new org.apache.hadoop.fs.Path("/m/f0"), new org.apache.hadoop.fs.Path("/m/g0")))
            .isTrue();
        assertThat(fs.delete(new org.apache.hadoop.fs.Path("/m/f2"), false)).isTrue();
      }
      // Root, /m and two files of two blocks each.
      long files = 4;
      long blocks = 4;
      first.housekeeping().runOnce(); // the leader's census

      // Each namenode's own source and bean names: with other daemons in this JVM (earlier tests'
      // MiniDFSClusters), even the first namenode's may carry a suffix.
      NamenodeMetrics m1 = first.metrics();
      Map<String, JsonNode> one =
          await(
              first,
              b ->
                  attr(b, m1.nameOf("FSNamesystemState"), "FilesTotal") == files
                      // metrics2 sources are cached by JMX for a while: wait for this one too
                      && attr(b, m1.nameOf("FSNamesystem"), "FilesTotal") == files
                      && attr(b, m1.nameOf("FSNamesystem"), "BlocksTotal") == blocks
                      && attr(b, m1.nameOf("NameNodeActivity"), "DeleteFileOps") == 1
                      && attr(b, m1.nameOf("HopsNamenode"), "CreateOps") == 3);
      for (String a : FS_NAMESYSTEM) {
        assertThat(one.get(m1.nameOf("FSNamesystem")).has(a)).as("FSNamesystem." + a).isTrue();
      }
      for (String a : FS_NAMESYSTEM_STATE) {
        assertThat(one.get(m1.nameOf("FSNamesystemState")).has(a))
            .as("FSNamesystemState." + a)
            .isTrue();
      }
      JsonNode state = one.get(m1.nameOf("FSNamesystemState"));
      assertThat(state.get("FSState").asText()).isEqualTo("Operational");
      assertThat(state.get("NumLiveDataNodes").asInt()).isEqualTo(1);
      assertThat(state.get("NumDeadDataNodes").asInt()).isZero();
      assertThat(state.get("NumStaleDataNodes").asInt()).isZero();
      assertThat(state.get("CapacityTotal").asLong()).isPositive();
      assertThat(state.get("CapacityUsed").asLong()).isPositive();
      assertThat(state.get("CapacityRemaining").asLong()).isPositive();
      JsonNode fsn = one.get(m1.nameOf("FSNamesystem"));
      assertThat(fsn.get("UnderReplicatedBlocks").asLong()).isZero();
      assertThat(fsn.get("CorruptBlocks").asLong()).isZero();
      assertThat(fsn.get("MissingBlocks").asLong()).isZero();
      assertThat(fsn.get("tag.HAState").asText()).isEqualTo("active");

      JsonNode info = one.get(m1.nameOf("NameNodeInfo"));
      assertThat(info.get("Version").asText()).startsWith(VersionInfo.getVersion());
      assertThat(info.get("ClusterId").asText())
          .isEqualTo(first.namesystem().blocks().ids().clusterId());
      assertThat(info.get("BlockPoolId").asText())
          .isEqualTo(first.namesystem().blocks().blockPoolId());
      assertThat(info.get("PercentUsed").asDouble()).isPositive();
      assertThat(info.get("Safemode").asText()).isEmpty();
      JsonNode live = new ObjectMapper().readTree(info.get("LiveNodes").asText());
      assertThat(live.size()).isEqualTo(1);
      assertThat(live.elements().next().get("xferaddr").asText())
          .isEqualTo(dns.get(0).getDatanodeId().getXferAddr());
      assertThat(new ObjectMapper().readTree(info.get("DeadNodes").asText()).size()).isZero();

      JsonNode activity = one.get(m1.nameOf("NameNodeActivity"));
      assertThat(activity.get("CreateFileOps").asLong()).isEqualTo(3);
      assertThat(activity.get("FilesCreated").asLong()).isEqualTo(4); // 3 files and /m
      assertThat(activity.get("FilesRenamed").asLong()).isEqualTo(1);
      assertThat(activity.get("DeleteFileOps").asLong()).isEqualTo(1);
      assertThat(activity.get("FilesDeleted").asLong()).isEqualTo(1);
      assertThat(activity.get("GetListingOps").asLong()).isGreaterThanOrEqualTo(1);
      assertThat(activity.get("FileInfoOps").asLong()).isGreaterThanOrEqualTo(1);
      assertThat(activity.get("AddBlockOps").asLong()).isEqualTo(6);

      int port = first.address().getPort();
      assertThat(one)
          .containsKeys("RpcActivityForPort" + port, "RpcDetailedActivityForPort" + port);
      assertThat(one.get("RpcActivityForPort" + port).get("RpcProcessingTimeNumOps").asLong())
          .isPositive();
      assertThat(one.get("RpcDetailedActivityForPort" + port).get("CreateNumOps").asLong())
          .isEqualTo(3);

      JsonNode hops = one.get(m1.nameOf("HopsNamenode"));
      assertThat(hops.get("IsLeader").asInt()).isEqualTo(1);
      assertThat(hops.get("LiveNamenodes").asInt()).isEqualTo(2);
      assertThat(hops.get("HintCacheHits").asLong() + hops.get("HintCacheMisses").asLong())
          .isPositive();
      // The creates registered their owner: the names' cache holds it, bounded in bytes.
      assertThat(hops.get("UserGroupNamesSize").asLong()).isPositive();
      assertThat(hops.get("UserGroupNamesBytes").asLong()).isPositive();
      for (String cache :
          List.of(
              "UserGroupNamesHits",
              "UserGroupNamesMisses",
              "LongNamesHits",
              "LongNamesMisses",
              "LongNamesSize",
              "LongNamesBytes",
              "RecentReceiptsBlocks",
              "RecentReceiptsBytes")) {
        assertThat(hops.has(cache)).as(cache).isTrue();
      }
      assertThat(hops.get("DbAccesses").asLong()).isPositive();
      // The embedded store's group syncs: each covered one commit or more.
      assertThat(hops.get("DbLogSyncs").asLong()).isPositive();
      assertThat(hops.get("DbLogSyncedCommits").asLong())
          .isGreaterThanOrEqualTo(hops.get("DbLogSyncs").asLong());
      assertThat(hops.get("DbLogSyncsDelayed").asLong())
          .isBetween(0L, hops.get("DbLogSyncs").asLong());
      // The embedded store's shape (what each means: Level0CompactionTest).
      for (String shape :
          List.of(
              "DbRocksSortedRuns",
              "DbRocksPendingCompactionBytes",
              "DbRocksUnflushedMemtables",
              "DbRocksTableFileBytes")) {
        assertThat(hops.get(shape)).as(shape).isNotNull();
        assertThat(hops.get(shape).asLong()).as(shape).isNotNegative();
      }
      assertThat(hops.has("TransactionRetriesDeadlock")).isTrue();
      assertThat(hops.has("TransactionRetriesLockWaitTimeout")).isTrue();
      assertThat(hops.get("HousekeepingRounds").asLong()).isPositive();
      assertThat(hops.get("CreateLockPhaseMicros").asLong()).isPositive();
      // Three creates each wrote at least their inode row; their lock phases read rows.
      assertThat(hops.get("CreateDbRowsWritten").asLong()).isGreaterThanOrEqualTo(3);
      assertThat(hops.get("CreateDbRowsRead").asLong()).isPositive();

      // The second namenode, in its own beans (one JVM, one MBean server: its names have a suffix).
      NamenodeMetrics m2 = second.metrics();
      Map<String, JsonNode> two =
          await(
              second,
              b ->
                  attr(b, m2.nameOf("FSNamesystemState"), "FilesTotal") == files
                      && attr(b, m2.nameOf("FSNamesystemState"), "NumLiveDataNodes") == 1
                      // its metrics2 source is cached by JMX for a while: until it shows them too
                      && java.util.Arrays.stream(CLUSTER_TOTALS)
                          .allMatch(
                              a ->
                                  attr(b, m2.nameOf("FSNamesystem"), a)
                                      == attr(one, m1.nameOf("FSNamesystem"), a)));
      for (String a : CLUSTER_TOTALS) {
        assertThat(two.get(m2.nameOf("FSNamesystem")).get(a))
            .as("FSNamesystem." + a + " from both namenodes")
            .isEqualTo(one.get(m1.nameOf("FSNamesystem")).get(a));
      }
      assertThat(two.get(m2.nameOf("NameNodeActivity")).get("CreateFileOps").asLong()).isZero();
      assertThat(two.get(m2.nameOf("HopsNamenode")).get("IsLeader").asInt()).isZero();
      assertThat(two.get(m2.nameOf("NameNodeInfo")).get("ClusterId"))
          .isEqualTo(info.get("ClusterId"));

      // The latency percentiles roll over each second.
      await(
          first, b -> b.get(m1.nameOf("HopsNamenode")).has("CreateLatency1s50thPercentileMicros"));

      checkProm(first, files);
    }
  }

  /** {@code /prom} parsed by the Prometheus project's own Python parser. */
  private static void checkProm(HopsNameNode nn, long files) throws Exception {
    String python = Python.withPrometheusClient();
    assumeTrue(python != null, "python3 is not installed: /prom is not parsed");
    String text = Scrapes.get(nn.httpUri() + "/prom");
    Path out = Path.of("target", "metrics-prom.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, text);
    String script =
        "import sys\n"
            + "from prometheus_client.parser import text_string_to_metric_families\n"
            + "n = 0\n"
            + "for f in text_string_to_metric_families(open(sys.argv[1]).read()):\n"
            + "    for s in f.samples:\n"
            + "        n += 1\n"
            + "        print(s.name, s.value)\n"
            + "print('SAMPLES', n)\n";
    Process p =
        new ProcessBuilder(python, "-c", script, out.toAbsolutePath().toString())
            .redirectErrorStream(true)
            .start();
    String parsed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(parsed).isZero();
    // Both namenodes' sources, told apart by their port label; this one created three files.
    assertThat(parsed).containsPattern("(?m)^fs_namesystem_files_total " + files + "(\\.0)?$");
    assertThat(parsed).containsPattern("(?m)^namenode_create_file_ops_total 3(\\.0)?$");
    assertThat(parsed).containsPattern("(?m)^hops_namenode_create_ops_total 3(\\.0)?$");
    assertThat(parsed).containsPattern("(?m)^rpc_rpc_processing_time_num_ops_total [1-9]");
    assertThat(text).contains("port=\"" + nn.address().getPort() + "\"");
    dashboardReadsOnlySeriesThatExist(text);
  }

  /** Every series docs/grafana-hops.json queries is in {@code /prom}. */
  private static void dashboardReadsOnlySeriesThatExist(String prom) throws IOException {
    JsonNode dashboard = new ObjectMapper().readTree(new File("../docs/grafana-hops.json"));
    java.util.regex.Pattern series = java.util.regex.Pattern.compile("([a-z][a-z0-9_]*)\\{");
    int checked = 0;
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.get("targets")) {
        java.util.regex.Matcher m = series.matcher(target.get("expr").asText());
        while (m.find()) {
          // The dashboard shows the default 60 s percentile window; this test runs a 1 s one.
          String name = m.group(1).replace("latency60s", "latency1s");
          assertThat(prom).as(panel.get("title").asText()).contains("# TYPE " + name + " ");
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(20);
  }

  private static long attr(Map<String, JsonNode> beans, String bean, String attribute) {
    JsonNode b = beans.get(bean);
    return b == null || !b.has(attribute) ? Long.MIN_VALUE : b.get(attribute).asLong();
  }

  private interface Check {
    boolean ok(Map<String, JsonNode> beans);
  }

  /**
   * Scrapes until {@code check} holds: metrics2 refreshes a source's JMX view once a period (10 s).
   */
  private static Map<String, JsonNode> await(HopsNameNode nn, Check check) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      Map<String, JsonNode> beans = Scrapes.jmx(nn.httpUri());
      if (check.ok(beans)) {
        return beans;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "/jmx never showed the expected values: "
                + beans.keySet()
                + " "
                + beans.get("FSNamesystemState")
                + " "
                + beans.get("NameNodeActivity")
                + " "
                + beans.get("HopsNamenode"));
      }
      Thread.sleep(200);
    }
  }

  /** A Python 3 with {@code prometheus_client}: .ci/run's venv, else one made in target/. */
  static final class Python {
    static String withPrometheusClient() throws Exception {
      for (String candidate :
          List.of("../target/py-venv/bin/python3", "target/py-venv/bin/python3")) {
        if (new File(candidate).canExecute() && hasClient(candidate)) {
          return candidate;
        }
      }
      if (!run("python3", "--version")) {
        return null;
      }
      if (hasClient("python3")) {
        return "python3";
      }
      String venv = "target/py-venv";
      if (!run("python3", "-m", "venv", venv)
          || !run(venv + "/bin/pip", "install", "-q", "prometheus_client")) {
        throw new AssertionError(
            "python3 has no prometheus_client and it could not be installed into "
                + venv
                + " (pip install prometheus_client; .ci/run does it)");
      }
      return venv + "/bin/python3";
    }

    private static boolean hasClient(String python) throws Exception {
      return run(python, "-c", "import prometheus_client");
    }

    private static boolean run(String... command) throws Exception {
      try {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
