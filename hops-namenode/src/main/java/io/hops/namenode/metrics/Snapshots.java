package io.hops.namenode.metrics;

import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.Namesystem;
import io.hops.namenode.rpc.SafeMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest {@link ClusterSnapshot}, reread at most once per {@value
 * NamenodeConfig#METRICS_SNAPSHOT_MS}: a scrape reads dozens of attributes, and several scrapers
 * may come at once. If the database cannot be read, the last good snapshot stays.
 */
public final class Snapshots {
  private static final Logger LOG = LoggerFactory.getLogger(Snapshots.class);

  private final Namesystem ns;
  private final SafeMode safeMode;
  private final long maxAgeNanos;
  private ClusterSnapshot last;
  private long lastNanos;

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
      } catch (Exception e) {
        LOG.warn("metrics: cannot read the cluster's state, keeping the last values", e);
        if (last == null) {
          throw new IllegalStateException("metrics: no cluster state yet", e);
        }
      }
    }
    return last;
  }
}
