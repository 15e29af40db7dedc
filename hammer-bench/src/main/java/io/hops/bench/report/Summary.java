package io.hops.bench.report;

import io.hops.bench.client.OpStats;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.client.SetupResult;
import io.hops.bench.workload.Op;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON summary of a run ({@code summary.json}), as a tree of maps and lists. */
public final class Summary {
  private Summary() {}

  public static Map<String, Object> of(BenchReport r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("tool", "hammer-bench");
    m.put("started", r.started());
    m.put("workload", r.workload());
    if (r.mix() != null) {
      Map<String, Object> mix = new LinkedHashMap<>();
      r.mix().ops().forEach(op -> mix.put(op.key(), r.mix().percent(op)));
      m.put("mixPercent", mix);
    }
    m.put("settings", r.settings());
    m.put("machine", r.machine());
    Map<String, Object> systems = new LinkedHashMap<>();
    for (SystemRun s : r.systems()) {
      systems.put(s.system(), system(s));
    }
    m.put("systems", systems);
    if (r.systems().size() == 2) {
      m.put("comparison", comparison(r));
    }
    return m;
  }

  /** Ratios only: the part of the summary a report quotes. */
  public static Map<String, Object> comparison(BenchReport r) {
    SystemRun a = r.systems().get(0);
    SystemRun b = r.systems().get(1);
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("ratio", a.system() + "/" + b.system());
    List<Object> rows = new ArrayList<>();
    for (Comparison.Row row : Comparison.rows(r, a, b)) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("operation", row.label());
      if (row.sharePercent() != null) {
        x.put("sharePercent", row.sharePercent());
      }
      x.put("opsPerSec", metric(row.opsPerSec(), a, b));
      x.put("p99Ms", metric(row.p99Millis(), a, b));
      x.put("namenodeCpuMsPer1000Ops", metric(row.cpuPer1000Ops(), a, b));
      if (row.rawOpsPerSec().a() != null || row.rawOpsPerSec().b() != null) {
        x.put("rawOpsPerSec", metric(row.rawOpsPerSec(), a, b));
      }
      rows.add(x);
    }
    c.put("rows", rows);
    return c;
  }

  private static Map<String, Object> metric(Comparison.Metric m, SystemRun a, SystemRun b) {
    Map<String, Object> x = new LinkedHashMap<>();
    x.put(a.system(), m.a());
    x.put(b.system(), m.b());
    x.put("ratio", m.ratio());
    if (!m.roundRatios().isEmpty()) {
      x.put("roundRatios", m.roundRatios());
    }
    return x;
  }

  private static Map<String, Object> system(SystemRun s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("uri", s.uri());
    m.put("facts", s.facts());
    m.put("problems", s.problems());
    if (s.setup() != null) {
      m.put("setup", setup(s.setup()));
    }
    List<Object> phases = new ArrayList<>();
    s.phases().forEach(p -> phases.add(phase(p)));
    m.put("phases", phases);
    return m;
  }

  private static Map<String, Object> setup(SetupResult s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dirs", s.dirs());
    m.put("files", s.files());
    m.put("failures", s.failures().failures());
    m.put("errors", s.failures().errors());
    m.put("threadsReady", s.threadsReady());
    m.put("seconds", s.millis() / 1000.0);
    return m;
  }

  private static Map<String, Object> phase(MeasuredPhase p) {
    PhaseResult r = p.result();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", p.phase().name());
    m.put("workload", p.phase().workload().name());
    m.put("warmupSeconds", p.phase().warmupMillis() / 1000.0);
    m.put("durationSeconds", r.measuredMillis() / 1000.0);
    m.put("threads", r.threads());
    m.put("opsPerSec", p.totalOpsPerSec());
    m.put("successes", r.successes());
    m.put("failures", r.failures());
    m.put("latencyMs", latency(p, null));
    m.put(
        "namenodeCpuSeconds",
        p.namenodeCpuMillis() == null ? null : p.namenodeCpuMillis() / 1000.0);
    m.put("namenodeCpuMsPer1000Ops", p.cpuMillisPer1000Ops());
    if (!p.cluster().namenodeThreadCpuMillis().isEmpty() && p.clientOps() > 0) {
      Map<String, Object> threads = new LinkedHashMap<>();
      p.cluster()
          .namenodeThreadCpuMillis()
          .forEach((group, ms) -> threads.put(group, p.perOp(ms) * 1000));
      m.put("namenodeCpuMsPer1000OpsByThread", threads);
    }
    if (p.cluster().clientCpuMillis() != null) {
      m.put("clientCpuMsPer1000Ops", p.perOp(p.cluster().clientCpuMillis() * 1000));
    }
    if (p.cluster().machine() != null) {
      m.put("machineBusyShare", p.cluster().machine().busyShare());
    }
    if (r.pausedMillis() > 0) {
      m.put("pausedThreadSeconds", r.pausedMillis() / 1000.0);
    }
    m.put("stuckThreads", r.stuckThreads());
    m.put("problems", r.problems());
    if (r.timeline().longestGapMillis() >= 0) {
      m.put("longestGapMs", r.timeline().longestGapMillis());
      m.put("longestGapExact", r.timeline().sessions() == 1);
      m.put("longestGapAtSeconds", r.timeline().longestGapAtMillis() / 1000.0);
      m.put("slowestSecondOfMean", r.timeline().dip());
      m.put("successesPerSecond", r.timeline().perSecond());
    }
    if (!p.cluster().namenodes().isEmpty()) {
      Long all = p.cluster().namenodeOperations();
      List<Object> nns = new ArrayList<>();
      for (ClusterWork.NamenodeWork n : p.cluster().namenodes()) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put(
            "namenodeOpsPerSec",
            n.operations() == null ? null : n.operations() / r.effectiveSeconds());
        x.put(
            "share",
            n.operations() == null || all == null || all == 0
                ? null
                : (double) n.operations() / all);
        x.put("cpuMsPerClientOp", p.perOp(n.cpuMillis()));
        nns.add(x);
      }
      m.put("namenodes", nns);
      m.put("namenodeOpsPerClientOp", p.perOp(all));
    }
    if (p.cluster().databaseCpuMillis() != null || p.cluster().databaseStatements() != null) {
      m.put("databaseCpuMsPerOp", p.perOp(p.cluster().databaseCpuMillis()));
      m.put("databaseStatementsPerOp", p.perOp(p.cluster().databaseStatements()));
      m.put("dalAccessesPerOp", p.perOp(p.cluster().databaseAccesses()));
    }
    Map<String, Object> ops = new LinkedHashMap<>();
    for (Map.Entry<Op, OpStats> e : r.ops().entrySet()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("opsPerSec", p.opsPerSec(e.getKey()));
      o.put("successes", e.getValue().successes());
      o.put("failures", e.getValue().failures());
      o.put("latencyMs", latency(p, e.getKey()));
      if (!e.getValue().errors().isEmpty()) {
        o.put("errors", e.getValue().errors());
      }
      ops.put(e.getKey().key(), o);
    }
    m.put("operations", ops);
    return m;
  }

  private static Map<String, Object> latency(MeasuredPhase p, Op op) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("p50", p.latencyMillis(op, 50));
    m.put("p90", p.latencyMillis(op, 90));
    m.put("p99", p.latencyMillis(op, 99));
    m.put("p99.9", p.latencyMillis(op, 99.9));
    m.put("max", p.latencyMillis(op, 100));
    return m;
  }
}
