package io.hops.bench.report;

import io.hops.bench.client.OpStats;
import io.hops.bench.workload.Op;
import java.util.Locale;
import java.util.Map;

/**
 * {@code results.csv}: one row per system, phase and operation (and one {@code all} row per phase),
 * with throughput, counts, latency percentiles and namenode CPU.
 */
public final class CsvReport {
  private static final String HEADER =
      "system,phase,workload,operation,ops_per_sec,successes,failures,p50_ms,p90_ms,p99_ms,"
          + "p99_9_ms,max_ms,namenode_cpu_ms_per_1000_ops\n";

  private CsvReport() {}

  public static String of(BenchReport report) {
    StringBuilder b = new StringBuilder(HEADER);
    for (SystemRun s : report.systems()) {
      for (MeasuredPhase p : s.phases()) {
        for (Map.Entry<Op, OpStats> e : p.result().ops().entrySet()) {
          row(b, s, p, e.getKey(), e.getValue(), p.opsPerSec(e.getKey()), null);
        }
        row(b, s, p, null, p.result().total(), p.totalOpsPerSec(), p.cpuMillisPer1000Ops());
      }
    }
    return b.toString();
  }

  private static void row(
      StringBuilder b,
      SystemRun s,
      MeasuredPhase p,
      Op op,
      OpStats st,
      double opsPerSec,
      Double cpu) {
    b.append(s.system())
        .append(',')
        .append(p.phase().name())
        .append(',')
        .append(p.phase().workload().name())
        .append(',')
        .append(op == null ? "all" : op.key())
        .append(',')
        .append(String.format(Locale.ROOT, "%.1f", opsPerSec))
        .append(',')
        .append(st.successes())
        .append(',')
        .append(st.failures());
    for (double pct : new double[] {50, 90, 99, 99.9, 100}) {
      Double v = p.latencyMillis(op, pct);
      b.append(',').append(v == null ? "" : String.format(Locale.ROOT, "%.3f", v));
    }
    b.append(',').append(cpu == null ? "" : String.format(Locale.ROOT, "%.3f", cpu)).append('\n');
  }
}
