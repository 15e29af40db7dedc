package io.hops.dal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The one place where accesses are counted. A transaction counts into its own counter, which
 * forwards to the storage's totals, so tests and metrics read either.
 */
public final class AccessCounter {
  private final AtomicLongArray counts =
      new AtomicLongArray(AccessKind.values().length * LockMode.values().length);
  private final AccessCounter parent;
  private final AtomicLong rowsRead = new AtomicLong();
  private final AtomicLong rowsWritten = new AtomicLong();
  private final AtomicLong keysRead = new AtomicLong();
  private final AtomicLong keysPut = new AtomicLong();
  private final AtomicLong keysDeleted = new AtomicLong();

  public AccessCounter() {
    this(null);
  }

  public AccessCounter(AccessCounter parent) {
    this.parent = parent;
  }

  public void count(AccessKind kind, LockMode mode) {
    counts.incrementAndGet(AccessCounts.slot(kind, mode));
    if (parent != null) {
      parent.count(kind, mode);
    }
  }

  /** Rows an access returned (reads) or the write batch carried (writes). */
  public void countRows(long read, long written) {
    rowsRead.addAndGet(read);
    rowsWritten.addAndGet(written);
    if (parent != null) {
      parent.countRows(read, written);
    }
  }

  /**
   * Keys a key-value engine read by point lookups that reached its store, and put and deleted in
   * its commits (a row and each of its index entries are one key each). Engines over SQL count
   * none.
   */
  public void countKeys(long read, long put, long deleted) {
    keysRead.addAndGet(read);
    keysPut.addAndGet(put);
    keysDeleted.addAndGet(deleted);
    if (parent != null) {
      parent.countKeys(read, put, deleted);
    }
  }

  public AccessCounts snapshot() {
    long[] copy = new long[counts.length()];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = counts.get(i);
    }
    return new AccessCounts(
        copy,
        rowsRead.get(),
        rowsWritten.get(),
        new long[] {keysRead.get(), keysPut.get(), keysDeleted.get()});
  }
}
