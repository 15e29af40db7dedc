package io.hops.election;

import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The time every namenode of a cluster agrees on (docs/architecture.md, "Cluster clock"). Lease
 * limits and timeouts that one namenode sets and another checks use it, so that a namenode whose
 * wall clock is stepped or skewed neither expires others' leases early nor keeps its own forever.
 * It never goes backwards once the namenode has run an election round, and it is read on every
 * operation, so it takes no lock.
 *
 * <p>Where it comes from depends on {@link Source}:
 *
 * <ul>
 *   <li>{@link Source#DATABASE}: the database's clock, sampled once per election round and advanced
 *       in between by this process's monotonic clock. Right when every connection reads one clock
 *       (one MariaDB server; the embedded engine).
 *   <li>{@link Source#LEADER}: the leader's time, which it publishes in every round and the others
 *       follow. Right when namenodes read different clocks (NDB: each SQL node answers with its own
 *       host's). The leader's time advances by its monotonic clock from where the cluster's time
 *       stood when it took over, and moves forward (never back) to its database's clock when that
 *       is ahead; a follower runs from the last time it read, so it trails the leader by at most
 *       one election round.
 * </ul>
 */
public final class ClusterClock {
  /** Where the cluster's time comes from. */
  public enum Source {
    DATABASE,
    LEADER;

    /**
     * The source a configuration value names: {@code database}, {@code leader}, or {@code auto}
     * (the database's clock when it is one clock for every connection, else the leader's).
     */
    public static Source of(String value, Storage storage) {
      String v = value == null ? "auto" : value.trim().toLowerCase(Locale.ROOT);
      return switch (v) {
        case "auto", "" -> storage.oneClock() ? DATABASE : LEADER;
        case "database" -> DATABASE;
        case "leader" -> LEADER;
        default ->
            throw new IllegalArgumentException(
                "hops.namenode.cluster-clock is '"
                    + value
                    + "': expected auto, database or leader");
      };
    }
  }

  /** A time in milliseconds since the epoch and the monotonic time it held at. */
  private record Sample(long millis, long nanos) {}

  private final Storage storage;
  private final Source source;
  private volatile Sample sample;
  private final AtomicLong last = new AtomicLong();
  private volatile long skewMillis;

  /** Whether this namenode has run an election round ({@link Source#LEADER} only). */
  private volatile boolean settled;

  public ClusterClock(Storage storage) throws StorageException {
    this(storage, Source.DATABASE);
  }

  public ClusterClock(Storage storage, Source source) throws StorageException {
    this.storage = storage;
    this.source = source;
    sync();
  }

  /** Whether the leader publishes the cluster's time and the others follow it. */
  public boolean followsLeader() {
    return source == Source.LEADER;
  }

  /** Samples the database's clock (one round trip on a server database). */
  public void sync() throws StorageException {
    sample = databaseSample(storage);
  }

  /**
   * Moves the clock on after an election round, reading the database's clock over {@code from} (the
   * election's own connections). With {@link Source#DATABASE} it takes that sample. With {@link
   * Source#LEADER}: a leader moves forward (never back) to the sample; a follower takes the time
   * the leader published, {@code published} as read at monotonic time {@code readNanos} (or -1 when
   * it read none, as before the first leader publishes: the clock runs on). In its first round,
   * before it serves, a namenode's clock may move back: until then it ran on its own database's
   * clock, which need not be the cluster's.
   */
  public void afterRound(Storage from, boolean leading, long published, long readNanos)
      throws StorageException {
    if (source == Source.DATABASE) {
      sample = databaseSample(from);
    } else if (leading) {
      Sample db = databaseSample(from);
      sample = settled ? new Sample(Math.max(db.millis(), now()), db.nanos()) : db;
    } else if (published >= 0) {
      sample = new Sample(published, readNanos);
      if (!settled) {
        last.set(published);
      }
    } else if (!settled) {
      sample = databaseSample(from);
    }
    settled = true;
  }

  private Sample databaseSample(Storage from) throws StorageException {
    long before = System.nanoTime();
    long db = from.databaseTimeMillis() + skewMillis;
    long after = System.nanoTime();
    return new Sample(db, before + (after - before) / 2);
  }

  /**
   * Fault injection for tests: from now on the database's clock reads {@code skew} off this
   * process's (negative: behind), as when the database's host (over NDB: this namenode's SQL node)
   * keeps another time than the namenode's. The clock jumps once, backwards too, as no real one
   * does: call it before the namenode keeps any time that matters to the test.
   */
  public void skewForTesting(java.time.Duration skew) throws StorageException {
    skewMillis = skew.toMillis();
    sync();
    last.set(sample.millis());
  }

  /** Milliseconds since the epoch by the cluster's clock. */
  public long now() {
    Sample s = sample;
    long t = s.millis() + (System.nanoTime() - s.nanos()) / 1_000_000L;
    return last.accumulateAndGet(t, Math::max);
  }
}
