package io.hops.bench.report;

import io.hops.bench.client.OpStats;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.workload.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text tables the benchmark prints: one per phase, and the side-by-side ratios. */
public final class Tables {
  private Tables() {}

  public static String phase(String system, MeasuredPhase p) {
    PhaseResult r = p.result();
    int round = BenchReport.roundOf(p.phase().name());
    StringBuilder b = new StringBuilder();
    Double cpu = p.cpuMillisPer1000Ops();
    b.append(
        String.format(
            Locale.ROOT,
            "%s | %s | %.0f s, %d threads | %s ops/s | %d failures | namenode CPU %s%n",
            system,
            (p.phase().workload().isRaw()
                    ? "RAW " + p.phase().workload().rawOp().key()
                    : "MIXED " + p.phase().workload().name())
                + (round > 1 ? " (round " + round + ")" : ""),
            r.measuredMillis() / 1000.0,
            r.threads(),
            num(p.totalOpsPerSec()),
            r.failures(),
            cpu == null ? "n/a" : num(cpu) + " ms per 1,000 ops"));
    String fmt = "  %-16s %10s %10s %9s %8s %8s %8s %9s %8s%n";
    b.append(
        String.format(
            Locale.ROOT,
            fmt,
            "operation",
            "ops/s",
            "successes",
            "failures",
            "p50 ms",
            "p90 ms",
            "p99 ms",
            "p99.9 ms",
            "max ms"));
    for (Map.Entry<Op, OpStats> e : r.ops().entrySet()) {
      b.append(row(fmt, e.getKey().key(), p, e.getKey(), e.getValue()));
    }
    if (r.ops().size() > 1) {
      b.append(row(fmt, "all", p, null, r.total()));
    }
    for (Map.Entry<Op, OpStats> e : r.ops().entrySet()) {
      e.getValue()
          .errors()
          .forEach(
              (message, count) ->
                  b.append(
                      String.format(
                          Locale.ROOT,
                          "  ! %s failed %d times: %s%n",
                          e.getKey().key(),
                          count,
                          message)));
    }
    b.append(cluster(p));
    r.problems().forEach(x -> b.append("  ! ").append(x).append('\n'));
    if (r.stuckThreads() > 0) {
      b.append("  ! ").append(r.stuckThreads()).append(" thread(s) stuck and left out\n");
    }
    return b.toString();
  }

  /**
   * The longest gap, the slowest second, each namenode's share, and the database's cost per
   * operation, where known.
   */
  static String cluster(MeasuredPhase p) {
    StringBuilder b = new StringBuilder();
    PhaseResult.Timeline t = p.result().timeline();
    if (t.longestGapMillis() >= 0) {
      Double dip = t.dip();
      b.append(
          String.format(
              Locale.ROOT,
              "  longest gap without a completed operation: %s%,d ms (from %.1f s into the"
                  + " window); slowest second: %s of the mean%n",
              t.sessions() > 1 ? "at most " : "",
              t.longestGapMillis(),
              t.longestGapAtMillis() / 1000.0,
              dip == null ? "n/a" : String.format(Locale.ROOT, "%.0f%%", dip * 100)));
    }
    ClusterWork w = p.cluster();
    Long all = w.namenodeOperations();
    for (int i = 0; i < w.namenodes().size(); i++) {
      ClusterWork.NamenodeWork n = w.namenodes().get(i);
      b.append(
          String.format(
              Locale.ROOT,
              "  namenode %d: %s namenode ops/s (%s of all), CPU %s ms per client op%n",
              i,
              n.operations() == null ? "n/a" : num(n.operations() / p.result().effectiveSeconds()),
              n.operations() == null || all == null || all == 0
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.0f%%", 100.0 * n.operations() / all),
              num(p.perOp(n.cpuMillis()))));
    }
    String threads = byThread(p);
    if (!threads.isEmpty()) {
      b.append("  namenode CPU by thread, ms per 1,000 ops: ").append(threads).append('\n');
    }
    b.append(clientsAndMachine(p));
    if (w.databaseCpuMillis() != null || w.databaseStatements() != null) {
      b.append(
          String.format(
              Locale.ROOT,
              "  database: CPU %s ms per client op, %s statements (round trips) per client op;"
                  + " the DAL counted %s accesses per client op%n",
              num(p.perOp(w.databaseCpuMillis())),
              num(p.perOp(w.databaseStatements())),
              num(p.perOp(w.databaseAccesses()))));
    }
    return b.toString();
  }

  /**
   * The clients' CPU per 1,000 operations and in cores, and how busy the machine's processors were:
   * where clients and namenodes share a machine, whether the clients, the namenodes or neither had
   * them all; "" where unknown.
   */
  static String clientsAndMachine(MeasuredPhase p) {
    ClusterWork w = p.cluster();
    double seconds = p.result().measuredMillis() / 1000.0;
    if (seconds <= 0 || (w.clientCpuMillis() == null && w.machine() == null)) {
      return "";
    }
    StringBuilder b = new StringBuilder("  ");
    if (w.clientCpuMillis() != null) {
      b.append(
          String.format(
              Locale.ROOT,
              "clients: CPU %s ms per 1,000 ops (%.2f cores)",
              num(p.perOp(w.clientCpuMillis() * 1000)),
              w.clientCpuMillis() / 1000.0 / seconds));
    }
    if (w.machine() != null && w.machine().allMillis() > 0) {
      b.append(w.clientCpuMillis() != null ? "; " : "")
          .append(
              String.format(
                  Locale.ROOT,
                  "the machine: %.0f%% of its %d cores busy",
                  100 * w.machine().busyShare(),
                  Math.round(w.machine().allMillis() / 1000.0 / seconds)));
    }
    return b.append('\n').toString();
  }

  /** Thread groups shown by name; the rest are summed as "other". */
  static final int THREAD_GROUPS_SHOWN = 6;

  /**
   * The namenodes' CPU by thread group ({@code top -H}'s names, digits folded), per 1,000 client
   * operations, the largest {@link #THREAD_GROUPS_SHOWN} by name; "" where unknown.
   */
  static String byThread(MeasuredPhase p) {
    Map<String, Long> groups = p.cluster().namenodeThreadCpuMillis();
    if (groups.isEmpty() || p.clientOps() == 0) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    long other = 0;
    int shown = 0;
    for (Map.Entry<String, Long> g : groups.entrySet()) {
      if (shown < THREAD_GROUPS_SHOWN && g.getValue() > 0) {
        b.append(shown++ == 0 ? "" : ", ")
            .append(g.getKey())
            .append(' ')
            .append(num(p.perOp(g.getValue()) * 1000));
      } else {
        other += g.getValue();
      }
    }
    if (other > 0) {
      b.append(shown == 0 ? "" : ", ").append("other ").append(num(p.perOp(other) * 1000));
    }
    return b.toString();
  }

  private static String row(String fmt, String label, MeasuredPhase p, Op op, OpStats s) {
    return String.format(
        Locale.ROOT,
        fmt,
        label,
        num(op == null ? p.totalOpsPerSec() : p.opsPerSec(op)),
        String.format(Locale.ROOT, "%,d", s.successes()),
        String.format(Locale.ROOT, "%,d", s.failures()),
        num(p.latencyMillis(op, 50)),
        num(p.latencyMillis(op, 90)),
        num(p.latencyMillis(op, 99)),
        num(p.latencyMillis(op, 99.9)),
        num(p.latencyMillis(op, 100)));
  }

  /** The ratio table of two systems. */
  public static String comparison(BenchReport report, SystemRun a, SystemRun b) {
    List<Comparison.Row> rows = Comparison.rows(report, a, b);
    boolean sweep = rows.stream().anyMatch(r -> r.rawOpsPerSec().a() != null);
    String x = a.system();
    String y = b.system();
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s / %s: ratio = %s value / %s value (ops/s: above 1 means %s is faster; p99 and CPU"
                + " per op: below 1 means %s is faster or cheaper)%n",
            x,
            y,
            x,
            y,
            x,
            x));
    String fmt =
        "%-20s %7s | %9s %9s %6s | %8s %8s %6s | %8s %8s %6s"
            + (sweep ? " | %9s %9s %6s" : "%s%s%s")
            + "%n";
    out.append(
        String.format(
            Locale.ROOT,
            "%-28s | %-26s | %-24s | %-24s%s%n",
            "",
            "ops/s",
            "p99 latency, ms",
            "namenode CPU ms / 1k ops",
            sweep ? " | RAW ops/s (sweep)" : ""));
    out.append(
        String.format(
            Locale.ROOT,
            fmt,
            "operation",
            "share",
            x,
            y,
            "ratio",
            x,
            y,
            "ratio",
            x,
            y,
            "ratio",
            sweep ? x : "",
            sweep ? y : "",
            sweep ? "ratio" : ""));
    for (Comparison.Row r : rows) {
      out.append(
          String.format(
              Locale.ROOT,
              fmt,
              r.label(),
              r.sharePercent() == null
                  ? ""
                  : String.format(Locale.ROOT, "%.2f%%", r.sharePercent()),
              num(r.opsPerSec().a()),
              num(r.opsPerSec().b()),
              ratio(r.opsPerSec()),
              num(r.p99Millis().a()),
              num(r.p99Millis().b()),
              ratio(r.p99Millis()),
              num(r.cpuPer1000Ops().a()),
              num(r.cpuPer1000Ops().b()),
              ratio(r.cpuPer1000Ops()),
              sweep ? num(r.rawOpsPerSec().a()) : "",
              sweep ? num(r.rawOpsPerSec().b()) : "",
              sweep ? ratio(r.rawOpsPerSec()) : ""));
    }
    if (sweep) {
      out.append(
          "(in the mix rows, ops/s and p99 are the operation's within the mix; CPU per op and RAW"
              + " ops/s come from the RAW sweep of that operation alone)\n");
    }
    int rounds = Comparison.rounds(a, b);
    if (rounds > 1) {
      out.append(
          String.format(
              Locale.ROOT,
              "(%d rounds: each value is its system's median, each ratio the median of the rounds'"
                  + " ratios)%n%s / %s, each round's ratio:%n",
              rounds,
              x,
              y));
      out.append(
          String.format(
              Locale.ROOT,
              "%-20s | %-24s | %-24s%s%n",
              "operation",
              "ops/s",
              "namenode CPU / op",
              sweep ? " | RAW ops/s (sweep)" : ""));
      for (Comparison.Row r : rows) {
        out.append(
            String.format(
                Locale.ROOT,
                "%-20s | %-24s | %-24s%s%n",
                r.label(),
                roundRatios(r.opsPerSec()),
                roundRatios(r.cpuPer1000Ops()),
                sweep ? " | " + roundRatios(r.rawOpsPerSec()) : ""));
      }
    }
    return out.toString();
  }

  private static String roundRatios(Comparison.Metric m) {
    List<String> each = new ArrayList<>();
    m.roundRatios().forEach(r -> each.add(ratio(r)));
    return each.isEmpty() ? "-" : String.join(" ", each);
  }

  private static String ratio(Comparison.Metric m) {
    return ratio(m.ratio());
  }

  private static String ratio(Double r) {
    return r == null ? "-" : String.format(Locale.ROOT, "%.2f", r);
  }

  /** A number for a table: thousands grouped, fewer decimals the larger it is. */
  public static String num(Double v) {
    if (v == null || v.isNaN() || v.isInfinite()) {
      return "-";
    }
    double a = Math.abs(v);
    if (a >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
