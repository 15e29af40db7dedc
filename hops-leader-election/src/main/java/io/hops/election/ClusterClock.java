package io.hops.election;

import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The time every namenode of a cluster agrees on: the database's clock, sampled once per election
 * round and advanced in between by this process's monotonic clock. Lease limits and timeouts that
 * one namenode sets and another checks use it, so that a namenode whose wall clock is stepped or
 * skewed neither expires others' leases early nor keeps its own forever. It never goes backwards.
 * Read on every operation, so it takes no lock.
 */
public final class ClusterClock {
  /** A sample of the database's clock and the monotonic time it was taken at. */
  private record Sample(long millis, long nanos) {}

  private final Storage storage;
  private volatile Sample sample;
  private final AtomicLong last = new AtomicLong();
  private volatile long skewMillis;

  public ClusterClock(Storage storage) throws StorageException {
    this.storage = storage;
    sync();
  }

  /** Samples the database's clock (one round trip on a server database). */
  public void sync() throws StorageException {
    sync(storage);
  }

  /** As {@link #sync()}, over {@code from}: the election's own connections. */
  public void sync(Storage from) throws StorageException {
    long before = System.nanoTime();
    long db = from.databaseTimeMillis();
    long after = System.nanoTime();
    sample = new Sample(db + skewMillis, before + (after - before) / 2);
  }

  /**
   * Fault injection for tests: from now on the database's clock reads {@code skew} off this
   * process's (negative: behind), as when the database's host keeps another time than the
   * namenode's. The cluster clock jumps once, backwards too, as no real one does: call it before
   * the namenode keeps any time that matters to the test.
   */
  public void skewForTesting(java.time.Duration skew) throws StorageException {
    skewMillis = skew.toMillis();
    sync();
    last.set(sample.millis());
  }

  /** Milliseconds since the epoch by the database's clock. */
  public long now() {
    Sample s = sample;
    long t = s.millis() + (System.nanoTime() - s.nanos()) / 1_000_000L;
    return last.accumulateAndGet(t, Math::max);
  }
}
