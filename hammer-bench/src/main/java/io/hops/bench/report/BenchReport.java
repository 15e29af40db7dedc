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

  /**
   * The name of phase {@code name} in round {@code round} (from 1): {@code name#round} after the
   * first.
   */
  public static String inRound(String name, int round) {
    return round == 1 ? name : name + ROUND_MARK + round;
  }

  /** The name of a phase in its first round: its name without the round. */
  public static String firstRoundName(String name) {
    int mark = name.lastIndexOf(ROUND_MARK);
    return mark < 0 ? name : name.substring(0, mark);
  }

  /** The round (from 1) of a phase by its name. */
  public static int roundOf(String name) {
    int mark = name.lastIndexOf(ROUND_MARK);
    return mark < 0 ? 1 : Integer.parseInt(name.substring(mark + 1));
  }

  private static final String ROUND_MARK = "#";
}
