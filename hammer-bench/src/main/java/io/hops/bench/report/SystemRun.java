package io.hops.bench.report;

import io.hops.bench.client.SetupResult;
import io.hops.bench.workload.Op;
import java.util.List;
import java.util.Map;

/**
 * Everything measured against one system in a run.
 *
 * @param problems what kept the run from being complete (a system that did not start, ...)
 */
public record SystemRun(
    String system,
    String uri,
    Map<String, String> facts,
    SetupResult setup,
    List<MeasuredPhase> phases,
    List<String> problems) {

  /** The phase of a given name, or null. */
  public MeasuredPhase phase(String name) {
    return phases.stream().filter(p -> p.phase().name().equals(name)).findFirst().orElse(null);
  }

  /** The phase of a given name in every round, in order. */
  public List<MeasuredPhase> rounds(String name) {
    return phases.stream()
        .filter(p -> BenchReport.firstRoundName(p.phase().name()).equals(name))
        .toList();
  }

  /** The RAW phases of an operation (its own runs or the sweeps after a mix), in order. */
  public List<MeasuredPhase> rawRounds(Op op) {
    return phases.stream()
        .filter(p -> p.phase().workload().isRaw() && p.phase().workload().rawOp() == op)
        .toList();
  }

  /** The RAW phase of an operation (its own run or the sweep after a mix), or null. */
  public MeasuredPhase rawPhase(Op op) {
    return phases.stream()
        .filter(p -> p.phase().workload().isRaw() && p.phase().workload().rawOp() == op)
        .findFirst()
        .orElse(null);
  }
}
