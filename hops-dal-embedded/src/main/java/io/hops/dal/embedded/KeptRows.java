package io.hops.dal.embedded;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A kept partition: its rows in key order, with their row keys. Never changed once made.
 *
 * <p>The rows are held in chunks of at most {@link #CHUNK_ROWS}, so that a commit's new copy shares
 * every chunk but the ones it writes: a write into a directory of a thousand entries copies one
 * chunk and the chunk table, not the whole directory (a flat array's copy grew with the directory,
 * as its garbage did).
 */
final class KeptRows {
  /** The most rows a chunk holds; one more splits it in two. */
  static final int CHUNK_ROWS = 64;

  /** The rows a chunk of a partition read from the store gets: room for inserts before a split. */
  static final int FILLED_CHUNK_ROWS = 48;

  private static final KeptRows EMPTY =
      new KeptRows(new byte[0][][], new Object[0][], new byte[0][], new int[0]);

  /** Each chunk's row keys, in key order; no chunk is empty. */
  private final byte[][][] keys;

  private final Object[][] rows;

  /**
   * Each chunk's bound, so that finding a key's chunk reads one array of keys, as a B-tree's inner
   * node does, rather than every chunk's own: no key of the chunk is above its bound and every key
   * of the next chunk is (the last chunk's bound is never read). A chunk's last key when it is
   * made; a removal or a change of rows leaves the bound true, and an insert into a chunk other
   * than the last is below its bound, so only a split sets bounds.
   */
  private final byte[][] bounds;

  /** The rows in chunks {@code 0..c}, for each chunk {@code c}. */
  private final int[] ends;

  private KeptRows(byte[][][] keys, Object[][] rows, byte[][] bounds, int[] ends) {
    this.keys = keys;
    this.rows = rows;
    this.bounds = bounds;
    this.ends = ends;
  }

  /** {@code rows} as read from the store, in key order, with their keys. */
  static KeptRows of(List<byte[]> keys, List<?> rows) {
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
    return new KeptRows(k, r, l, e);
  }

  int size() {
    return ends.length == 0 ? 0 : ends[ends.length - 1];
  }

  /**
   * The heap this partition takes ({@link HeapEstimate}): its rows and keys, and the chunk arrays
   * that hold them. A commit's copy shares all chunks but the ones it writes, so two versions of a
   * partition take less than twice this.
   */
  long bytes() {
    long bytes =
        HeapEstimate.align(HeapEstimate.HEADER + 4 * HeapEstimate.REF)
            + 3 * HeapEstimate.array(keys.length * HeapEstimate.REF)
            + HeapEstimate.array(ends.length * 4);
    for (int c = 0; c < keys.length; c++) {
      bytes += 2 * HeapEstimate.array(keys[c].length * HeapEstimate.REF);
      for (int i = 0; i < keys[c].length; i++) {
        bytes += HeapEstimate.array(keys[c][i].length) + HeapEstimate.row(rows[c][i]);
      }
    }
    return bytes;
  }

  /**
   * KeptRows {@code from} (inclusive) to {@code to} (exclusive), in key order, added to {@code
   * out}.
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
   * As {@link Arrays#binarySearch(Object[], Object, java.util.Comparator)} by unsigned byte order,
   * written out: the library's search calls its comparator through a call site that every caller in
   * the process shares, so the comparison is not inlined.
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
   * The rows of {@code keys} (each in this partition), or {@link RowCache#ABSENT} for those it does
   * not hold, in the keys' order. Keys in ascending order (a directory's children as a scan
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
   * This partition with a commit's rows (a row, or {@link RowCache#ABSENT}, by row key) in place of
   * what it held for their keys; null if that is more than {@link
   * PartitionCache#MAX_PARTITION_ROWS}.
   */
  KeptRows with(Map<KeyBytes, Object> written) {
    KeptRows next = this;
    for (Map.Entry<KeyBytes, Object> w : written.entrySet()) {
      next = next.with(w.getKey().bytes(), w.getValue());
    }
    return next.size() > PartitionCache.MAX_PARTITION_ROWS ? null : next;
  }

  /** A copy with {@code row} (or {@link RowCache#ABSENT}: none) as {@code key}'s row. */
  private KeptRows with(byte[] key, Object row) {
    if (keys.length == 0) {
      return row == RowCache.ABSENT
          ? this
          : new KeptRows(
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
  private KeptRows replace(int c, byte[][] chunkKeys, Object[] chunkRows, int added) {
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
    return new KeptRows(k, r, bounds, e);
  }

  /** A copy without chunk {@code c}, which held one row. */
  private KeptRows without(int c) {
    byte[][][] k = removed(keys, c);
    Object[][] r = removed(rows, c);
    int[] e = new int[ends.length - 1];
    for (int j = 0; j < e.length; j++) {
      e[j] = j < c ? ends[j] : ends[j + 1] - 1;
    }
    return new KeptRows(k, r, removed(bounds, c), e);
  }

  /** A copy with chunk {@code c} replaced by the two halves of what it grew to. */
  private KeptRows split(int c, byte[][] grownKeys, Object[] grownRows) {
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
    return new KeptRows(k, r, l, e);
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
