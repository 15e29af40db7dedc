package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.bench.client.Phase;
import io.hops.bench.cluster.ExternalTarget;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.namespace.NamespaceSpec;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.SystemRun;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import io.hops.common.HopsConfig;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
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
}
