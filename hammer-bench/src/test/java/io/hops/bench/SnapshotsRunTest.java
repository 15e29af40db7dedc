package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.bench.client.Phase;
import io.hops.bench.cluster.ExternalTarget;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.SystemRun;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Workload;
import io.hops.common.HopsConfig;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --snapshots N}: the run's base directory is made snapshottable on both systems and N
 * snapshots of it are taken in each measured window, while the mix runs without failures.
 */
class SnapshotsRunTest {
  private static HopsNameNode hops;
  private static MiniDFSCluster hdfs;

  @TempDir java.nio.file.Path dir;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(HopsConfig.EMBEDDED_DIR, "mem:hammer-bench-snapshots-" + System.nanoTime());
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt("dfs.namenode.handler.count", 8);
    conf.setBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, true);
    hops = HopsNameNode.start(conf);
    Configuration hconf = new Configuration();
    hconf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-snapshots-" + System.nanoTime()).getAbsolutePath());
    hdfs = new MiniDFSCluster.Builder(hconf).numDataNodes(0).build();
    hdfs.waitActive();
  }

  @AfterAll
  static void stop() {
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  @Test
  void eachMeasuredWindowTakesItsSnapshotsOnBothSystems() throws Exception {
    var client = TestPlans.client(3, null, 5000);
    List<Phase> phases =
        List.of(
            new Phase("mix", Workload.mixed(Mix.load("spotify")), 200, 900),
            new Phase("mix#2", Workload.mixed(Mix.load("spotify")), 200, 900));
    BenchRunner.Plan plan = new BenchRunner.Plan(client, 0, List.of(), Map.of(), phases, dir, 3);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    List<ExternalTarget> targets =
        List.of(
            new ExternalTarget("hops", hops.uri(), Map.of("dfs.replication", "1"), List.of()),
            new ExternalTarget(
                "hdfs", hdfs.getURI().toString(), Map.of("dfs.replication", "1"), List.of()));

    List<SystemRun> runs =
        new BenchRunner(plan, new PrintStream(printed, true, StandardCharsets.UTF_8))
            .runInterleaved(targets.stream().map(TargetLauncher::of).toList());

    for (int i = 0; i < runs.size(); i++) {
      SystemRun run = runs.get(i);
      assertThat(run.problems()).as(run.system()).isEmpty();
      for (MeasuredPhase p : run.phases()) {
        assertThat(p.result().failures())
            .as("%s %s: %s", run.system(), p.phase().name(), ApacheHdfsRunTest.errors(p))
            .isZero();
      }
      try (FileSystem fs =
          FileSystem.newInstance(URI.create(targets.get(i).uri()), new Configuration())) {
        Path base = new Path(client.baseDir());
        FileStatus[] snapshots = fs.listStatus(new Path(base, ".snapshot"));
        assertThat(Arrays.stream(snapshots).map(s -> s.getPath().getName()))
            .as(run.system())
            .containsExactlyInAnyOrder("p1-1", "p1-2", "p1-3", "p2-1", "p2-2", "p2-3");
        // Each snapshot holds the namespace the clients built.
        assertThat(fs.listStatus(new Path(base, ".snapshot/p1-1")))
            .as(run.system())
            .extracting(s -> s.getPath().getName())
            .containsExactlyInAnyOrderElementsOf(
                Arrays.stream(fs.listStatus(base)).map(s -> s.getPath().getName()).toList());
      }
    }
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("3 snapshot(s) of " + client.baseDir() + " taken in the measured window");
  }
}
