package io.hops.dal.embedded;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decoded rows of one store by row key, for point reads: a present row, or {@link #ABSENT} for a
 * key known to have none. Only this process writes the store, and every commit writes its rows here
 * after its write batch is in the store and before it releases its locks, so a read under a lock
 * always finds the latest commit; a read committed read may see a row a moment before the store
 * does, never after.
 *
 * <p>A read that misses takes the current {@link Generation} <em>before</em> it reads the store and
 * adds what it read only if the key is still absent there: a commit that wrote the key since then
 * has put its own row first (so the older read is dropped), or went to a newer generation (and the
 * read lands in a dropped one). Past its capacity, and after any write whose rows it cannot follow
 * (schema changes, a failed commit), the cache starts a new generation.
 */
final class RowCache {
  /** The value of a key that has no row. */
  static final Object ABSENT = new Object();

  /** One generation of the cache. */
  static final class Generation {
    private final Map<KeyBytes, Object> rows = new ConcurrentHashMap<>();

    /** The cached row, {@link #ABSENT}, or null if not cached. */
    Object get(KeyBytes rowKey) {
      return rows.get(rowKey);
    }
  }

  private final int capacity;
  private volatile Generation current = new Generation();

  /** Runs before a read adds what it fetched: lets a test put a commit in between. */
  volatile Runnable beforeFill = () -> {};

  RowCache(int capacity) {
    this.capacity = capacity;
  }

  boolean enabled() {
    return capacity > 0;
  }

  /** The generation a read must take before it reads the store. */
  Generation current() {
    return current;
  }

  /** Adds what a read found in the store (null: no row), unless a commit got there first. */
  void fill(Generation g, KeyBytes rowKey, Object row) {
    if (capacity <= 0) {
      return;
    }
    beforeFill.run();
    g.rows.putIfAbsent(rowKey, row == null ? ABSENT : row);
    if (g.rows.size() > capacity && current == g) {
      current = new Generation();
    }
  }

  /** The rows of a commit whose batch is in the store (row or {@link #ABSENT} by row key). */
  void committed(Map<KeyBytes, Object> rows) {
    if (capacity <= 0 || rows.isEmpty()) {
      return;
    }
    current.rows.putAll(rows);
  }

  /** Forgets everything (after a write the cache cannot follow). */
  void clear() {
    current = new Generation();
  }
}
