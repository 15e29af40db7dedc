package io.hops.election;

import io.hops.dal.Storage;
import io.hops.dal.StorageException;

/**
 * The time every namenode of a cluster agrees on: the database's clock, sampled once per election
 * round and advanced in between by this process's monotonic clock. Lease limits and timeouts that
 * one namenode sets and another checks use it, so that a namenode whose wall clock is stepped or
 * skewed neither expires others' leases early nor keeps its own forever. It never goes backwards.
 */
public final class ClusterClock {
  private final Storage storage;
  private long baseMillis;
  private long baseNanos;
  private long last;

  public ClusterClock(Storage storage) throws StorageException {
    this.storage = storage;
    sync();
  }

  /** Samples the database's clock (one round trip on a server database). */
  public void sync() throws StorageException {
    long before = System.nanoTime();
    long db = storage.databaseTimeMillis();
    long after = System.nanoTime();
    synchronized (this) {
      baseMillis = db;
      baseNanos = before + (after - before) / 2;
    }
  }

  /** Milliseconds since the epoch by the database's clock. */
  public synchronized long now() {
    long t = baseMillis + (System.nanoTime() - baseNanos) / 1_000_000L;
    last = Math.max(last, t);
    return last;
  }
}
