package io.hops.namenode.metrics;

import io.hops.namenode.tx.OperationMetrics;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Operations per second and mean latency over the last minute, per operation, for the web UI's
 * overview: a ring of one-second buckets per operation, fed by the transaction runner.
 */
public final class RecentOperations implements OperationMetrics.Listener {
  /** The window, in seconds. */
  public static final int SECONDS = 60;

  /** Over the window: operations per second, mean latency in microseconds, failures. */
  public record Rate(double perSecond, double meanMicros, long failures) {}

  private static final class Ring {
    final long[] second = new long[SECONDS];
    final long[] count = new long[SECONDS];
    final long[] nanos = new long[SECONDS];
    final long[] failures = new long[SECONDS];

    synchronized void add(long now, long n, boolean failed) {
      int i = (int) (now % SECONDS);
      if (second[i] != now) {
        second[i] = now;
        count[i] = 0;
        nanos[i] = 0;
        failures[i] = 0;
      }
      count[i]++;
      nanos[i] += n;
      if (failed) {
        failures[i]++;
      }
    }

    synchronized Rate rate(long now) {
      long c = 0;
      long t = 0;
      long f = 0;
      for (int i = 0; i < SECONDS; i++) {
        if (now - second[i] < SECONDS) {
          c += count[i];
          t += nanos[i];
          f += failures[i];
        }
      }
      return new Rate((double) c / SECONDS, c == 0 ? 0 : t / 1000.0 / c, f);
    }
  }

  private final Map<String, Ring> rings = new ConcurrentHashMap<>();

  @Override
  public void finished(String op, long nanos, boolean failed) {
    rings
        .computeIfAbsent(op, o -> new Ring())
        .add(System.nanoTime() / 1_000_000_000L, nanos, failed);
  }

  /** The operations seen in the last minute, by name. */
  public Map<String, Rate> lastMinute() {
    long now = System.nanoTime() / 1_000_000_000L;
    Map<String, Rate> out = new TreeMap<>();
    rings.forEach(
        (op, ring) -> {
          Rate r = ring.rate(now);
          if (r.perSecond() > 0) {
            out.put(op, r);
          }
        });
    return out;
  }
}
