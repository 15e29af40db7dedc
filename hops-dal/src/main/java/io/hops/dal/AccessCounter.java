package io.hops.dal;

import java.util.concurrent.atomic.LongAdder;

/**
 * The one place where accesses are counted. A transaction counts into its own counter, which
 * forwards to the storage's totals, so tests and metrics read either.
 *
 * <p>The storage's totals (a counter without a parent) are counted into by every thread at once:
 * {@link LongAdder}s, so that two handlers counting do not fight over one cache line on every
 * access. A transaction's own counter is counted into by the thread running the transaction (a
 * transaction is one thread's at a time): plain fields, no atomic instruction per access.
 */
public final class AccessCounter {
  private static final int SLOTS = AccessKind.values().length * LockMode.values().length;

  private final AccessCounter parent;

  /** A transaction's counts, or null for the storage's totals. */
  private final long[] own;

  private long ownRowsRead;
  private long ownRowsWritten;
  private long ownKeysRead;
  private long ownKeysPut;
  private long ownKeysDeleted;

  /** The storage's totals, or null for a transaction's counter. */
  private final LongAdder[] shared;

  /** Rows read and written, keys read, put and deleted: the storage's totals. */
  private final LongAdder[] sharedRowsAndKeys;

  /** A counter that threads share (the storage's totals). */
  public AccessCounter() {
    this.parent = null;
    this.own = null;
    this.shared = adders(SLOTS);
    this.sharedRowsAndKeys = adders(5);
  }

  /** A transaction's counter, used by one thread at a time, forwarding to {@code parent}. */
  public AccessCounter(AccessCounter parent) {
    if (parent == null) {
      throw new IllegalArgumentException("a transaction's counter forwards to the totals");
    }
    this.parent = parent;
    this.own = new long[SLOTS];
    this.shared = null;
    this.sharedRowsAndKeys = null;
  }

  private static LongAdder[] adders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  public void count(AccessKind kind, LockMode mode) {
    int slot = AccessCounts.slot(kind, mode);
    if (own != null) {
      own[slot]++;
      parent.count(kind, mode);
    } else {
      shared[slot].increment();
    }
  }

  /** Rows an access returned (reads) or the write batch carried (writes). */
  public void countRows(long read, long written) {
    if (own != null) {
      ownRowsRead += read;
      ownRowsWritten += written;
      parent.countRows(read, written);
    } else {
      add(0, read);
      add(1, written);
    }
  }

  /**
   * Keys a key-value engine read by point lookups that reached its store, and put and deleted in
   * its commits (a row and each of its index entries are one key each). Engines over SQL count
   * none.
   */
  public void countKeys(long read, long put, long deleted) {
    if (own != null) {
      ownKeysRead += read;
      ownKeysPut += put;
      ownKeysDeleted += deleted;
      parent.countKeys(read, put, deleted);
    } else {
      add(2, read);
      add(3, put);
      add(4, deleted);
    }
  }

  private void add(int i, long n) {
    if (n != 0) {
      sharedRowsAndKeys[i].add(n);
    }
  }

  public AccessCounts snapshot() {
    if (own != null) {
      return new AccessCounts(
          own.clone(),
          ownRowsRead,
          ownRowsWritten,
          new long[] {ownKeysRead, ownKeysPut, ownKeysDeleted});
    }
    long[] copy = new long[SLOTS];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = shared[i].sum();
    }
    return new AccessCounts(
        copy,
        sharedRowsAndKeys[0].sum(),
        sharedRowsAndKeys[1].sum(),
        new long[] {
          sharedRowsAndKeys[2].sum(), sharedRowsAndKeys[3].sum(), sharedRowsAndKeys[4].sum()
        });
  }
}
