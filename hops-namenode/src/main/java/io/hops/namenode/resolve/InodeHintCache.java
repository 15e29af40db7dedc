package io.hops.namenode.resolve;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hints from (parent id, name) to inode id, so a path of depth N is resolved in one batched read
 * (DESIGN.md §5). A hint is never trusted: every row read is checked against it and a wrong hint
 * only costs extra reads, after which it is repaired. Bounded: past its capacity it starts over.
 */
public final class InodeHintCache {
  private record ChildName(long parentId, String name) {}

  private final ConcurrentHashMap<ChildName, Long> hints = new ConcurrentHashMap<>();
  private final int capacity;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  public InodeHintCache(int capacity) {
    this.capacity = capacity;
  }

  /** The hinted id of {@code name} under {@code parentId}, or -1. */
  public long get(long parentId, String name) {
    Long id = hints.get(new ChildName(parentId, name));
    (id == null ? misses : hits).increment();
    return id == null ? -1 : id;
  }

  public void put(long parentId, String name, long id) {
    if (hints.size() >= capacity) {
      hints.clear();
    }
    hints.put(new ChildName(parentId, name), id);
  }

  public void remove(long parentId, String name) {
    hints.remove(new ChildName(parentId, name));
  }

  public void clear() {
    hints.clear();
  }

  public int size() {
    return hints.size();
  }

  /** Lookups that found a hint (right or stale) since this namenode started. */
  public long hits() {
    return hits.sum();
  }

  /** Lookups that found none. */
  public long misses() {
    return misses.sum();
  }
}
