package io.hops.dal.embedded;

import io.hops.dal.PartitionFold;
import io.hops.dal.StorageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * Scans of rows by key prefix: a page of a partition, a whole one (kept by the {@link
 * PartitionCache} once read, and answered from it), or a partition's summary ({@link
 * PartitionFold}). A scan from the store reads at the sequence number its iterator was created at.
 */
final class PartitionScans {
  private final RocksStore store;
  private final PrefixReads prefixes;

  PartitionScans(RocksStore store, PrefixReads prefixes) {
    this.store = store;
    this.prefixes = prefixes;
  }

  /**
   * The rows whose key starts with {@code prefix}, in key order; none, without a read, if the
   * prefix is above every key the table ever had ({@link HighWaters}).
   */
  <R extends Record> List<R> scan(StoredTable<R> t, byte[] prefix) throws StorageException {
    return scanFrom(t, prefix, null, Integer.MAX_VALUE);
  }

  /**
   * At most {@code limit} rows whose key starts with {@code prefix} and comes after {@code after}
   * (null: from the prefix's first), in key order: one seek and {@code limit} steps.
   */
  <R extends Record> List<R> scanFrom(StoredTable<R> t, byte[] prefix, byte[] after, int limit)
      throws StorageException {
    if (store.highWaters().neverHeld(prefixes, t.rowSpace, prefix)) {
      return new ArrayList<>();
    }
    if (!t.isPartition(prefix)) {
      return fromStore(t, prefix, after, limit, null);
    }
    PartitionCache cache = store.partitions();
    KeyBytes partition = new KeyBytes(prefix);
    Generation g = cache.current(); // before the store is read
    KeptRows cached = cache.get(partition);
    if (cached != null) {
      cache.stats().hit();
      int from = after == null ? 0 : cached.firstAfter(after);
      return rowsOf(t, cached, from, Math.min(cached.size(), from + Math.max(0, limit)));
    }
    cache.stats().miss();
    // Only a read from the partition's start that ends before the limit has the whole partition.
    PartitionClaim claim = after == null ? cache.claim(g, partition) : null;
    List<byte[]> keys = claim == null ? null : new ArrayList<>();
    List<R> rows = null;
    try {
      rows = fromStore(t, prefix, after, limit, keys);
    } finally {
      if (rows != null && rows.size() > PartitionCache.MAX_PARTITION_ROWS) {
        cache.oversized(claim);
      } else {
        cache.fill(claim, keys, rows != null && rows.size() < limit ? rows : null);
      }
    }
    return rows;
  }

  /**
   * The rows whose key starts with {@code prefix}, folded; for a whole partition, the summary that
   * the {@link KeptFolds} keep of it since the last commit that wrote it, or one made now and kept.
   * The claim comes before the rows are read, from the kept partition or the store.
   */
  <R extends Record, A> A fold(StoredTable<R> t, byte[] prefix, PartitionFold<R, A> fold)
      throws StorageException {
    if (!t.isPartition(prefix)) {
      return fold.fold(scan(t, prefix));
    }
    KeptFolds folds = store.partitions().folds();
    KeyBytes partition = new KeyBytes(prefix);
    Object kept = folds.folded(partition, fold);
    if (kept != null) {
      @SuppressWarnings("unchecked") // kept by this very fold, compared by identity
      A summary = (A) kept;
      return summary;
    }
    FoldClaim claim = folds.claim(partition, fold);
    A summary = null;
    try {
      summary = fold.fold(scan(t, prefix));
    } finally {
      folds.fill(claim, summary, summary == null ? 0 : fold.weight(summary));
    }
    return summary;
  }

  /**
   * As {@link #scanFrom} from the store; the rows' keys go to {@code keys} unless it is null, up to
   * one more than a kept partition holds (enough to tell that it is too large to keep). Each value
   * is copied into this thread's buffer and decoded there: an array of its own per value, made by
   * JNI, cost more than the copy.
   */
  <R extends Record> List<R> fromStore(
      StoredTable<R> t, byte[] prefix, byte[] after, int limit, List<byte[]> keys)
      throws StorageException {
    List<R> rows = new ArrayList<>();
    boolean fromAfter = after != null && Arrays.compareUnsigned(after, prefix) > 0;
    byte[] start = fromAfter ? after : prefix;
    byte[] end = OrderedBytes.prefixEnd(prefix);
    store.use(
        "page of " + t.table,
        db -> {
          try (ReadOptions options = new ReadOptions();
              Slice upper = end == null ? null : new Slice(end)) {
            if (upper != null) {
              options.setIterateUpperBound(upper);
            }
            try (RocksIterator it = db.newIterator(options)) {
              it.seek(start);
              if (fromAfter && it.isValid() && Arrays.equals(it.key(), after)) {
                it.next(); // only the first key can be the one to start after
              }
              ScanBuffer buffer = SCAN_BUFFER.get();
              for (; it.isValid() && rows.size() < limit; it.next()) {
                rows.add(t.codec.decode(buffer.value(it)));
                if (keys != null && keys.size() <= PartitionCache.MAX_PARTITION_ROWS) {
                  keys.add(it.key());
                }
              }
              it.status();
            }
          }
          return null;
        });
    return rows;
  }

  /** A thread's buffer for the values of a scan, grown to the largest value it met. */
  private static final class ScanBuffer {
    private byte[] bytes = new byte[4 << 10];

    /** The iterator's current value, in this buffer (from position 0; the rest is stale). */
    byte[] value(RocksIterator it) {
      int n = it.value(bytes);
      if (n > bytes.length) {
        bytes = new byte[Math.max(n, 2 * bytes.length)];
        it.value(bytes);
      }
      return bytes;
    }
  }

  private static final ThreadLocal<ScanBuffer> SCAN_BUFFER =
      ThreadLocal.withInitial(ScanBuffer::new);

  /** Rows {@code from} to {@code to} of a kept partition, in a list of the caller's own. */
  private static <R extends Record> List<R> rowsOf(
      StoredTable<R> t, KeptRows cached, int from, int to) {
    List<R> rows = new ArrayList<>(Math.max(0, to - from));
    cached.addTo(rows, t.table.rowType(), from, to);
    return rows;
  }
}
