package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.Phase;
import io.hops.bench.cluster.ExternalTarget;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.namespace.BigDirectory;
import io.hops.bench.namespace.NamespaceLoader;
import io.hops.bench.namespace.NamespaceSpec;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.SystemRun;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import io.hops.common.HopsConfig;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark against an in-process hops namenode over an in-memory embedded store. */
class HopsRunTest {
  private static HopsNameNode nn;

  @TempDir Path dir;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(HopsConfig.EMBEDDED_DIR, "mem:hammer-bench-" + System.nanoTime());
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt("dfs.namenode.handler.count", 8);
    nn = HopsNameNode.start(conf);
  }

  @AfterAll
  static void stop() {
    if (nn != null) {
      nn.close();
    }
  }

  @Test
  void everyOperationRunsRawAndInTheSpotifyMixWithoutFailures() throws Exception {
    ExternalTarget hops =
        new ExternalTarget("hops", nn.uri(), Map.of("dfs.replication", "1"), List.of());
    BenchRunner runner =
        new BenchRunner(
            TestPlans.plan(
                TestPlans.client(3, null, 5000),
                0,
                TestPlans.spotifyThenRaw(ApacheHdfsRunTest.RAW, 300),
                dir),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    SystemRun run = runner.run(TargetLauncher.of(hops));

    assertThat(run.problems()).isEmpty();
    assertThat(run.setup().failures().errors()).isEmpty();
    assertThat(run.setup().files()).isEqualTo(3 * 28);
    for (MeasuredPhase p : run.phases()) {
      assertThat(p.result().failures())
          .as("%s failures: %s", p.phase().name(), ApacheHdfsRunTest.errors(p))
          .isZero();
      assertThat(p.result().successes()).as(p.phase().name()).isPositive();
    }
  }

  /**
   * A thread left without files (here none were set up; in a run, by a delete phase before a stat
   * phase) creates more before an operation that needs one, instead of failing every call.
   */
  @Test
  void operationsOnFilesRunWhenTheThreadHasNoneLeft() throws Exception {
    ExternalTarget hops =
        new ExternalTarget("hops", nn.uri(), Map.of("dfs.replication", "1"), List.of());
    NamespaceSpec noFiles = new NamespaceSpec(7, 2, 0, 34, 8, 7, 0);
    List<Op> raw = List.of(Op.STAT_FILE, Op.READ_FILE, Op.RENAME_FILE);
    List<Phase> phases = new ArrayList<>();
    for (Op op : raw) {
      phases.add(new Phase("raw:" + op.key(), Workload.raw(op), 0, 300));
    }
    BenchRunner runner =
        new BenchRunner(
            TestPlans.plan(TestPlans.client(2, null, 5000, noFiles), 0, phases, dir),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    SystemRun run = runner.run(TargetLauncher.of(hops));

    assertThat(run.problems()).isEmpty();
    assertThat(run.setup().files()).isZero();
    for (MeasuredPhase p : run.phases()) {
      assertThat(p.result().failures())
          .as("%s failures: %s", p.phase().name(), ApacheHdfsRunTest.errors(p))
          .isZero();
      assertThat(p.result().successes()).as(p.phase().name()).isPositive();
    }
  }

  /**
   * The hot-directory mix (issue 59): every thread creates, stats and deletes files in the one
   * directory they share; their own trees keep exactly the files the setup made.
   */
  @Test
  void theHotDirectoryMixWorksInOneDirectoryEveryThreadShares() throws Exception {
    ExternalTarget hops =
        new ExternalTarget("hops", nn.uri(), Map.of("dfs.replication", "1"), List.of());
    ClientSpec spec = TestPlans.client(3, null, 5000);
    Phase phase = new Phase("mix", Workload.mixed(Mix.load("hot-dir")), 0, 1_500);
    BenchRunner runner =
        new BenchRunner(
            TestPlans.plan(spec, 0, List.of(phase), dir),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    SystemRun run = runner.run(TargetLauncher.of(hops));

    assertThat(run.problems()).isEmpty();
    MeasuredPhase p = run.phases().get(0);
    assertThat(p.result().failures()).as("failures: %s", ApacheHdfsRunTest.errors(p)).isZero();
    for (Op op : List.of(Op.CREATE_FILE, Op.STAT_FILE, Op.DELETE_FILE)) {
      assertThat(p.result().ops().get(op).successes()).as(op.key()).isPositive();
    }
    assertThat(p.result().ops().keySet())
        .containsOnly(Op.CREATE_FILE, Op.STAT_FILE, Op.DELETE_FILE);
    try (FileSystem fs =
        FileSystem.newInstance(java.net.URI.create(nn.uri()), new Configuration(false))) {
      org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(spec.baseDir());
      org.apache.hadoop.fs.Path hot = new org.apache.hadoop.fs.Path(base, Mix.SHARED_DIRECTORY);
      long inHot = fs.getContentSummary(hot).getFileCount();
      long all = fs.getContentSummary(base).getFileCount();
      assertThat(inHot).as("files left in the shared directory").isPositive();
      assertThat(all - inHot).as("files in the threads' own trees").isEqualTo(run.setup().files());
    }
  }

  /**
   * The big-directory mix (issue 59): a directory written straight into the store, then every
   * operation of the mix in it, each thread on the files it was dealt and those it made, without a
   * failure; the directory holds what the threads believe it holds.
   */
  @Test
  void theBigDirectoryMixWorksInADirectoryWrittenStraightIntoTheStore() throws Exception {
    int made = 600;
    new NamespaceLoader(nn.namesystem().storage(), NamespaceSpec.SPOTIFY, new Configuration(false))
        .loadFlat(BigDirectory.PATH, made, BigDirectory::name);
    ExternalTarget hops =
        new ExternalTarget("hops", nn.uri(), Map.of("dfs.replication", "1"), List.of());
    ClientSpec spec = TestPlans.client(3, null, 5000);
    Mix mix =
        Mix.load("big-dir")
            .with(Mix.BIG_DIRECTORY_FILES, String.valueOf(made))
            .with(Mix.BIG_DIRECTORY_THREADS, "3");
    Phase phase = new Phase("mix", Workload.mixed(mix), 0, 1_500);
    BenchRunner runner =
        new BenchRunner(
            TestPlans.plan(spec, 0, List.of(phase), dir),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    SystemRun run = runner.run(TargetLauncher.of(hops));

    assertThat(run.problems()).isEmpty();
    MeasuredPhase p = run.phases().get(0);
    assertThat(p.result().failures()).as("failures: %s", ApacheHdfsRunTest.errors(p)).isZero();
    Map<Op, io.hops.bench.client.OpStats> ops = p.result().ops();
    assertThat(ops.keySet())
        .containsOnly(Op.CREATE_FILE, Op.STAT_FILE, Op.LS_DIR, Op.RENAME_FILE, Op.DELETE_FILE);
    ops.forEach((op, stats) -> assertThat(stats.successes()).as(op.key()).isPositive());
    try (FileSystem fs =
        FileSystem.newInstance(java.net.URI.create(nn.uri()), new Configuration(false))) {
      long inBig = fs.getContentSummary(BigDirectory.PATH).getFileCount();
      long expected =
          made
              + ops.get(Op.CREATE_FILE).successes()
              - ops.get(Op.DELETE_FILE).successes()
              - (fs.getContentSummary(new org.apache.hadoop.fs.Path(spec.baseDir())).getFileCount()
                  - run.setup().files());
      assertThat(inBig).as("files in the big directory").isEqualTo(expected);
    }
  }
}
