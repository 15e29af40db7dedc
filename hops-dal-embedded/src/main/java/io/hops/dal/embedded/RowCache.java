package io.hops.dal.embedded;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

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
 *
 * <p>A commit of a transaction that reads once (a block report's bulk apply) replaces the rows the
 * cache holds but adds none ({@link #committedPast}): a report of a million replicas would
 * otherwise fill it with rows nothing reads soon, and the collector with work. Such a commit counts
 * a pass in the generation before it replaces; a read that began before the pass (it took {@link
 * Generation#passes} of its key with the generation) takes back what it added ({@link #fill}),
 * since it may have read the store before the commit wrote it, and the commit may have found
 * nothing to replace.
 *
 * <p>A deleted row leaves no entry: a commit counts a pass for its key and removes it. Were it kept
 * as {@link #ABSENT} (which would do the pass's work), a workload that creates and deletes files
 * would fill the map with the keys of rows nobody reads again (a deleted file's name and lease
 * path), every lookup would miss the processor's caches more, and the generation would turn over
 * with the rows in use. A later read of the key misses and is answered by the kept partition, or
 * reads the store and keeps what it found.
 */
final class RowCache {
  /** The value of a key that has no row. */
  static final Object ABSENT = new Object();

  /**
   * The value of a key whose row is not shared ({@link StoredTable#shares}: it holds bytes): a
   * point read reads the store, as on a miss, and adds nothing. It is an entry, not a missing one,
   * so that a read that fetched an older, shareable row cannot add it after the commit.
   */
  static final Object UNSHARED = new Object();

  /**
   * Counters of passes, a key's chosen by its hash: a pass makes only the reads racing it on keys
   * of the same stripe drop what they read.
   */
  private static final int PASS_STRIPES = 64;

  /** One generation of the cache. */
  static final class Generation {
    private final Map<KeyBytes, Object> rows = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLongArray passes = new AtomicLongArray(PASS_STRIPES);

    /** The cached row, {@link #ABSENT}, {@link #UNSHARED}, or null if not cached. */
    Object get(KeyBytes rowKey) {
      return rows.get(rowKey);
    }

    /**
     * How many commits wrote past this generation or deleted a row, on keys of {@code rowKey}'s
     * stripe: a read takes it before it reads the store.
     */
    long passes(KeyBytes rowKey) {
      return passes.get(stripe(rowKey));
    }

    /** Counts a pass on {@code rowKey}: before the commit's change to its entry. */
    private void pass(KeyBytes rowKey) {
      passes.incrementAndGet(stripe(rowKey));
    }

    /** Counts a pass on every key (one per stripe, not one per key of a large batch). */
    private void passAll() {
      for (int i = 0; i < PASS_STRIPES; i++) {
        passes.incrementAndGet(i);
      }
    }

    private static int stripe(KeyBytes rowKey) {
      return rowKey.hashCode() & (PASS_STRIPES - 1);
    }
  }

  private final long maxBytes;
  private final int maxEntries;
  private volatile Generation current = new Generation();
  private final CacheStats stats = new CacheStats();

  /** Runs before a read adds what it fetched: lets a test put a commit in between. */
  volatile Runnable beforeFill = () -> {};

  /** {@code maxBytes} or {@code maxEntries} 0: off. */
  RowCache(long maxBytes, int maxEntries) {
    this.maxBytes = maxEntries > 0 ? maxBytes : 0;
    this.maxEntries = maxEntries;
  }

  boolean enabled() {
    return maxBytes > 0;
  }

  /** Lookups answered here and those that went further. */
  CacheStats stats() {
    return stats;
  }

  /** The heap the current generation's entries take, estimated ({@link HeapEstimate}). */
  long bytes() {
    return current.bytes.get();
  }

  /** The current generation's entries. */
  int entries() {
    return current.rows.size();
  }

  /** The heap one entry takes: its map node, its key and its row. */
  static long entryBytes(KeyBytes rowKey, Object row) {
    return HeapEstimate.MAP_ENTRY + HeapEstimate.key(rowKey.bytes().length) + HeapEstimate.row(row);
  }

  /** The generation a read must take before it reads the store. */
  Generation current() {
    return current;
  }

  /**
   * Adds what a read found in the store (null: no row), unless a commit got there first; {@code
   * passes}: {@link Generation#passes} of the key when the read began.
   */
  void fill(Generation g, long passes, KeyBytes rowKey, Object row) {
    if (maxBytes <= 0) {
      return;
    }
    beforeFill.run();
    Object value = row == null ? ABSENT : row;
    long size = entryBytes(rowKey, value);
    if (size > maxBytes) {
      return;
    }
    if (g.rows.putIfAbsent(rowKey, value) == null) {
      if (g.passes(rowKey) != passes && g.rows.remove(rowKey, value)) {
        return; // a commit wrote past the cache or deleted meanwhile: what was read may be older
      }
      grew(g, size);
    }
  }

  /** {@code g} holds {@code size} bytes more; past a bound a new generation starts. */
  private void grew(Generation g, long size) {
    if ((g.bytes.addAndGet(size) > maxBytes || g.rows.size() > maxEntries) && current == g) {
      current = new Generation();
    }
  }

  /**
   * The rows of a commit whose batch is in the store (row or {@link #ABSENT} by row key): a row
   * replaces the key's entry, a deletion removes it (see the class comment).
   */
  void committed(Map<KeyBytes, Object> rows) {
    if (maxBytes <= 0 || rows.isEmpty()) {
      return;
    }
    Generation g = current;
    long size = 0;
    for (Map.Entry<KeyBytes, Object> e : rows.entrySet()) {
      KeyBytes k = e.getKey();
      Object old;
      if (e.getValue() == ABSENT) {
        g.pass(k); // before the removal: see fill
        old = g.rows.remove(k);
      } else {
        old = g.rows.put(k, e.getValue());
        size += entryBytes(k, e.getValue());
      }
      if (old != null) {
        size -= entryBytes(k, old);
      }
    }
    grew(g, size);
  }

  /**
   * The rows of a commit whose batch is in the store, as {@link #committed}, but only those the
   * cache holds are replaced: none is added.
   */
  void committedPast(Map<KeyBytes, Object> rows) {
    if (maxBytes <= 0 || rows.isEmpty()) {
      return;
    }
    Generation g = current;
    g.passAll(); // before the replacements: see fill
    long size = 0;
    for (Map.Entry<KeyBytes, Object> e : rows.entrySet()) {
      Object old = g.rows.replace(e.getKey(), e.getValue());
      if (old != null) {
        size += entryBytes(e.getKey(), e.getValue()) - entryBytes(e.getKey(), old);
      }
    }
    g.bytes.addAndGet(size);
  }

  /** Forgets everything (after a write the cache cannot follow). */
  void clear() {
    current = new Generation();
  }
}
