package io.hops.bench.report;

import io.hops.bench.client.OpStats;
import io.hops.bench.client.Phase;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.workload.Op;
import org.HdrHistogram.Histogram;

/**
 * A phase as measured against one system: the clients' results, the CPU time its namenode
 * process(es) used in the measured window (null when they are not known) and what each namenode and
 * the database did.
 */
public record MeasuredPhase(
    Phase phase, PhaseResult result, Long namenodeCpuMillis, ClusterWork cluster) {

  public MeasuredPhase {
    cluster = cluster == null ? ClusterWork.NONE : cluster;
  }

  public MeasuredPhase(Phase phase, PhaseResult result, Long namenodeCpuMillis) {
    this(phase, result, namenodeCpuMillis, ClusterWork.NONE);
  }

  /** Client operations (successful or not) in the window. */
  public long clientOps() {
    return result.successes() + result.failures();
  }

  /** {@code amount} per client operation, or null. */
  public Double perOp(Long amount) {
    return amount == null || clientOps() == 0 ? null : (double) amount / clientOps();
  }

  public double opsPerSec(Op op) {
    OpStats s = result.ops().get(op);
    return s == null ? 0 : s.successes() / result.effectiveSeconds();
  }

  public double totalOpsPerSec() {
    return result.successes() / result.effectiveSeconds();
  }

  /** The namenode CPU milliseconds per 1,000 operations (successful or not); null if unknown. */
  public Double cpuMillisPer1000Ops() {
    long ops = result.successes() + result.failures();
    return namenodeCpuMillis == null || ops == 0 ? null : namenodeCpuMillis * 1000.0 / ops;
  }

  /** A latency percentile of {@code op} (null: all operations) in milliseconds; null if none. */
  public Double latencyMillis(Op op, double percentile) {
    OpStats s = op == null ? result.total() : result.ops().get(op);
    if (s == null || s.successes() == 0) {
      return null;
    }
    Histogram h = s.latencyMicros();
    long micros = percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
    return micros / 1000.0;
  }
}
