package io.hops.namenode.metrics;

import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.Namesystem;
import io.hops.namenode.rpc.SafeMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest {@link ClusterSnapshot}, reread at most once per {@value
 * NamenodeConfig#METRICS_SNAPSHOT_MS}: a scrape reads dozens of attributes, and several scrapers
 * may come at once. If the database cannot be read, the last good snapshot stays (and one warning
 * is logged until it can be read again).
 */
public final class Snapshots {
  private static final Logger LOG = LoggerFactory.getLogger(Snapshots.class);

  private final Namesystem ns;
  private final SafeMode safeMode;
  private final long maxAgeNanos;
  private ClusterSnapshot last;
  private long lastNanos;
  private boolean failing;

  public Snapshots(Namesystem ns, SafeMode safeMode) {
    this.ns = ns;
    this.safeMode = safeMode;
    this.maxAgeNanos =
        ns.conf()
                .getLong(
                    NamenodeConfig.METRICS_SNAPSHOT_MS, NamenodeConfig.METRICS_SNAPSHOT_MS_DEFAULT)
            * 1_000_000L;
  }

  public synchronized ClusterSnapshot get() {
    long now = System.nanoTime();
    if (last == null || now - lastNanos >= maxAgeNanos) {
      try {
        last = ClusterSnapshot.take(ns, safeMode);
        lastNanos = now;
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
        if (last == null) {
          throw new IllegalStateException("metrics: no cluster state yet", e);
        }
      }
    }
    return last;
  }
}
