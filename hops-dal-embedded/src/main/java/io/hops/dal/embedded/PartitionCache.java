package io.hops.dal.embedded;

import io.hops.dal.PartitionFold;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
 * <p>It also keeps summaries of partitions of any size ({@link PartitionFold}: a directory's files
 * counted and their lengths added up), by the same rules: a fold claims the partition before it
 * reads the rows, keeps what it made only if the claim is still there, and every commit drops the
 * summaries (and claims) of the partitions it wrote. A content summary of a big directory then
 * reads one summary, not thousands of rows, until the directory changes.
 *
 * <p>Of a partition too large to keep but written into again and again (a directory of thousands of
 * entries that keeps growing) it keeps the row keys alone ({@link Names}), so that a write's lookup
 * of a key that is not there (the name a create takes) is answered from memory rather than by
 * probing every sorted run of the store. The names follow commits in place; a commit while they are
 * being read is told to the reader, which applies it after its read ({@link NamesClaim}).
 *
 * <p>Past its capacity in rows the cache starts a new generation, and the one before stays readable
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

  /** The largest partition whose names are kept ({@link Names}). */
  static final int MAX_NAMES = 1 << 16;

  /**
   * Names counted as one row of the cache's capacity: a name takes about a third of the heap of a
   * kept row (its key and a set's entry, against the key, the decoded row and the chunk slots).
   */
  static final int NAMES_PER_ROW = 3;

  /**
   * A kept partition: its rows in key order, with their row keys. Never changed once made.
   *
   * <p>The rows are held in chunks of at most {@link #CHUNK_ROWS}, so that a commit's new copy
   * shares every chunk but the ones it writes: a write into a directory of a thousand entries
   * copies one chunk and the chunk table, not the whole directory (a flat array's copy grew with
   * the directory, as its garbage did).
   */
  static final class Rows {
    /** The most rows a chunk holds; one more splits it in two. */
    static final int CHUNK_ROWS = 64;

    /**
     * The rows a chunk of a partition read from the store gets: room for inserts before a split.
     */
    static final int FILLED_CHUNK_ROWS = 48;

    private static final Rows EMPTY =
        new Rows(new byte[0][][], new Object[0][], new byte[0][], new int[0]);

    /** Each chunk's row keys, in key order; no chunk is empty. */
    private final byte[][][] keys;

    private final Object[][] rows;

    /**
     * Each chunk's bound, so that finding a key's chunk reads one array of keys, as a B-tree's
     * inner node does, rather than every chunk's own: no key of the chunk is above its bound and
     * every key of the next chunk is (the last chunk's bound is never read). A chunk's last key
     * when it is made; a removal or a change of rows leaves the bound true, and an insert into a
     * chunk other than the last is below its bound, so only a split sets bounds.
     */
    private final byte[][] bounds;

    /** The rows in chunks {@code 0..c}, for each chunk {@code c}. */
    private final int[] ends;

    private Rows(byte[][][] keys, Object[][] rows, byte[][] bounds, int[] ends) {
      this.keys = keys;
      this.rows = rows;
      this.bounds = bounds;
      this.ends = ends;
    }

    /** {@code rows} as read from the store, in key order, with their keys. */
    static Rows of(List<byte[]> keys, List<?> rows) {
      int n = keys.size();
      if (n == 0) {
        return EMPTY;
      }
      int chunks = (n + FILLED_CHUNK_ROWS - 1) / FILLED_CHUNK_ROWS;
      byte[][][] k = new byte[chunks][][];
      Object[][] r = new Object[chunks][];
      byte[][] l = new byte[chunks][];
      int[] e = new int[chunks];
      for (int c = 0; c < chunks; c++) {
        int from = c * FILLED_CHUNK_ROWS;
        int to = Math.min(n, from + FILLED_CHUNK_ROWS);
        k[c] = keys.subList(from, to).toArray(new byte[0][]);
        r[c] = rows.subList(from, to).toArray();
        l[c] = keys.get(to - 1);
        e[c] = to;
      }
      return new Rows(k, r, l, e);
    }

    int size() {
      return ends.length == 0 ? 0 : ends[ends.length - 1];
    }

    /**
     * Rows {@code from} (inclusive) to {@code to} (exclusive), in key order, added to {@code out}.
     */
    <R> void addTo(List<R> out, Class<R> type, int from, int to) {
      if (from >= to) {
        return;
      }
      int c = chunkAt(from);
      int i = from - start(c);
      for (int n = from; n < to; n++, i++) {
        if (i == rows[c].length) {
          c++;
          i = 0;
        }
        out.add(type.cast(rows[c][i]));
      }
    }

    /** The chunk that holds position {@code at} (which is below {@link #size()}). */
    private int chunkAt(int at) {
      int low = 0;
      int high = ends.length - 1;
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (ends[mid] <= at) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    private int start(int chunk) {
      return chunk == 0 ? 0 : ends[chunk - 1];
    }

    /**
     * The chunk in which {@code key} is or would go: the first whose bound is not below it, or the
     * last chunk. There is at least one chunk.
     */
    private int chunkOf(byte[] key) {
      int low = 0;
      int high = bounds.length - 1;
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (Arrays.compareUnsigned(bounds[mid], key) < 0) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    /**
     * As {@link Arrays#binarySearch(Object[], Object, java.util.Comparator)} by unsigned byte
     * order, written out: the library's search calls its comparator through a call site that every
     * caller in the process shares, so the comparison is not inlined.
     */
    private static int search(byte[][] keys, byte[] key) {
      return search(keys, 0, key);
    }

    /** As {@link #search(byte[][], byte[])} among {@code keys} from position {@code from} on. */
    private static int search(byte[][] keys, int from, byte[] key) {
      int low = from;
      int high = keys.length - 1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        int c = Arrays.compareUnsigned(keys[mid], key);
        if (c < 0) {
          low = mid + 1;
        } else if (c > 0) {
          high = mid - 1;
        } else {
          return mid;
        }
      }
      return -(low + 1);
    }

    /** The position of the first row whose key comes after {@code after}. */
    int firstAfter(byte[] after) {
      if (keys.length == 0) {
        return 0;
      }
      int c = chunkOf(after);
      int i = search(keys[c], after);
      return start(c) + (i >= 0 ? i + 1 : -i - 1);
    }

    /** The row of {@code key} (which is in this partition), or {@link RowCache#ABSENT}. */
    Object find(byte[] key) {
      if (keys.length == 0) {
        return RowCache.ABSENT;
      }
      int c = chunkOf(key);
      int i = search(keys[c], key);
      return i >= 0 ? rows[c][i] : RowCache.ABSENT;
    }

    /**
     * The rows of {@code keys} (each in this partition), or {@link RowCache#ABSENT} for those it
     * does not hold, in the keys' order. Keys in ascending order (a directory's children as a scan
     * returned them) are each searched for only past the one before.
     */
    Object[] findAll(List<KeyBytes> wanted) {
      Object[] found = new Object[wanted.size()];
      if (keys.length == 0) {
        Arrays.fill(found, RowCache.ABSENT);
        return found;
      }
      int c = 0;
      int i = 0;
      byte[] previous = null;
      for (int w = 0; w < found.length; w++) {
        byte[] key = wanted.get(w).bytes();
        if (previous != null && Arrays.compareUnsigned(previous, key) > 0) {
          c = 0; // out of order: start over
          i = 0;
        }
        previous = key;
        while (c < bounds.length - 1 && Arrays.compareUnsigned(bounds[c], key) < 0) {
          c++;
          i = 0;
        }
        int at = search(keys[c], i, key);
        found[w] = at >= 0 ? rows[c][at] : RowCache.ABSENT;
        i = at >= 0 ? at + 1 : -at - 1;
      }
      return found;
    }

    /**
     * This partition with a commit's rows (a row, or {@link RowCache#ABSENT}, by row key) in place
     * of what it held for their keys; null if that is more than {@link #MAX_PARTITION_ROWS}.
     */
    Rows with(Map<KeyBytes, Object> written) {
      Rows next = this;
      for (Map.Entry<KeyBytes, Object> w : written.entrySet()) {
        next = next.with(w.getKey().bytes(), w.getValue());
      }
      return next.size() > MAX_PARTITION_ROWS ? null : next;
    }

    /** A copy with {@code row} (or {@link RowCache#ABSENT}: none) as {@code key}'s row. */
    private Rows with(byte[] key, Object row) {
      if (keys.length == 0) {
        return row == RowCache.ABSENT
            ? this
            : new Rows(
                new byte[][][] {{key}}, new Object[][] {{row}}, new byte[][] {key}, new int[] {1});
      }
      int c = chunkOf(key);
      byte[][] k = keys[c];
      Object[] r = rows[c];
      int i = search(k, key);
      if (i >= 0) {
        if (row != RowCache.ABSENT) {
          Object[] replaced = r.clone();
          replaced[i] = row;
          return replace(c, k, replaced, 0);
        }
        if (k.length == 1) {
          return without(c);
        }
        return replace(c, removed(k, i), removed(r, i), -1);
      }
      if (row == RowCache.ABSENT) {
        return this;
      }
      int at = -i - 1;
      byte[][] grownKeys = inserted(k, at, key);
      Object[] grownRows = inserted(r, at, row);
      return grownKeys.length > CHUNK_ROWS
          ? split(c, grownKeys, grownRows)
          : replace(c, grownKeys, grownRows, 1);
    }

    /** A copy with chunk {@code c} replaced, {@code added} rows more (or fewer) than it had. */
    private Rows replace(int c, byte[][] chunkKeys, Object[] chunkRows, int added) {
      byte[][][] k = keys.clone();
      Object[][] r = rows.clone();
      k[c] = chunkKeys;
      r[c] = chunkRows;
      int[] e = ends;
      if (added != 0) {
        e = ends.clone();
        for (int j = c; j < e.length; j++) {
          e[j] += added;
        }
      }
      return new Rows(k, r, bounds, e);
    }

    /** A copy without chunk {@code c}, which held one row. */
    private Rows without(int c) {
      byte[][][] k = removed(keys, c);
      Object[][] r = removed(rows, c);
      int[] e = new int[ends.length - 1];
      for (int j = 0; j < e.length; j++) {
        e[j] = j < c ? ends[j] : ends[j + 1] - 1;
      }
      return new Rows(k, r, removed(bounds, c), e);
    }

    /** A copy with chunk {@code c} replaced by the two halves of what it grew to. */
    private Rows split(int c, byte[][] grownKeys, Object[] grownRows) {
      int half = grownKeys.length / 2;
      byte[][][] k = new byte[keys.length + 1][][];
      Object[][] r = new Object[rows.length + 1][];
      byte[][] l = new byte[bounds.length + 1][];
      int[] e = new int[ends.length + 1];
      System.arraycopy(keys, 0, k, 0, c);
      System.arraycopy(rows, 0, r, 0, c);
      System.arraycopy(bounds, 0, l, 0, c);
      System.arraycopy(ends, 0, e, 0, c);
      k[c] = Arrays.copyOfRange(grownKeys, 0, half);
      r[c] = Arrays.copyOfRange(grownRows, 0, half);
      l[c] = grownKeys[half - 1];
      e[c] = start(c) + half;
      k[c + 1] = Arrays.copyOfRange(grownKeys, half, grownKeys.length);
      r[c + 1] = Arrays.copyOfRange(grownRows, half, grownRows.length);
      l[c + 1] = grownKeys[grownKeys.length - 1];
      System.arraycopy(keys, c + 1, k, c + 2, keys.length - c - 1);
      System.arraycopy(rows, c + 1, r, c + 2, rows.length - c - 1);
      System.arraycopy(bounds, c + 1, l, c + 2, bounds.length - c - 1);
      for (int j = c; j < ends.length; j++) {
        e[j + 1] = ends[j] + 1;
      }
      return new Rows(k, r, l, e);
    }

    private static <T> T[] inserted(T[] a, int at, T value) {
      T[] b = Arrays.copyOf(a, a.length + 1);
      System.arraycopy(a, at, b, at + 1, a.length - at);
      b[at] = value;
      return b;
    }

    private static <T> T[] removed(T[] a, int at) {
      T[] b = Arrays.copyOf(a, a.length - 1);
      System.arraycopy(a, at + 1, b, at, a.length - at - 1);
      return b;
    }

    /** The chunks, for tests: a write copies only the chunks it changes. */
    Object[][] chunks() {
      return rows;
    }
  }

  /**
   * In a generation's partitions: a partition a scan found larger than {@link #MAX_PARTITION_ROWS}.
   * Later scans of it in the generation claim nothing and so copy out no keys; a hint about cost,
   * kept across commits, never about rows.
   */
  private static final Object OVERSIZED = new Object();

  /**
   * The row keys of a partition (its names), for a write's lookup of a key that is not there.
   * Unlike {@link Rows} they change in place: every commit that writes the partition adds the keys
   * it puts and removes those it deletes before it releases their locks, so a reader that holds a
   * key's lock finds it here exactly when the store has it. Adding a key twice or removing it twice
   * changes nothing, so the same names may sit in both generations and a commit apply to them
   * twice.
   */
  static final class Names {
    private final Set<KeyBytes> keys;

    private Names(List<byte[]> read) {
      keys = ConcurrentHashMap.newKeySet(read.size()); // sized once for what was read
      for (byte[] k : read) {
        keys.add(new KeyBytes(k));
      }
    }

    /** Whether the partition has a row of {@code rowKey}. */
    boolean holds(KeyBytes rowKey) {
      return keys.contains(rowKey);
    }

    int size() {
      return keys.size();
    }

    /**
     * Applies a commit's rows (a row, or {@link RowCache#ABSENT}, by row key); returns how many
     * keys it added.
     */
    int apply(Map<KeyBytes, Object> written) {
      int added = 0;
      for (Map.Entry<KeyBytes, Object> w : written.entrySet()) {
        // A look first: most keys a commit puts are there already (a row updated, or the same
        // names applied to in both generations), and a look takes no lock.
        KeyBytes key = w.getKey();
        if (w.getValue() == RowCache.ABSENT) {
          if (keys.contains(key)) {
            keys.remove(key);
          }
        } else if (!keys.contains(key) && keys.add(key)) {
          added++;
        }
      }
      return added;
    }

    private int weight() {
      return Math.max(1, keys.size() / NAMES_PER_ROW);
    }
  }

  /**
   * A write's claim of a partition whose names it is reading. A commit to the partition meanwhile
   * is written down here rather than dropping the claim (a directory written into by many clients
   * would otherwise never keep its names); the reader applies what was written down to what it read
   * and puts the names in the claim's place in one step with marking it done, so a commit either is
   * written down before that or applies to the names after. A commit applied before the claim was
   * made is in the store before the read began.
   */
  static final class NamesClaim {
    private final Generation generation;
    private final KeyBytes partition;
    private final Map<KeyBytes, Object> meanwhile = new HashMap<>();
    private boolean done;

    private NamesClaim(Generation generation, KeyBytes partition) {
      this.generation = generation;
      this.partition = partition;
    }

    /** Writes a commit's rows down; false if the claim is done (the names are in its place). */
    private synchronized boolean note(Map<KeyBytes, Object> written) {
      if (done) {
        return false;
      }
      meanwhile.putAll(written); // a key's later commit comes later: it holds the key's lock
      return true;
    }
  }

  /** One generation: partition prefix → its {@link Rows}, a scan's claim, or {@link #OVERSIZED}. */
  static final class Generation {
    private final Map<KeyBytes, Object> partitions = new ConcurrentHashMap<>();
    private final AtomicInteger rows = new AtomicInteger();

    /**
     * The partitions in which a write missed a row that neither cache held. Hints about cost only,
     * never about rows; counted in {@link #rows}.
     */
    private final Map<KeyBytes, WriteMiss> writeMisses = new ConcurrentHashMap<>();

    /**
     * Partition prefix → a {@link PartitionFold}'s summary of its rows ({@link Folded}), or a
     * fold's claim. Counted in {@link #rows} by the summaries' weights.
     */
    private final Map<KeyBytes, Object> folds = new ConcurrentHashMap<>();

    /**
     * Partition prefix → its {@link Names}, a write's {@link NamesClaim}, or {@link #OVERSIZED}
     * (more than {@link #MAX_NAMES}). Counted in {@link #rows} by {@link Names#weight}.
     */
    private final Map<KeyBytes, Object> names = new ConcurrentHashMap<>();

    /** The partition's rows, or null if not kept. */
    Rows get(KeyBytes partition) {
      return partitions.get(partition) instanceof Rows rows ? rows : null;
    }
  }

  /** What {@code fold} made of a partition's rows, and its weight. */
  private record Folded(PartitionFold<?, ?> fold, Object summary, int weight) {}

  /** A fold's claim of a partition it is summarizing. */
  static final class FoldClaim {
    private final Generation generation;
    private final KeyBytes partition;
    private final PartitionFold<?, ?> fold;

    private FoldClaim(Generation generation, KeyBytes partition, PartitionFold<?, ?> fold) {
      this.generation = generation;
      this.partition = partition;
      this.fold = fold;
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

  /** The generation being filled, and the one before it (read, and moved from, until the next). */
  private record Generations(Generation current, Generation previous) {}

  /** Rows in all partitions of a generation, past which a new one starts; 0: off. */
  private final int capacity;

  private final AtomicReference<Generations> generations =
      new AtomicReference<>(new Generations(new Generation(), new Generation()));

  /** Runs between a scan's read and its fill: lets a test put a commit in between. */
  volatile Runnable beforeFill = () -> {};

  /** Runs between a move's read of the older generation and its fill of the current one. */
  volatile Runnable beforeMove = () -> {};

  /** {@code capacity}: rows in all partitions of a generation; 0 turns the cache off. */
  PartitionCache(int capacity) {
    this.capacity = capacity;
  }

  /** The generation a scan must look in (and claim from) before it reads the store. */
  Generation current() {
    return generations.get().current;
  }

  /**
   * The kept rows of {@code partition} in the current generation or, moved into it, in the one
   * before; null if neither keeps it.
   */
  Rows get(KeyBytes partition) {
    Generations gs = generations.get();
    Object kept = gs.current.partitions.get(partition);
    if (kept instanceof Rows rows) {
      return rows;
    }
    Rows older = gs.previous.get(partition);
    if (older == null || kept != null) {
      return older; // kept != null: a scan is filling it; the older rows are still the latest
    }
    Claim claim = claim(gs.current, partition);
    // Read again after the claim: a commit that applied before it applied to the older rows first.
    Rows moved = gs.previous.get(partition);
    if (claim != null) {
      beforeMove.run();
      if (moved == null) {
        gs.current.partitions.remove(partition, claim);
      } else if (gs.current.partitions.replace(partition, claim, moved)) {
        grew(gs.current, Math.max(1, moved.size()));
      }
    }
    return moved;
  }

  /**
   * Claims a partition missing from {@code g} for a scan about to read the store; null if the cache
   * is off, another scan is reading it (this one then reads without filling), or it was found too
   * large to keep.
   */
  Claim claim(Generation g, KeyBytes partition) {
    if (capacity <= 0) {
      return null;
    }
    Claim claim = new Claim(g, partition);
    return g.partitions.putIfAbsent(partition, claim) == null ? claim : null;
  }

  /**
   * Puts what the claiming scan read (the whole partition, in key order, and the rows' keys),
   * unless a commit wrote the partition since the claim; {@code rows} null: the scan did not read
   * the whole partition, or failed.
   */
  void fill(Claim claim, List<byte[]> keys, List<? extends Record> rows) {
    if (claim == null) {
      return;
    }
    beforeFill.run();
    Generation g = claim.generation;
    if (rows == null || rows.size() > MAX_PARTITION_ROWS) {
      g.partitions.remove(claim.partition, claim);
      return;
    }
    if (g.partitions.replace(claim.partition, claim, Rows.of(keys, rows))) {
      grew(g, Math.max(1, rows.size()));
    }
  }

  /**
   * In place of {@link #fill}: the claiming scan found more than {@link #MAX_PARTITION_ROWS} rows
   * (and may have copied out only that many keys); later scans in this generation do not claim it.
   */
  void oversized(Claim claim) {
    if (claim == null) {
      return;
    }
    beforeFill.run();
    if (claim.generation.partitions.replace(claim.partition, claim, OVERSIZED)) {
      grew(claim.generation, 1);
    }
  }

  /**
   * The summary {@code fold} made of {@code partition}'s rows, kept since no commit wrote the
   * partition, in the current generation or, moved into it, in the one before; null if neither
   * keeps one. As kept rows, a summary follows commits: every commit that writes the partition
   * drops it, before the commit releases its locks.
   */
  Object folded(KeyBytes partition, PartitionFold<?, ?> fold) {
    Generations gs = generations.get();
    Object kept = gs.current.folds.get(partition);
    if (kept != null) {
      return kept instanceof Folded f && f.fold == fold ? f.summary : null;
    }
    if (!(gs.previous.folds.get(partition) instanceof Folded older) || older.fold != fold) {
      return null;
    }
    FoldClaim claim = claimFold(gs.current, partition, fold);
    if (claim == null) {
      return older.summary; // still the latest: a commit would have dropped it
    }
    // Read again after the claim: a commit that applied before it dropped the older summary first.
    if (gs.previous.folds.get(partition) instanceof Folded moved && moved.fold == fold) {
      beforeMove.run();
      if (gs.current.folds.replace(partition, claim, moved)) {
        grew(gs.current, moved.weight);
      }
      return moved.summary;
    }
    gs.current.folds.remove(partition, claim);
    return null;
  }

  /**
   * Claims {@code partition} for a fold about to read its rows; null if the cache is off or the
   * partition has a summary or a claim already (the fold then keeps nothing).
   */
  FoldClaim claimFold(KeyBytes partition, PartitionFold<?, ?> fold) {
    return claimFold(current(), partition, fold);
  }

  private FoldClaim claimFold(Generation g, KeyBytes partition, PartitionFold<?, ?> fold) {
    if (capacity <= 0) {
      return null;
    }
    FoldClaim claim = new FoldClaim(g, partition, fold);
    return g.folds.putIfAbsent(partition, claim) == null ? claim : null;
  }

  /**
   * Keeps the summary the claiming fold made, unless a commit wrote the partition since the claim;
   * {@code summary} null: the fold failed.
   */
  void fillFold(FoldClaim claim, Object summary, int weight) {
    if (claim == null) {
      return;
    }
    beforeFill.run();
    Generation g = claim.generation;
    if (summary == null) {
      g.folds.remove(claim.partition, claim);
      return;
    }
    int w = Math.max(1, weight);
    if (g.folds.replace(claim.partition, claim, new Folded(claim.fold, summary, w))) {
      grew(g, w);
    }
  }

  /** What writes found of a partition they missed rows of. */
  private enum WriteMiss {
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
      grew(g, 1);
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
  Names names(KeyBytes partition) {
    Generations gs = generations.get();
    Object kept = gs.current.names.get(partition);
    if (kept instanceof Names names) {
      return names;
    }
    if (!(gs.previous.names.get(partition) instanceof Names older)) {
      return null;
    }
    if (kept == null && gs.current.names.putIfAbsent(partition, older) == null) {
      grew(gs.current, older.weight());
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
    Names names = keys == null || keys.size() > MAX_NAMES ? null : new Names(keys);
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
      grew(g, names == null ? 1 : names.weight());
    }
  }

  private void grew(Generation g, int rows) {
    if (g.rows.addAndGet(rows) > capacity) {
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
    int[] added = new int[1];
    for (Map.Entry<KeyBytes, Map<KeyBytes, Object>> p : written.entrySet()) {
      g.folds.remove(p.getKey()); // a summary, or a fold's claim: made before this commit
      applyToNames(g, p.getKey(), p.getValue());
      added[0] = 0;
      g.partitions.computeIfPresent(
          p.getKey(),
          (k, kept) -> {
            if (kept == OVERSIZED) {
              return kept;
            }
            if (!(kept instanceof Rows rows)) {
              return null;
            }
            Rows next = rows.with(p.getValue());
            added[0] = next == null ? 0 : next.size() - rows.size();
            return next;
          });
      if (added[0] > 0) {
        grew(g, added[0]);
      }
    }
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
    if (kept instanceof Names names) {
      int added = names.apply(written);
      if (names.size() > MAX_NAMES) {
        g.names.replace(partition, names, OVERSIZED);
      } else if (added > 0) {
        grew(g, (added + NAMES_PER_ROW - 1) / NAMES_PER_ROW);
      }
    }
  }

  /** Forgets everything (after a write the cache cannot follow). */
  void clear() {
    generations.set(new Generations(new Generation(), new Generation()));
  }
}
