package io.hops.dal.embedded;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whole partitions of one store, decoded and in key order, for partition scans (a directory's
 * children, a file's blocks and replicas) and for point reads of their rows: a scan that finds its
 * partition here takes no iterator, a point read no lookup in the store. An iterator's cost grows
 * with what the range held and no longer holds (the delete markers of renamed and deleted children,
 * the older versions of a directory row updated by every create in it), a kept partition's does
 * not.
 *
 * <p>As the {@link RowCache}: only this process writes the store, and every commit applies its rows
 * to the partitions it wrote after its batch is in the store and before it releases its locks, so a
 * read under a lock finds the latest commit. Two commits that write one partition at once write
 * different rows (each holds its rows' locks), and a commit's rows replace whatever the partition
 * holds for their keys, so the order in which they apply does not matter. A scan that misses claims
 * its partition with a token <em>before</em> it reads the store and replaces the token with what it
 * read only if the token is still there: a commit that wrote the partition meanwhile removed it (so
 * the older read is dropped), and a commit that applied before the claim wrote the store before the
 * read began (so the read sees it); a commit that applies after the fill applies to what was read.
 * Partitions larger than {@link #MAX_PARTITION_ROWS} are not kept.
 *
 * <p>It also keeps summaries of partitions of any size, by the same rules ({@link KeptFolds}).
 *
 * <p>Of a partition too large to keep but written into again and again (a directory of thousands of
 * entries that keeps growing) it keeps the row keys alone ({@link KeptNames}), so that a write's
 * lookup of a key that is not there (the name a create takes) is answered from memory rather than
 * by probing every sorted run of the store. The names follow commits in place; a commit while they
 * are being read is told to the reader, which applies it after its read ({@link NamesClaim}).
 *
 * <p>Past half its bound in bytes ({@link HeapEstimate} of what each map holds) the cache starts a
 * new generation, so the two hold the bound and, at most, the entry that carried each past its half
 * (a partition of up to {@link #MAX_PARTITION_ROWS} rows, or names); the one before stays readable
 * until the next: a partition found there is moved into the new one (as a claim and its fill, so
 * that a commit in between drops it), so the partitions in use survive a turnover and only those
 * left unused for a whole generation are read again. Every commit applies to both generations, the
 * older first; a commit that overlapped a turnover also applies to the generation that turnover
 * made, and one that overlapped two drops everything. After any write whose rows it cannot follow
 * the cache drops both generations.
 */
final class PartitionCache {
  /** The largest partition kept: a directory listing of {@code dfs.ls.limit} entries fits. */
  static final int MAX_PARTITION_ROWS = 1024;

  /**
   * The largest partition a write fills ({@link #fillOnWrite}): reading it costs a transaction
   * about as much as a few dozen point reads, once, where a partition that a listing fills may be
   * as large as {@link #MAX_PARTITION_ROWS}.
   */
  static final int MAX_ROWS_FILLED_ON_WRITE = 128;

  /** The largest partition whose names are kept ({@link KeptNames}). */
  static final int MAX_NAMES = 1 << 16;

  /**
   * In a generation's partitions: a partition a scan found larger than {@link #MAX_PARTITION_ROWS}.
   * Later scans of it in the generation claim nothing and so copy out no keys; a hint about cost,
   * kept across commits, never about rows.
   */
  private static final Object OVERSIZED = new Object();

  /** The generation being filled, and the one before it (read, and moved from, until the next). */
  record Generations(Generation current, Generation previous) {}

  /** The heap one generation's entries may take, past which a new one starts; 0: off. */
  private final long capacity;

  private final CacheStats stats = new CacheStats();

  private final AtomicReference<Generations> generations =
      new AtomicReference<>(new Generations(new Generation(), new Generation()));

  private final KeptFolds folds = new KeptFolds(this);

  /** Runs between a scan's read and its fill: lets a test put a commit in between. */
  volatile Runnable beforeFill = () -> {};

  /** Runs between a move's read of the older generation and its fill of the current one. */
  volatile Runnable beforeMove = () -> {};

  /** {@code maxBytes}: the heap both generations may take; 0 turns the cache off. */
  PartitionCache(long maxBytes) {
    this.capacity = maxBytes / 2;
  }

  /** Partition scans and point reads answered here, and those that went to the store. */
  CacheStats stats() {
    return stats;
  }

  /** The heap both generations take, estimated. */
  long bytes() {
    Generations gs = generations.get();
    return gs.current.bytes.get() + gs.previous.bytes.get();
  }

  /** The entries of both generations: kept partitions, names, summaries and write misses. */
  int entries() {
    Generations gs = generations.get();
    return entries(gs.current) + entries(gs.previous);
  }

  private static int entries(Generation g) {
    return g.partitions.size() + g.names.size() + g.folds.size() + g.writeMisses.size();
  }

  /** The heap an entry of a generation's maps takes, besides what it holds. */
  static long entryBytes(KeyBytes partition) {
    return HeapEstimate.MAP_ENTRY + HeapEstimate.key(partition.bytes().length);
  }

  /** The generation a scan must look in (and claim from) before it reads the store. */
  Generation current() {
    return generations.get().current;
  }

  /** Both generations, as one snapshot. */
  Generations generations() {
    return generations.get();
  }

  /** Whether the cache keeps anything (a capacity of 0 turns it off). */
  boolean on() {
    return capacity > 0;
  }

  /** The summaries of partitions this cache keeps ({@link KeptFolds}). */
  KeptFolds folds() {
    return folds;
  }

  /**
   * The kept rows of {@code partition} in the current generation or, moved into it, in the one
   * before; null if neither keeps it.
   */
  KeptRows get(KeyBytes partition) {
    Generations gs = generations.get();
    Object kept = gs.current.partitions.get(partition);
    if (kept instanceof KeptRows rows) {
      return rows;
    }
    KeptRows older = gs.previous.get(partition);
    if (older == null || kept != null) {
      return older; // kept != null: a scan is filling it; the older rows are still the latest
    }
    PartitionClaim claim = claim(gs.current, partition);
    // Read again after the claim: a commit that applied before it applied to the older rows first.
    KeptRows moved = gs.previous.get(partition);
    if (claim != null) {
      beforeMove.run();
      if (moved == null) {
        gs.current.partitions.remove(partition, claim);
      } else if (gs.current.partitions.replace(partition, claim, moved)) {
        grew(gs.current, entryBytes(partition) + moved.bytes());
      }
    }
    return moved;
  }

  /**
   * Claims a partition missing from {@code g} for a scan about to read the store; null if the cache
   * is off, another scan is reading it (this one then reads without filling), or it was found too
   * large to keep.
   */
  PartitionClaim claim(Generation g, KeyBytes partition) {
    if (capacity <= 0) {
      return null;
    }
    PartitionClaim claim = new PartitionClaim(g, partition);
    return g.partitions.putIfAbsent(partition, claim) == null ? claim : null;
  }

  /**
   * Puts what the claiming scan read (the whole partition, in key order, and the rows' keys),
   * unless a commit wrote the partition since the claim; {@code rows} null: the scan did not read
   * the whole partition, or failed.
   */
  void fill(PartitionClaim claim, List<byte[]> keys, List<? extends Record> rows) {
    if (claim == null) {
      return;
    }
    beforeFill.run();
    Generation g = claim.generation;
    if (rows == null || rows.size() > MAX_PARTITION_ROWS) {
      g.partitions.remove(claim.partition, claim);
      return;
    }
    KeptRows kept = KeptRows.of(keys, rows);
    if (g.partitions.replace(claim.partition, claim, kept)) {
      grew(g, entryBytes(claim.partition) + kept.bytes());
    }
  }

  /**
   * In place of {@link #fill}: the claiming scan found more than {@link #MAX_PARTITION_ROWS} rows
   * (and may have copied out only that many keys); later scans in this generation do not claim it.
   */
  void oversized(PartitionClaim claim) {
    if (claim == null) {
      return;
    }
    beforeFill.run();
    if (claim.generation.partitions.replace(claim.partition, claim, OVERSIZED)) {
      grew(claim.generation, entryBytes(claim.partition));
    }
  }

  /** What writes found of a partition they missed rows of. */
  enum WriteMiss {
    /** One write missed a row of it. */
    ONCE,
    /** A write read it and found it larger than {@link #MAX_ROWS_FILLED_ON_WRITE}. */
    TOO_LARGE
  }

  /** What a write that missed a row in both caches reads of the row's partition. */
  enum WriteFill {
    /** Nothing: it looks the row up. */
    NOTHING,
    /** The whole partition, up to one row more than {@link #MAX_ROWS_FILLED_ON_WRITE}. */
    ROWS,
    /** Its row keys, up to one more than {@link #MAX_NAMES} ({@link #claimNames}). */
    NAMES
  }

  /**
   * What a write that missed a row of {@code partition} (in the row cache and here) should read of
   * it rather than look the row up: the whole partition on its second such miss in {@code g}; its
   * names on any later miss once it was found too large for that. A write into a directory is often
   * followed by more (a job's outputs, a client's renames), and then every later lookup of a name
   * being created is answered from memory; a one-off write pays one lookup, as before.
   */
  WriteFill fillOnWrite(Generation g, KeyBytes partition) {
    if (capacity <= 0) {
      return WriteFill.NOTHING;
    }
    WriteMiss before = g.writeMisses.putIfAbsent(partition, WriteMiss.ONCE);
    if (before == null) {
      grew(g, entryBytes(partition));
      return WriteFill.NOTHING;
    }
    return before == WriteMiss.ONCE ? WriteFill.ROWS : WriteFill.NAMES;
  }

  /** A write found {@code partition} larger than it fills: later writes read its names. */
  void tooLargeToFillOnWrite(Generation g, KeyBytes partition) {
    g.writeMisses.put(partition, WriteMiss.TOO_LARGE);
  }

  /**
   * The names of {@code partition} kept in the current generation or, moved into it, in the one
   * before; null if neither keeps them. The same names move: they change in place, and every commit
   * applies to both generations.
   */
  KeptNames names(KeyBytes partition) {
    Generations gs = generations.get();
    Object kept = gs.current.names.get(partition);
    if (kept instanceof KeptNames names) {
      return names;
    }
    if (!(gs.previous.names.get(partition) instanceof KeptNames older)) {
      return null;
    }
    if (kept == null && gs.current.names.putIfAbsent(partition, older) == null) {
      grew(gs.current, entryBytes(partition) + older.bytes());
    }
    return older; // kept != null: a write is reading them; the older names are still the latest
  }

  /**
   * Claims {@code partition} in {@code g} for a write about to read its names; null if the cache is
   * off or {@code g} has its names, a claim of them, or found them too many.
   */
  NamesClaim claimNames(Generation g, KeyBytes partition) {
    if (capacity <= 0 || g.names.get(partition) != null) {
      return null;
    }
    NamesClaim claim = new NamesClaim(g, partition);
    return g.names.putIfAbsent(partition, claim) == null ? claim : null;
  }

  /**
   * Puts the names the claiming write read (every row key of the partition, in key order), with
   * what commits wrote meanwhile, in the claim's place; {@code keys} null: the read failed; more
   * than {@link #MAX_NAMES}: later writes in this generation look their rows up.
   */
  void fillNames(NamesClaim claim, List<byte[]> keys) {
    beforeFill.run();
    Generation g = claim.generation;
    KeptNames names = keys == null || keys.size() > MAX_NAMES ? null : new KeptNames(keys);
    Object in = names != null ? names : keys != null ? OVERSIZED : null;
    boolean placed;
    synchronized (claim) {
      claim.done = true;
      if (names != null) {
        names.apply(claim.meanwhile);
      }
      placed =
          in == null
              ? g.names.remove(claim.partition, claim)
              : g.names.replace(claim.partition, claim, in);
    }
    if (placed && in != null) {
      grew(g, entryBytes(claim.partition) + (names == null ? 0 : names.bytes()));
    }
  }

  /** {@code g} keeps {@code bytes} more; past the capacity a new generation starts. */
  void grew(Generation g, long bytes) {
    if (g.bytes.addAndGet(bytes) > capacity) {
      Generations gs = generations.get();
      if (gs.current == g) {
        generations.compareAndSet(gs, new Generations(new Generation(), g));
      }
    }
  }

  /**
   * Applies a commit's rows (a row, or {@link RowCache#ABSENT}, by row key, by partition) to the
   * partitions it kept, once the commit's batch is in the store; a scan's claim on one of them is
   * dropped.
   */
  void committed(Map<KeyBytes, Map<KeyBytes, Object>> written) {
    // No isEmpty() shortcut: a ConcurrentHashMap's count may lag behind a claim just made.
    Generations seen = generations.get();
    apply(seen.previous, written);
    apply(seen.current, written);
    for (Generations now = generations.get(); now != seen; now = generations.get()) {
      if (now.previous != seen.current) {
        clear(); // two turnovers during this commit
        return;
      }
      // A turnover during this commit: the new generation may have moved a partition from the
      // older before this commit applied to it.
      apply(now.current, written);
      seen = now;
    }
  }

  private void apply(Generation g, Map<KeyBytes, Map<KeyBytes, Object>> written) {
    for (Map.Entry<KeyBytes, Map<KeyBytes, Object>> p : written.entrySet()) {
      g.folds.remove(p.getKey()); // a summary, or a fold's claim: made before this commit
      applyToNames(g, p.getKey(), p.getValue());
      applyToRows(g, p.getKey(), p.getValue());
    }
  }

  /**
   * Puts a commit's rows into the rows {@code g} keeps of {@code partition}; a scan's claim on them
   * is dropped. The copy is made outside the map's lock and swapped in if nobody changed the entry
   * meanwhile (else made again): the handlers of one hot directory commit into the same partition
   * at the same moment, and a copy made under the lock kept the other handler spinning on it.
   */
  private void applyToRows(Generation g, KeyBytes partition, Map<KeyBytes, Object> written) {
    while (true) {
      Object kept = g.partitions.get(partition);
      if (kept == null || kept == OVERSIZED) {
        return;
      }
      if (!(kept instanceof KeptRows rows)) {
        if (g.partitions.remove(partition, kept)) {
          return;
        }
        continue;
      }
      KeptRows next = rows.with(written);
      if (next == null) {
        if (g.partitions.remove(partition, kept)) {
          return;
        }
      } else if (g.partitions.replace(partition, kept, next)) {
        long added = addedBytes(written, next.size() - rows.size());
        if (added > 0) {
          grew(g, added);
        }
        return;
      }
    }
  }

  /**
   * The heap {@code added} new rows of a partition take, as the mean of the rows a commit wrote:
   * the rows it replaced and those it added are not told apart.
   */
  private static long addedBytes(Map<KeyBytes, Object> written, int added) {
    if (added <= 0) {
      return 0;
    }
    long bytes = 0;
    int n = 0;
    for (Map.Entry<KeyBytes, Object> w : written.entrySet()) {
      if (w.getValue() != RowCache.ABSENT) {
        bytes += HeapEstimate.array(w.getKey().bytes().length) + HeapEstimate.row(w.getValue());
        n++;
      }
    }
    return n == 0 ? 0 : bytes * added / n + added * 2L * HeapEstimate.REF;
  }

  /**
   * Applies a commit's rows to the names {@code g} keeps of {@code partition}, or writes them down
   * in a claim on them. Names grown past {@link #MAX_NAMES} are dropped.
   */
  private void applyToNames(Generation g, KeyBytes partition, Map<KeyBytes, Object> written) {
    Object kept = g.names.get(partition);
    if (kept == null || kept == OVERSIZED) {
      return;
    }
    if (kept instanceof NamesClaim claim && !claim.note(written)) {
      kept = g.names.get(partition); // the claim is done: its names are in its place
    }
    if (kept instanceof KeptNames names) {
      int added = names.apply(written);
      if (names.size() > MAX_NAMES) {
        g.names.replace(partition, names, OVERSIZED);
      } else if (added > 0) {
        grew(g, added * KeptNames.nameBytes(written.keySet().iterator().next().bytes().length));
      }
    }
  }

  /** Forgets everything (after a write the cache cannot follow). */
  void clear() {
    generations.set(new Generations(new Generation(), new Generation()));
  }
}
