package io.hops.namenode.ops.snapshot;

import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.tx.TransactionRunner;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This namenode's reclaims of snapshot versions, run after the {@code deleteSnapshot} (or the
 * hold's end) that started them has answered (docs/architecture.md, "Snapshots", "Reclaiming
 * versions"): the versions a reclaim deletes are read by no remaining snapshot, so no client can
 * tell when they go, and the call need not wait for them. One thread, one reclaim at a time, a
 * bounded queue. The pending row written with the call is the record: a reclaim this namenode drops
 * (queue full, stopped, crashed) is finished by the leader ({@code SnapshotVersionReclaims}).
 */
public final class VersionReclaimer {
  private static final Logger LOG = LoggerFactory.getLogger(VersionReclaimer.class);

  /** Reclaims waiting at most; more are left to the leader. */
  private static final int QUEUE = 256;

  private final TransactionRunner runner;
  private final ThreadPoolExecutor pool;

  /** Reclaims queued and not finished (guarded by this). */
  private int outstanding;

  public VersionReclaimer(TransactionRunner runner) {
    this.runner = runner;
    this.pool =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUE),
            r -> {
              Thread t = new Thread(r, "snapshot-version-reclaim");
              t.setDaemon(true);
              return t;
            });
  }

  /** Queues the reclaim that {@code pending} names (its row written by a committed call). */
  public void submit(SnapshotVersionLogRow pending) {
    synchronized (this) {
      outstanding++;
    }
    try {
      pool.execute(
          () -> {
            try {
              ReclaimVersions.drain(runner, pending);
            } catch (Exception e) {
              LOG.warn("reclaim {} stopped; the leader resumes it", pending, e);
            } finally {
              finished();
            }
          });
    } catch (RejectedExecutionException full) {
      LOG.debug("reclaim {} left to the leader", pending);
      finished();
    }
  }

  private synchronized void finished() {
    outstanding--;
    notifyAll();
  }

  /**
   * Waits until every reclaim queued so far has run (tests: the rows a call leaves to this
   * namenode, gone); false if {@code timeout} passed first.
   */
  public synchronized boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (outstanding > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  /** Stops at once: what is queued or half done stays pending for the leader. */
  public void stop() {
    for (Runnable dropped : pool.shutdownNow()) {
      finished();
    }
  }
}
