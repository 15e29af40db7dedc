package io.hops.namenode.tx;

import io.hops.dal.AccessCounts;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
    final LongAdder rowsRead = new LongAdder();
    final LongAdder rowsWritten = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder lockNanos = new LongAdder();

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

    /** Rows the reads of the operations' transactions returned. */
    public long rowsRead() {
      return rowsRead.sum();
    }

    /** Rows the committed transactions inserted, updated or deleted. */
    public long rowsWritten() {
      return rowsWritten.sum();
    }

    /** Time in the lock phase (reads under row locks, waits for them included), all attempts. */
    public long lockPhaseNanos() {
      return lockNanos.sum();
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

  /** Sees every finished operation (the metrics2 sources keep latency percentiles so). */
  @FunctionalInterface
  public interface Listener {
    void finished(String op, long nanos, boolean failed);
  }

  private final Map<String, Stats> byOperation = new ConcurrentHashMap<>();
  private final Map<RetryCause, LongAdder> retryCauses = new ConcurrentHashMap<>();
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  void record(String op, long nanos, AccessCounts accesses, int retries, boolean failed) {
    Stats s = byOperation.computeIfAbsent(op, k -> new Stats());
    s.count.increment();
    s.nanos.add(nanos);
    s.accesses.add(accesses.total());
    s.rowsRead.add(accesses.rowsRead());
    s.rowsWritten.add(accesses.rowsWritten());
    s.retries.add(retries);
    if (failed) {
      s.failures.increment();
    }
    for (Listener l : listeners) {
      l.finished(op, nanos, failed);
    }
  }

  void lockPhase(String op, long nanos) {
    byOperation.computeIfAbsent(op, k -> new Stats()).lockNanos.add(nanos);
  }

  void retried(Throwable transientError) {
    retryCauses.computeIfAbsent(RetryCause.of(transientError), k -> new LongAdder()).increment();
  }

  /** Transaction restarts by cause, since this namenode started. */
  public long retries(RetryCause cause) {
    LongAdder n = retryCauses.get(cause);
    return n == null ? 0 : n.sum();
  }

  public void addListener(Listener l) {
    listeners.add(l);
  }

  public void removeListener(Listener l) {
    listeners.remove(l);
  }

  public Stats get(String op) {
    return byOperation.getOrDefault(op, new Stats());
  }

  /** A snapshot, sorted by operation name. */
  public Map<String, Stats> all() {
    return new TreeMap<>(byOperation);
  }
}
