package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.OpStats;
import io.hops.bench.client.Phase;
import io.hops.bench.cluster.ExternalTarget;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.report.BenchReport;
import io.hops.bench.report.CsvReport;
import io.hops.bench.report.Json;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.Summary;
import io.hops.bench.report.SystemRun;
import io.hops.bench.report.Tables;
import io.hops.bench.report.ThroughputChart;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark against an in-process Apache HDFS NameNode (MiniDFSCluster, no datanode). */
class ApacheHdfsRunTest {
  /** Everything but append, which needs a datanode. */
  static final List<Op> RAW = List.copyOf(EnumSet.complementOf(EnumSet.of(Op.APPEND_FILE)));

  private static MiniDFSCluster hdfs;

  @TempDir Path dir;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration();
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-bench-" + System.nanoTime()).getAbsolutePath());
    conf.setInt("dfs.namenode.handler.count", 8);
    hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    hdfs.waitActive();
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  static ExternalTarget target() {
    return new ExternalTarget(
        "hdfs", hdfs.getURI().toString(), Map.of("dfs.replication", "1"), List.of());
  }

  @Test
  void everyOperationRunsRawAndInTheSpotifyMixWithoutFailures() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    BenchRunner runner =
        new BenchRunner(
            TestPlans.plan(
                TestPlans.client(3, null, 5000), 0, TestPlans.spotifyThenRaw(RAW, 300), dir),
            new PrintStream(printed, true, StandardCharsets.UTF_8));

    SystemRun run = runner.run(TargetLauncher.of(target()));

    assertThat(run.problems()).isEmpty();
    assertThat(run.setup().files()).isEqualTo(3 * 28);
    assertThat(run.setup().dirs()).isEqualTo(3 * 7);
    assertThat(run.setup().failures().failures()).isZero();
    assertThat(run.phases()).hasSize(1 + RAW.size());
    for (MeasuredPhase p : run.phases()) {
      assertThat(p.result().failures()).as("%s failures: %s", p.phase().name(), errors(p)).isZero();
      assertThat(p.result().successes()).as(p.phase().name()).isPositive();
      assertThat(p.result().threads()).isEqualTo(3);
      assertThat(p.latencyMillis(null, 99)).isPositive();
    }
    MeasuredPhase mix = run.phase("mix");
    assertThat(mix.result().ops()).containsKeys(Op.READ_FILE, Op.STAT_FILE, Op.LS_DIR);
    assertThat(mix.opsPerSec(Op.READ_FILE)).isGreaterThan(mix.opsPerSec(Op.STAT_DIR));
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("namespace ready")
        .contains("MIXED spotify")
        .contains("RAW delete_file");

    BenchReport report =
        new BenchReport("now", "spotify", Mix.load("spotify"), Map.of(), Map.of(), List.of(run));
    String json = Json.write(Summary.of(report));
    assertThat(json).contains("\"read_file\"").contains("\"p99.9\"").contains("\"opsPerSec\"");
    assertThat(CsvReport.of(report).lines()).hasSizeGreaterThan(RAW.size() * 2);
    Path png = dir.resolve("chart.png");
    ThroughputChart.write(report, png);
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1400);
    assertThat(image.getHeight()).isEqualTo(900);
  }

  @Test
  void clientProcessesRunInLockstepAndTheirHistogramsAreMerged() throws Exception {
    List<Phase> phases =
        List.of(
            new Phase("mix", Workload.mixed(Mix.load("spotify")), 300, 1000),
            new Phase("raw:stat_file", Workload.raw(Op.STAT_FILE), 0, 500));
    BenchRunner runner =
        new BenchRunner(
            TestPlans.plan(TestPlans.client(2, null, 5000), 2, phases, dir),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    SystemRun run = runner.run(TargetLauncher.of(target()));

    assertThat(run.problems()).isEmpty();
    assertThat(run.setup().threadsReady()).isEqualTo(4);
    assertThat(run.setup().files()).isEqualTo(4 * 28);
    for (MeasuredPhase p : run.phases()) {
      assertThat(p.result().problems()).isEmpty();
      assertThat(p.result().threads()).isEqualTo(4);
      assertThat(p.result().failures()).as(p.phase().name() + errors(p)).isZero();
      OpStats all = p.result().total();
      assertThat(all.successes()).isPositive();
      assertThat(all.latencyMicros().getTotalCount()).isEqualTo(all.successes());
    }
  }

  @Test
  void aUserWithoutPermissionGetsFailuresNotACrash() throws Exception {
    try (FileSystem admin = FileSystem.newInstance(hdfs.getURI(), hdfs.getConfiguration(0))) {
      org.apache.hadoop.fs.Path locked = new org.apache.hadoop.fs.Path("/locked");
      admin.mkdirs(locked);
      admin.setPermission(locked, new FsPermission((short) 0700));
    }
    ClientSpec mallory =
        new ClientSpec(
            "", Map.of(), 2, 0, "/locked/run", TestPlans.SMALL, 5, "mallory", 5000, 60_000);
    List<Phase> phases =
        List.of(
            new Phase("raw:stat_dir", Workload.raw(Op.STAT_DIR), 0, 300),
            new Phase("raw:create_file", Workload.raw(Op.CREATE_FILE), 0, 300),
            new Phase("mix", Workload.mixed(Mix.load("spotify")), 0, 300));
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    BenchRunner runner =
        new BenchRunner(
            TestPlans.plan(mallory, 0, phases, dir),
            new PrintStream(printed, true, StandardCharsets.UTF_8));

    SystemRun run = runner.run(TargetLauncher.of(target()));

    assertThat(run.setup().failures().failures()).isPositive();
    assertThat(run.setup().failures().errors().keySet())
        .anySatisfy(m -> assertThat(m).contains("AccessControlException"));
    assertThat(run.phases()).hasSize(3);
    MeasuredPhase stat = run.phases().get(0);
    assertThat(stat.result().successes()).isZero();
    assertThat(stat.result().failures()).isPositive();
    assertThat(stat.result().ops().get(Op.STAT_DIR).errors().keySet())
        .allSatisfy(m -> assertThat(m).contains("Permission denied"));
    assertThat(run.phases().get(1).result().failures()).isPositive();
    assertThat(run.phases().get(2).result().successes()).isZero();
    assertThat(Tables.phase("hdfs", stat)).contains("stat_dir failed");
  }

  static String errors(MeasuredPhase p) {
    StringBuilder b = new StringBuilder();
    p.result()
        .ops()
        .forEach(
            (op, s) ->
                s.errors().forEach((m, n) -> b.append(op).append(": ").append(m).append('\n')));
    return b.toString();
  }
}
