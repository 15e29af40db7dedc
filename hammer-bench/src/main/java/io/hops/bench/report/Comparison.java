package io.hops.bench.report;

import io.hops.bench.workload.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * The side-by-side view of two systems ({@code a} over {@code b}, e.g. hops over HDFS): per
 * operation and for the mix, throughput, p99 latency and namenode CPU per operation.
 *
 * <p>In a MIXED run, an operation's throughput and p99 are its own within the mix; its CPU per
 * operation comes from the RAW sweep that follows the mix (a namenode's CPU time cannot be split
 * between the operations of a mix), and so does its RAW throughput.
 */
public final class Comparison {
  private Comparison() {}

  /** Two measurements of one metric and their ratio {@code a / b}. */
  public record Metric(Double a, Double b) {
    public Double ratio() {
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

  public static List<Row> rows(BenchReport report, SystemRun a, SystemRun b) {
    List<Row> rows = new ArrayList<>();
    if (report.mix() != null) {
      MeasuredPhase ma = a.phase(BenchReport.MIX_PHASE);
      MeasuredPhase mb = b.phase(BenchReport.MIX_PHASE);
      for (Op op : report.mix().ops()) {
        MeasuredPhase ra = a.rawPhase(op);
        MeasuredPhase rb = b.rawPhase(op);
        rows.add(
            new Row(
                op.key(),
                report.mix().percent(op),
                new Metric(ops(ma, op), ops(mb, op)),
                new Metric(p99(ma, op), p99(mb, op)),
                new Metric(cpu(ra), cpu(rb)),
                new Metric(ops(ra, op), ops(rb, op))));
      }
      rows.add(
          new Row(
              "MIX (" + report.mix().name() + ")",
              100.0,
              new Metric(total(ma), total(mb)),
              new Metric(p99(ma, null), p99(mb, null)),
              new Metric(cpu(ma), cpu(mb)),
              new Metric(null, null)));
    } else {
      for (MeasuredPhase pa : a.phases()) {
        if (!pa.phase().workload().isRaw()) {
          continue;
        }
        Op op = pa.phase().workload().rawOp();
        MeasuredPhase pb = b.rawPhase(op);
        rows.add(
            new Row(
                op.key(),
                null,
                new Metric(ops(pa, op), ops(pb, op)),
                new Metric(p99(pa, op), p99(pb, op)),
                new Metric(cpu(pa), cpu(pb)),
                new Metric(null, null)));
      }
    }
    return rows;
  }

  private static Double ops(MeasuredPhase p, Op op) {
    return p == null ? null : p.opsPerSec(op);
  }

  private static Double total(MeasuredPhase p) {
    return p == null ? null : p.totalOpsPerSec();
  }

  private static Double p99(MeasuredPhase p, Op op) {
    return p == null ? null : p.latencyMillis(op, 99);
  }

  private static Double cpu(MeasuredPhase p) {
    return p == null ? null : p.cpuMillisPer1000Ops();
  }
}
