package io.hops.dal.embedded;

import java.util.concurrent.atomic.LongAdder;

/** A cache's lookups, for its metrics: those it answered and those that went to the store. */
final class CacheStats {
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  void hit() {
    hits.increment();
  }

  void miss() {
    misses.increment();
  }

  long hits() {
    return hits.sum();
  }

  long misses() {
    return misses.sum();
  }
}
