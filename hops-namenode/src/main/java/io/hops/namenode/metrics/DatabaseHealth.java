package io.hops.namenode.metrics;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.OperationMetrics;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long ago the database last answered this namenode, known without asking it: a probe (one
 * primary-key read of the root) every {@code periodMillis} in a thread of its own, and every
 * operation that commits, count as answers. What an operator's page shows must not wait for a
 * database that does not answer; the age it shows grows while the database is frozen.
 */
public final class DatabaseHealth implements DatabaseHealthMXBean, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseHealth.class);

  /** How long a probe may wait before the page calls the database unreachable. */
  static final long STUCK_MILLIS = 2000;

  private final Storage storage;
  private final OperationMetrics operations;
  private final OperationMetrics.Listener listener = this::finished;
  private final ScheduledExecutorService prober;
  private volatile long answeredNanos = System.nanoTime();
  private volatile long probeNanos = -1;
  private volatile long probeStartedNanos = -1;
  private volatile String lastError;

  public DatabaseHealth(Storage storage, OperationMetrics operations, long periodMillis) {
    this.storage = storage;
    this.operations = operations;
    this.prober =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "database-health");
              t.setDaemon(true);
              return t;
            });
    operations.addListener(listener);
    prober.scheduleWithFixedDelay(this::probe, 0, Math.max(1, periodMillis), TimeUnit.MILLISECONDS);
  }

  private void finished(String op, long nanos, boolean failed) {
    if (!failed) {
      answeredNanos = System.nanoTime();
    }
  }

  private void probe() {
    long start = System.nanoTime();
    probeStartedNanos = start;
    try (Transaction tx = storage.begin()) {
      tx.find(InodeRow.TABLE, Inodes.rootKey(), LockMode.READ_COMMITTED);
      long now = System.nanoTime();
      probeNanos = now - start;
      answeredNanos = now;
      if (lastError != null) {
        LOG.info("the database answers again");
        lastError = null;
      }
    } catch (Exception e) {
      if (lastError == null) {
        LOG.warn("the database does not answer: {}", e.toString());
      }
      lastError = e.getMessage() == null ? e.toString() : e.getMessage();
    } finally {
      probeStartedNanos = -1;
    }
  }

  /** Milliseconds since the database last answered (a probe or a committed operation). */
  public long lastRoundTripAgeMillis() {
    return (System.nanoTime() - answeredNanos) / 1_000_000L;
  }

  /** How long the last probe that got an answer took, in microseconds; -1 before the first. */
  public long lastProbeMicros() {
    return probeNanos < 0 ? -1 : probeNanos / 1000;
  }

  /** The error of the last probe, or null if it got an answer. */
  public String lastError() {
    return lastError;
  }

  /**
   * A line for the web UI: "healthy (...)", or "UNREACHABLE (...)" once a probe failed or has
   * waited longer than {@value #STUCK_MILLIS} ms (a frozen database fails nothing until a timeout).
   */
  public String describe() {
    String age = String.format("last answer %.1f s ago", lastRoundTripAgeMillis() / 1000.0);
    String error = lastError;
    long started = probeStartedNanos;
    long waiting = started < 0 ? 0 : (System.nanoTime() - started) / 1_000_000L;
    if (waiting > STUCK_MILLIS) {
      return String.format("UNREACHABLE (%s; a read has waited %.1f s)", age, waiting / 1000.0);
    }
    if (error != null) {
      return "UNREACHABLE (" + age + "): " + error;
    }
    if (probeNanos < 0) {
      return "not probed yet";
    }
    return String.format("healthy (%s, a read took %.1f ms)", age, lastProbeMicros() / 1000.0);
  }

  @Override
  public long getDatabaseLastRoundTripAgeMs() {
    return lastRoundTripAgeMillis();
  }

  @Override
  public long getDatabaseProbeMicros() {
    return lastProbeMicros();
  }

  @Override
  public String getDatabaseState() {
    return describe();
  }

  @Override
  public void close() {
    operations.removeListener(listener);
    prober.shutdownNow();
  }
}
