package io.hops.bench.client;

import io.hops.bench.workload.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * What the clients measured in one phase, merged over threads and processes.
 *
 * @param measuredMillis the measured window (the longest of the processes)
 * @param pausedMillis time threads spent outside the workload inside the window (refilling the
 *     files a delete-only run uses up), summed over threads
 * @param threads threads that took part
 * @param stuckThreads threads still inside an operation when the phase's grace period ran out; each
 *     such operation is counted as a failure and the thread is left out of later phases
 * @param problems what went wrong outside single operations (a client process that died, ...)
 * @param timeline when operations completed: the longest gap and the completions of each second
 */
public record PhaseResult(
    Map<Op, OpStats> ops,
    long measuredMillis,
    long pausedMillis,
    int threads,
    int stuckThreads,
    List<String> problems,
    Timeline timeline) {

  /**
   * When the operations of the window completed.
   *
   * @param longestGapMillis the longest time without a completed operation, -1 if unknown. Exact
   *     for one client session; merged over client processes it is the shortest of theirs, an upper
   *     bound (a gap of all processes lies inside a gap of each)
   * @param longestGapAtMillis where that gap began, in milliseconds into the window
   * @param perSecond successful operations in each second of the window
   * @param sessions the client sessions merged into this
   */
  public record Timeline(
      long longestGapMillis, long longestGapAtMillis, List<Long> perSecond, int sessions) {
    public static final Timeline NONE = new Timeline(-1, -1, List.of(), 0);

    public Timeline {
      perSecond = List.copyOf(perSecond);
    }

    public Timeline(long longestGapMillis, long longestGapAtMillis, List<Long> perSecond) {
      this(longestGapMillis, longestGapAtMillis, perSecond, 1);
    }

    Timeline merge(Timeline o) {
      if (sessions == 0) {
        return o;
      }
      if (o.sessions == 0) {
        return this;
      }
      List<Long> sum = new ArrayList<>();
      for (int i = 0; i < Math.max(perSecond.size(), o.perSecond.size()); i++) {
        sum.add(
            (i < perSecond.size() ? perSecond.get(i) : 0)
                + (i < o.perSecond.size() ? o.perSecond.get(i) : 0));
      }
      Timeline shorter = longestGapMillis <= o.longestGapMillis ? this : o;
      return new Timeline(
          shorter.longestGapMillis, shorter.longestGapAtMillis, sum, sessions + o.sessions);
    }

    /** The slowest second's completions over the mean second's, 1 when steady; null if unknown. */
    public Double dip() {
      double mean = perSecond.stream().mapToLong(Long::longValue).average().orElse(0);
      return mean == 0
          ? null
          : perSecond.stream().mapToLong(Long::longValue).min().orElse(0) / mean;
    }
  }

  public PhaseResult {
    Map<Op, OpStats> copy = new EnumMap<>(Op.class);
    copy.putAll(ops);
    ops = Collections.unmodifiableMap(copy);
    problems = List.copyOf(problems);
    timeline = timeline == null ? Timeline.NONE : timeline;
  }

  public static PhaseResult empty() {
    return new PhaseResult(new EnumMap<>(Op.class), 0, 0, 0, 0, List.of(), Timeline.NONE);
  }

  /** The seconds throughput is computed over: the window less the threads' average pause. */
  public double effectiveSeconds() {
    double paused = threads == 0 ? 0 : (double) pausedMillis / threads;
    return Math.max(1e-3, (measuredMillis - paused) / 1000.0);
  }

  /** All operations together (the latency of the mix). */
  public OpStats total() {
    OpStats all = new OpStats();
    ops.values().forEach(all::add);
    return all;
  }

  public long successes() {
    return ops.values().stream().mapToLong(OpStats::successes).sum();
  }

  public long failures() {
    return ops.values().stream().mapToLong(OpStats::failures).sum();
  }

  public PhaseResult merge(PhaseResult other) {
    Map<Op, OpStats> merged = new EnumMap<>(Op.class);
    for (Map<Op, OpStats> m : List.of(ops, other.ops)) {
      m.forEach((op, s) -> merged.computeIfAbsent(op, o -> new OpStats()).add(s));
    }
    return new PhaseResult(
        merged,
        Math.max(measuredMillis, other.measuredMillis),
        pausedMillis + other.pausedMillis,
        threads + other.threads,
        stuckThreads + other.stuckThreads,
        Stream.concat(problems.stream(), other.problems.stream()).toList(),
        timeline.merge(other.timeline));
  }

  public PhaseResult withProblem(String problem) {
    return merge(new PhaseResult(Map.of(), 0, 0, 0, 0, List.of(problem), Timeline.NONE));
  }

  public Properties encode() {
    Properties p = new Properties();
    p.setProperty("measured.ms", String.valueOf(measuredMillis));
    p.setProperty("paused.ms", String.valueOf(pausedMillis));
    p.setProperty("threads", String.valueOf(threads));
    p.setProperty("stuck.threads", String.valueOf(stuckThreads));
    ops.forEach((op, s) -> s.encode(p, "op." + op.key() + "."));
    for (int i = 0; i < problems.size(); i++) {
      p.setProperty("problem." + i, problems.get(i));
    }
    if (timeline.sessions() > 0) {
      p.setProperty("gap.ms", String.valueOf(timeline.longestGapMillis()));
      p.setProperty("gap.at.ms", String.valueOf(timeline.longestGapAtMillis()));
      p.setProperty("sessions", String.valueOf(timeline.sessions()));
      p.setProperty(
          "per.second",
          String.join(",", timeline.perSecond().stream().map(String::valueOf).toList()));
    }
    return p;
  }

  public static PhaseResult decode(Properties p) {
    Map<Op, OpStats> ops = new EnumMap<>(Op.class);
    for (Op op : Op.values()) {
      if (p.containsKey("op." + op.key() + ".successes")) {
        ops.put(op, OpStats.decode(p, "op." + op.key() + "."));
      }
    }
    List<String> problems = new ArrayList<>();
    for (int i = 0; p.containsKey("problem." + i); i++) {
      problems.add(p.getProperty("problem." + i));
    }
    return new PhaseResult(
        ops,
        Long.parseLong(p.getProperty("measured.ms", "0")),
        Long.parseLong(p.getProperty("paused.ms", "0")),
        Integer.parseInt(p.getProperty("threads", "0")),
        Integer.parseInt(p.getProperty("stuck.threads", "0")),
        problems,
        p.containsKey("gap.ms")
            ? new Timeline(
                Long.parseLong(p.getProperty("gap.ms")),
                Long.parseLong(p.getProperty("gap.at.ms")),
                p.getProperty("per.second").isEmpty()
                    ? List.of()
                    : Arrays.stream(p.getProperty("per.second").split(","))
                        .map(Long::valueOf)
                        .toList(),
                Integer.parseInt(p.getProperty("sessions")))
            : Timeline.NONE);
  }
}
