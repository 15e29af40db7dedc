package io.hops.bench.report;

import io.hops.bench.workload.Op;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The side-by-side view of two systems ({@code a} over {@code b}, e.g. hops over HDFS): per
 * operation and for the mix, throughput, p99 latency and namenode CPU per operation.
 *
 * <p>In a MIXED run, an operation's throughput and p99 are its own within the mix; its CPU per
 * operation comes from the RAW sweep that follows the mix (a namenode's CPU time cannot be split
 * between the operations of a mix), and so does its RAW throughput.
 *
 * <p>A run of several rounds ({@code --rounds}) measured each phase once per round on each system.
 * Each value is then that system's median over the rounds, and each ratio the median of the rounds'
 * own ratios ({@code a} and {@code b} of one round were measured minutes apart, the rounds further
 * apart): a slow stretch of a shared machine moves one round, not the median.
 */
public final class Comparison {
  private Comparison() {}

  /**
   * Two measurements of one metric and their ratio {@code a / b}; over several rounds, each
   * system's median, the median of the rounds' ratios, and those ratios in round order.
   */
  public record Metric(Double a, Double b, Double ratio, List<Double> roundRatios) {
    public Metric {
      roundRatios = Collections.unmodifiableList(new ArrayList<>(roundRatios)); // nulls kept
    }

    /** One measurement per system. */
    public Metric(Double a, Double b) {
      this(a, b, ratio(a, b), List.of());
    }

    /**
     * Round {@code i} of {@code a} paired with round {@code i} of {@code b} (null where a system
     * has no value); one round is a plain pair.
     */
    static Metric ofRounds(List<Double> a, List<Double> b) {
      if (a.size() <= 1 && b.size() <= 1) {
        return new Metric(a.isEmpty() ? null : a.get(0), b.isEmpty() ? null : b.get(0));
      }
      List<Double> ratios = new ArrayList<>();
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        ratios.add(ratio(i < a.size() ? a.get(i) : null, i < b.size() ? b.get(i) : null));
      }
      return new Metric(median(a), median(b), median(ratios), ratios);
    }

    private static Double ratio(Double a, Double b) {
      return a == null || b == null || b == 0 ? null : a / b;
    }
  }

  public record Row(
      String label,
      Double sharePercent,
      Metric opsPerSec,
      Metric p99Millis,
      Metric cpuPer1000Ops,
      Metric rawOpsPerSec) {}

  /** The median of the values that are not null (the mean of the middle two if even), or null. */
  static Double median(List<Double> values) {
    List<Double> v = values.stream().filter(Objects::nonNull).sorted().toList();
    if (v.isEmpty()) {
      return null;
    }
    int mid = v.size() / 2;
    return v.size() % 2 == 1 ? v.get(mid) : (v.get(mid - 1) + v.get(mid)) / 2;
  }

  /** The last round any phase of {@code a} or {@code b} ran in. */
  public static int rounds(SystemRun a, SystemRun b) {
    int most = 1;
    for (SystemRun s : List.of(a, b)) {
      for (MeasuredPhase p : s.phases()) {
        most = Math.max(most, BenchReport.roundOf(p.phase().name()));
      }
    }
    return most;
  }

  public static List<Row> rows(BenchReport report, SystemRun a, SystemRun b) {
    List<Row> rows = new ArrayList<>();
    if (report.mix() != null) {
      List<MeasuredPhase> ma = a.rounds(BenchReport.MIX_PHASE);
      List<MeasuredPhase> mb = b.rounds(BenchReport.MIX_PHASE);
      for (Op op : report.mix().ops()) {
        List<MeasuredPhase> ra = a.rawRounds(op);
        List<MeasuredPhase> rb = b.rawRounds(op);
        rows.add(
            new Row(
                op.key(),
                report.mix().percent(op),
                metric(ma, mb, p -> p.opsPerSec(op)),
                metric(ma, mb, p -> p.latencyMillis(op, 99)),
                metric(ra, rb, MeasuredPhase::cpuMillisPer1000Ops),
                metric(ra, rb, p -> p.opsPerSec(op))));
      }
      rows.add(
          new Row(
              "MIX (" + report.mix().name() + ")",
              100.0,
              metric(ma, mb, MeasuredPhase::totalOpsPerSec),
              metric(ma, mb, p -> p.latencyMillis(null, 99)),
              metric(ma, mb, MeasuredPhase::cpuMillisPer1000Ops),
              new Metric(null, null)));
    } else {
      Set<Op> ops = new LinkedHashSet<>();
      for (MeasuredPhase pa : a.phases()) {
        if (pa.phase().workload().isRaw()) {
          ops.add(pa.phase().workload().rawOp());
        }
      }
      for (Op op : ops) {
        List<MeasuredPhase> pa = a.rawRounds(op);
        List<MeasuredPhase> pb = b.rawRounds(op);
        rows.add(
            new Row(
                op.key(),
                null,
                metric(pa, pb, p -> p.opsPerSec(op)),
                metric(pa, pb, p -> p.latencyMillis(op, 99)),
                metric(pa, pb, MeasuredPhase::cpuMillisPer1000Ops),
                new Metric(null, null)));
      }
    }
    return rows;
  }

  private static Metric metric(
      List<MeasuredPhase> a, List<MeasuredPhase> b, Function<MeasuredPhase, Double> value) {
    return Metric.ofRounds(values(a, value), values(b, value));
  }

  private static List<Double> values(
      List<MeasuredPhase> phases, Function<MeasuredPhase, Double> value) {
    List<Double> v = new ArrayList<>();
    for (MeasuredPhase p : phases) {
      v.add(value.apply(p));
    }
    return v;
  }
}
