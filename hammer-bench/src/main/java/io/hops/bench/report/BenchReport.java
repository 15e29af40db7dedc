package io.hops.bench.report;

import io.hops.bench.workload.Mix;
import java.util.List;
import java.util.Map;

/**
 * A whole run: its settings, the machine, and what each system measured.
 *
 * @param mix the MIXED workload, or null for RAW runs
 */
public record BenchReport(
    String started,
    String workload,
    Mix mix,
    Map<String, Object> settings,
    Map<String, Object> machine,
    List<SystemRun> systems) {

  /** The name of a MIXED run's main phase; the sweep's phases are named {@code raw:OP}. */
  public static final String MIX_PHASE = "mix";
}
