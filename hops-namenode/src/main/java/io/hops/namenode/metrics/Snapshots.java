package io.hops.namenode.metrics;

import io.hops.dal.Storage;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.rpc.SafeMode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest {@link ClusterSnapshot}, reread at most once per {@value
 * NamenodeConfig#METRICS_SNAPSHOT_MS}: a scrape reads dozens of attributes, and several scrapers
 * may come at once. The reading is done in a thread of its own, which a reader waits for at most
 * {@value #WAIT_MILLIS} ms: a database that does not answer must not hold {@code /jmx}, {@code
 * /prom} or the web UI, which then show the last good snapshot (and one warning is logged until the
 * database can be read again).
 */
public final class Snapshots implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Snapshots.class);

  /** How long a reader waits for a fresh snapshot before it takes the last one. */
  static final long WAIT_MILLIS = 500;

  /** How long the first reader waits, there being no last snapshot to show. */
  static final long FIRST_WAIT_MILLIS = 10_000;

  private final Storage storage;
  private final BlockManager blocks;
  private final Configuration conf;
  private final SafeMode safeMode;
  private final long maxAgeNanos;
  private final ExecutorService reader =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "metrics-snapshot");
            t.setDaemon(true);
            return t;
          });
  private ClusterSnapshot last;
  private long lastNanos;
  private CompletableFuture<Void> reading;
  private long readingSince;
  private boolean failing;

  public Snapshots(Storage storage, BlockManager blocks, Configuration conf, SafeMode safeMode) {
    this.storage = storage;
    this.blocks = blocks;
    this.conf = conf;
    this.safeMode = safeMode;
    this.maxAgeNanos =
        conf.getLong(NamenodeConfig.METRICS_SNAPSHOT_MS, NamenodeConfig.METRICS_SNAPSHOT_MS_DEFAULT)
            * 1_000_000L;
    synchronized (this) {
      startReading(System.nanoTime()); // so that the first scrape finds one
    }
  }

  /** The latest snapshot: a fresh one if the database gives it in time, else the last good one. */
  /** HDFS's {@code Safemode} text: empty when off, else why it is on and when it ends. */
  public String safeModeText() {
    if (!get().safeMode()) {
      return "";
    }
    return safeMode.inStartupSafeMode()
        ? "Safe mode is ON. " + safeMode.startupTip()
        : "Safe mode is ON. It was turned on manually.";
  }

  public ClusterSnapshot get() {
    CompletableFuture<Void> pending;
    long waitNanos;
    synchronized (this) {
      long now = System.nanoTime();
      if (last != null && now - lastNanos < maxAgeNanos) {
        return last;
      }
      if (reading == null) {
        startReading(now);
      }
      pending = reading;
      long wait = last == null ? FIRST_WAIT_MILLIS : WAIT_MILLIS;
      waitNanos = readingSince + wait * 1_000_000L - now;
    }
    if (waitNanos > 0) {
      try {
        pending.get(waitNanos, TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // the last snapshot it is
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      if (last == null) {
        throw new IllegalStateException("metrics: no cluster state yet");
      }
      return last;
    }
  }

  private void startReading(long now) {
    try {
      reading = CompletableFuture.runAsync(this::read, reader);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      reading = CompletableFuture.completedFuture(null); // closed: the last snapshot stays
    }
    readingSince = now;
  }

  private void read() {
    try {
      ClusterSnapshot s = ClusterSnapshot.take(storage, blocks, conf, safeMode);
      synchronized (this) {
        last = s;
        lastNanos = System.nanoTime();
      }
      if (failing) {
        LOG.info("metrics: the cluster's state can be read again");
        failing = false;
      }
    } catch (Exception e) {
      // A scrape every few seconds against a database that is down: one warning, not thousands.
      if (!failing) {
        LOG.warn("metrics: cannot read the cluster's state, keeping the last values", e);
        failing = true;
      } else {
        LOG.debug("metrics: cannot read the cluster's state", e);
      }
    } finally {
      synchronized (this) {
        reading = null;
      }
    }
  }

  @Override
  public void close() {
    reader.shutdownNow();
  }
}
