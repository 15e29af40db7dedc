package io.hops.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.hops.bench.client.OpStats;
import io.hops.bench.client.Phase;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ratio table of a run of several rounds: each system's median, the median of the rounds' own
 * ratios, and each round's ratio in order; one round is the plain pair it always was.
 */
class ComparisonRoundsTest {
  private static final Op RENAME = Op.RENAME_FILE;
  private static final Op MKDIRS = Op.MKDIRS;

  @Test
  void threeRoundsGiveMediansAndTheRoundsRatiosInOrder() {
    // ops/s in the rounds: a 90, 140, 100; b 100, 100, 250. Rounds' ratios 0.9, 1.4, 0.4: their
    // median (0.9) is neither the first round's alone nor the ratio of the medians (100/100).
    SystemRun a = run("hops", rounds(RENAME, new int[] {90, 140, 100}, new int[] {60, 70, 80}));
    SystemRun b = run("hdfs", rounds(RENAME, new int[] {100, 100, 250}, new int[] {50, 50, 40}));
    BenchReport report = report(a, b);

    List<Comparison.Row> rows = Comparison.rows(report, a, b);

    assertThat(rows).hasSize(1);
    Comparison.Metric ops = rows.get(0).opsPerSec();
    assertThat(ops.a()).isCloseTo(100.0, within(1e-9));
    assertThat(ops.b()).isCloseTo(100.0, within(1e-9));
    assertThat(ops.ratio()).isCloseTo(0.9, within(1e-9));
    assertThat(ops.roundRatios())
        .satisfiesExactly(
            r -> assertThat(r).isCloseTo(0.9, within(1e-9)),
            r -> assertThat(r).isCloseTo(1.4, within(1e-9)),
            r -> assertThat(r).isCloseTo(0.4, within(1e-9)));
    // CPU ms per 1,000 ops: a 60/90*1000.. per round; ratio per round of a's over b's.
    Comparison.Metric cpu = rows.get(0).cpuPer1000Ops();
    assertThat(cpu.roundRatios()).hasSize(3);
    assertThat(cpu.ratio()).isEqualTo(Comparison.median(cpu.roundRatios()));
    assertThat(Comparison.rounds(a, b)).isEqualTo(3);

    String table = Tables.comparison(report, a, b);
    assertThat(table)
        .contains("(3 rounds: each value is its system's median")
        .containsPattern("rename_file +\\| 0\\.90 1\\.40 0\\.40 +\\| [0-9.]+ [0-9.]+ [0-9.]+");
    assertThat(table.lines().filter(l -> l.startsWith("rename_file"))).hasSize(2);

    Map<String, Object> summary = Summary.comparison(report);
    @SuppressWarnings("unchecked")
    Map<String, Object> row = ((List<Map<String, Object>>) summary.get("rows")).get(0);
    @SuppressWarnings("unchecked")
    Map<String, Object> opsJson = (Map<String, Object>) row.get("opsPerSec");
    assertThat((Double) opsJson.get("ratio")).isCloseTo(0.9, within(1e-9));
    assertThat((List<?>) opsJson.get("roundRatios")).hasSize(3);
  }

  @Test
  void oneRoundIsThePlainPair() {
    List<MeasuredPhase> pa = new ArrayList<>(rounds(RENAME, new int[] {90}, new int[] {60}));
    pa.addAll(rounds(MKDIRS, new int[] {300}, new int[] {30}));
    List<MeasuredPhase> pb = new ArrayList<>(rounds(RENAME, new int[] {100}, new int[] {50}));
    pb.addAll(rounds(MKDIRS, new int[] {200}, new int[] {30}));
    SystemRun a = run("hops", pa);
    SystemRun b = run("hdfs", pb);
    BenchReport report = report(a, b);

    List<Comparison.Row> rows = Comparison.rows(report, a, b);

    assertThat(rows).extracting(Comparison.Row::label).containsExactly("rename_file", "mkdirs");
    assertThat(rows.get(0).opsPerSec().ratio()).isCloseTo(0.9, within(1e-9));
    assertThat(rows.get(1).opsPerSec().ratio()).isCloseTo(1.5, within(1e-9));
    assertThat(rows.get(0).opsPerSec().roundRatios()).isEmpty();
    assertThat(Comparison.rounds(a, b)).isEqualTo(1);
    assertThat(Tables.comparison(report, a, b)).doesNotContain("rounds:");
  }

  @Test
  void aRoundsNameCarriesItsRoundAndLeadsBackToTheFirst() {
    assertThat(BenchReport.inRound("raw:mkdirs", 1)).isEqualTo("raw:mkdirs");
    assertThat(BenchReport.inRound("raw:mkdirs", 3)).isEqualTo("raw:mkdirs#3");
    assertThat(BenchReport.firstRoundName("raw:mkdirs#3")).isEqualTo("raw:mkdirs");
    assertThat(BenchReport.roundOf("raw:mkdirs#3")).isEqualTo(3);
    assertThat(BenchReport.roundOf("raw:mkdirs")).isEqualTo(1);
    assertThat(BenchReport.firstRoundName(BenchReport.MIX_PHASE)).isEqualTo(BenchReport.MIX_PHASE);
  }

  /** One RAW phase of {@code op} per round: {@code ops[i]} operations in 1 s, CPU in ms. */
  private static List<MeasuredPhase> rounds(Op op, int[] ops, int[] cpuMillis) {
    List<MeasuredPhase> phases = new ArrayList<>();
    for (int r = 0; r < ops.length; r++) {
      OpStats s = new OpStats();
      for (int i = 0; i < ops[r]; i++) {
        s.success(100);
      }
      Phase phase =
          new Phase(BenchReport.inRound("raw:" + op.key(), r + 1), Workload.raw(op), 0, 1000);
      PhaseResult result = new PhaseResult(Map.of(op, s), 1000, 0, 1, 0, List.of(), null);
      phases.add(new MeasuredPhase(phase, result, (long) cpuMillis[r]));
    }
    return phases;
  }

  private static SystemRun run(String system, List<MeasuredPhase> phases) {
    return new SystemRun(system, "hdfs://x", Map.of(), null, phases, List.of());
  }

  private static BenchReport report(SystemRun a, SystemRun b) {
    return new BenchReport("now", "raw", null, Map.of(), Map.of(), List.of(a, b));
  }
}
