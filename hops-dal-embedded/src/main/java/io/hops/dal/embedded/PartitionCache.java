package io.hops.dal.embedded;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whole partitions of one store, decoded and in key order, for partition scans (a directory's
 * children, a file's blocks and replicas): a scan that finds its partition here takes no iterator.
 * An iterator's cost grows with what the range held and no longer holds (the delete markers of
 * renamed and deleted children, the older versions of a directory row updated by every create in
 * it), a cached partition's does not.
 *
 * <p>As the {@link RowCache}: only this process writes the store, and every commit drops the
 * partitions it wrote after its batch is in the store and before it releases its locks. A scan that
 * misses claims its partition with a token <em>before</em> it reads the store and replaces the
 * token with what it read only if the token is still there: a commit that wrote the partition
 * meanwhile removed it (so the older read is dropped), and a commit that removed it before the
 * claim wrote the store before the read began (so the read sees it). Partitions larger than {@link
 * #MAX_PARTITION_ROWS} are not kept; past its capacity in rows, and after any write whose rows it
 * cannot follow, the cache starts a new generation.
 */
final class PartitionCache {
  /** The largest partition kept: a directory listing of {@code dfs.ls.limit} entries fits. */
  static final int MAX_PARTITION_ROWS = 1024;

  /** One generation: partition prefix → its rows (an unmodifiable list), or a scan's claim. */
  static final class Generation {
    private final Map<KeyBytes, Object> partitions = new ConcurrentHashMap<>();
    private final AtomicInteger rows = new AtomicInteger();

    /** The partition's rows in key order, or null if not cached. */
    List<?> get(KeyBytes partition) {
      return partitions.get(partition) instanceof List<?> rows ? rows : null;
    }
  }

  /** A scan's claim of a partition it is reading. */
  static final class Claim {
    private final Generation generation;
    private final KeyBytes partition;

    private Claim(Generation generation, KeyBytes partition) {
      this.generation = generation;
      this.partition = partition;
    }
  }

  private final int capacity;
  private volatile Generation current = new Generation();

  /** Runs between a scan's read and its fill: lets a test put a commit in between. */
  volatile Runnable beforeFill = () -> {};

  /** {@code capacity}: rows in all partitions together; 0 turns the cache off. */
  PartitionCache(int capacity) {
    this.capacity = capacity;
  }

  /** The generation a scan must look in (and claim from) before it reads the store. */
  Generation current() {
    return current;
  }

  /**
   * Claims a partition missing from {@code g} for a scan about to read the store; null if the cache
   * is off or another scan is reading it (this one then reads without filling).
   */
  Claim claim(Generation g, KeyBytes partition) {
    if (capacity <= 0) {
      return null;
    }
    Claim claim = new Claim(g, partition);
    return g.partitions.putIfAbsent(partition, claim) == null ? claim : null;
  }

  /**
   * Puts what the claiming scan read (the whole partition, in key order), unless a commit wrote the
   * partition since the claim; {@code rows} null: the scan did not read the whole partition, or
   * failed.
   */
  void fill(Claim claim, List<? extends Record> rows) {
    if (claim == null) {
      return;
    }
    beforeFill.run();
    Generation g = claim.generation;
    if (rows == null || rows.size() > MAX_PARTITION_ROWS) {
      g.partitions.remove(claim.partition, claim);
      return;
    }
    if (g.partitions.replace(claim.partition, claim, List.copyOf(rows))
        && g.rows.addAndGet(Math.max(1, rows.size())) > capacity
        && current == g) {
      current = new Generation();
    }
  }

  /** Drops the partitions a commit wrote, once its batch is in the store. */
  void committed(Iterable<KeyBytes> partitions) {
    // No isEmpty() shortcut: a ConcurrentHashMap's count may lag behind a claim just made.
    Generation g = current;
    for (KeyBytes p : partitions) {
      g.partitions.remove(p);
    }
  }

  /** Forgets everything (after a write the cache cannot follow). */
  void clear() {
    current = new Generation();
  }
}
