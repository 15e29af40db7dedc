package io.hops.namenode.tx;

import io.hops.dal.AccessCounts;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per operation: count, failures, total latency, database accesses and transaction retries. The one
 * place operations are timed.
 */
public final class OperationMetrics {
  /** The counters of one operation. */
  public static final class Stats {
    final LongAdder count = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder nanos = new LongAdder();
    final LongAdder accesses = new LongAdder();
    final LongAdder retries = new LongAdder();

    public long count() {
      return count.sum();
    }

    public long failures() {
      return failures.sum();
    }

    public long retries() {
      return retries.sum();
    }

    public long accesses() {
      return accesses.sum();
    }

    public double meanMicros() {
      long n = count.sum();
      return n == 0 ? 0 : nanos.sum() / 1000.0 / n;
    }

    @Override
    public String toString() {
      return String.format(
          "count=%d failures=%d retries=%d meanMicros=%.1f dbAccessesPerOp=%.2f",
          count(),
          failures(),
          retries(),
          meanMicros(),
          count() == 0 ? 0.0 : (double) accesses() / count());
    }
  }

  private final Map<String, Stats> byOperation = new ConcurrentHashMap<>();

  void record(String op, long nanos, AccessCounts accesses, int retries, boolean failed) {
    Stats s = byOperation.computeIfAbsent(op, k -> new Stats());
    s.count.increment();
    s.nanos.add(nanos);
    s.accesses.add(accesses.total());
    s.retries.add(retries);
    if (failed) {
      s.failures.increment();
    }
  }

  public Stats get(String op) {
    return byOperation.getOrDefault(op, new Stats());
  }

  /** A snapshot, sorted by operation name. */
  public Map<String, Stats> all() {
    return new TreeMap<>(byOperation);
  }
}
