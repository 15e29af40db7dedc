package io.hops.dal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The one place where accesses are counted. A transaction counts into its own counter, which
 * forwards to the storage's totals, so tests and metrics read either.
 */
public final class AccessCounter {
  private final AtomicLongArray counts =
      new AtomicLongArray(AccessKind.values().length * LockMode.values().length);
  private final AccessCounter parent;

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

  public AccessCounts snapshot() {
    long[] copy = new long[counts.length()];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = counts.get(i);
    }
    return new AccessCounts(copy);
  }
}
