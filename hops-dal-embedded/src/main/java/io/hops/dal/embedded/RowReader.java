package io.hops.dal.embedded;

import io.hops.dal.PartitionFold;
import io.hops.dal.StorageException;
import io.hops.dal.schema.Column;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.ToLongFunction;
import org.rocksdb.KeyMayExist;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * Reads of committed rows: point reads, batched reads and prefix scans. Each read sees one
 * consistent state of the store (an iterator reads at the sequence number it was created at; an
 * index scan reads its entries and their rows at one snapshot).
 */
final class RowReader {
  /** Told how many keys each point lookup asked the store for (row-cache hits are not). */
  @FunctionalInterface
  interface KeyReads {
    KeyReads NONE = n -> {};

    void read(int keys);
  }

  /** The fewest keys of one partition that {@link #getAll} looks for in the kept partition. */
  static final int KEPT_BATCH_MIN = 2;

  private final RocksStore store;
  private final KeyReads keyReads;

  RowReader(RocksStore store) {
    this(store, KeyReads.NONE);
  }

  private RowReader(RocksStore store, KeyReads keyReads) {
    this.store = store;
    this.keyReads = keyReads;
  }

  /** This reader, telling {@code keyReads} of the keys its point lookups read from the store. */
  RowReader counting(KeyReads keyReads) {
    return new RowReader(store, keyReads);
  }

  <R extends Record> R get(StoredTable<R> t, KeyBytes rowKey) throws StorageException {
    return get(t, rowKey, false);
  }

  /**
   * As {@link #get}, for a transaction that holds the row's exclusive lock to write it, or a row
   * beside it: a write that misses both caches may read and keep the row's whole partition ({@link
   * PartitionCache#fillOnWrite}), so that the next writes into it, a directory's new names above
   * all, are answered from memory.
   */
  <R extends Record> R getToWrite(StoredTable<R> t, KeyBytes rowKey) throws StorageException {
    return get(t, rowKey, true);
  }

  private <R extends Record> R get(StoredTable<R> t, KeyBytes rowKey, boolean toWrite)
      throws StorageException {
    RowCache cache = store.rows();
    if (!t.cacheable || !cache.enabled()) {
      keyReads.read(1);
      return decode(t, store.use(t.rowRead, db -> pointRead(db, rowKey.bytes())));
    }
    RowCache.Generation g = cache.current(); // before the store is read
    Object cached = g.get(rowKey);
    if (cached == null && t.partitionPrefixLength > 0) {
      KeyBytes partition = partitionOf(t, rowKey);
      cached = keptRow(partition, rowKey);
      if (cached == null && toWrite) {
        cached = fillToWrite(t, partition, rowKey);
      }
    }
    if (cached != null) {
      return cached == RowCache.ABSENT ? null : t.table.rowType().cast(cached);
    }
    keyReads.read(1);
    R row = decode(t, store.use(t.rowRead, db -> pointRead(db, rowKey.bytes())));
    cache.fill(g, rowKey, row);
    return row;
  }

  /** The partition of a row of a partitioned table: its key's first bytes. */
  private static KeyBytes partitionOf(StoredTable<?> t, KeyBytes rowKey) {
    return new KeyBytes(Arrays.copyOf(rowKey.bytes(), t.partitionPrefixLength));
  }

  /**
   * The row of {@code rowKey} (or {@link RowCache#ABSENT}) from its partition if the {@link
   * PartitionCache} keeps that, or {@link RowCache#ABSENT} if it keeps the partition's names and
   * they do not hold the key; else null. Kept rows and names follow every commit as the row cache
   * does, so they answer a read under a lock exactly: a name that is not there, too.
   */
  private Object keptRow(KeyBytes partition, KeyBytes rowKey) {
    PartitionCache cache = store.partitions();
    KeptRows rows = cache.get(partition);
    if (rows != null) {
      return rows.find(rowKey.bytes());
    }
    KeptNames names = cache.names(partition);
    return names == null || names.holds(rowKey) ? null : RowCache.ABSENT;
  }

  /**
   * For a write that missed {@code rowKey} in both caches: reads its whole partition, or the
   * partition's names if it is too large for that ({@link PartitionCache#fillOnWrite}), and keeps
   * what it read; returns the row (or {@link RowCache#ABSENT}) from what it read, or null if it is
   * to be looked up: the partition is not to be read now, another write is reading it, its rows
   * were too many and the key lies beyond those read, or the key is among its names. The caller
   * holds the row's lock, so what the read found of it is the row, even if a commit to the
   * partition (to other rows) keeps the read from filling.
   */
  private Object fillToWrite(StoredTable<?> t, KeyBytes partition, KeyBytes rowKey)
      throws StorageException {
    PartitionCache cache = store.partitions();
    if (t.partitionMarks || cache.names(partition) != null) {
      return null; // the names hold the key: it is there
    }
    Generation g = cache.current(); // before the store is read
    return switch (cache.fillOnWrite(g, partition)) {
      case NOTHING -> null;
      case ROWS -> fillRowsToWrite(t, cache, g, partition, rowKey);
      case NAMES -> fillNamesToWrite(t, cache, g, partition, rowKey);
    };
  }

  private Object fillRowsToWrite(
      StoredTable<?> t, PartitionCache cache, Generation g, KeyBytes partition, KeyBytes rowKey)
      throws StorageException {
    PartitionClaim claim = cache.claim(g, partition);
    if (claim == null) {
      return null;
    }
    int limit = PartitionCache.MAX_ROWS_FILLED_ON_WRITE + 1;
    List<byte[]> keys = new ArrayList<>();
    List<? extends Record> rows = null;
    boolean whole = false;
    try {
      rows = scanStoreFrom(t, partition.bytes(), null, limit, keys);
      whole = rows.size() < limit;
    } finally {
      cache.fill(claim, keys, whole ? rows : null);
    }
    keyReads.read(keys.size());
    if (!whole) {
      cache.tooLargeToFillOnWrite(g, partition);
    }
    byte[] key = rowKey.bytes();
    int i = Collections.binarySearch(keys, key, Arrays::compareUnsigned);
    if (i >= 0) {
      return rows.get(i);
    }
    return whole || -i - 1 < keys.size() ? RowCache.ABSENT : null;
  }

  private Object fillNamesToWrite(
      StoredTable<?> t, PartitionCache cache, Generation g, KeyBytes partition, KeyBytes rowKey)
      throws StorageException {
    NamesClaim claim = cache.claimNames(g, partition);
    if (claim == null) {
      return null;
    }
    List<byte[]> keys = null;
    try {
      keys = scanKeys(t, partition.bytes(), PartitionCache.MAX_NAMES + 1);
    } finally {
      cache.fillNames(claim, keys);
    }
    keyReads.read(keys.size());
    int i = Collections.binarySearch(keys, rowKey.bytes(), Arrays::compareUnsigned);
    return i >= 0 || keys.size() > PartitionCache.MAX_NAMES ? null : RowCache.ABSENT;
  }

  /** At most {@code limit} keys that start with {@code prefix}, in key order; no value copied. */
  private List<byte[]> scanKeys(StoredTable<?> t, byte[] prefix, int limit)
      throws StorageException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    return store.use(
        "keys of " + t.table,
        db -> {
          List<byte[]> keys = new ArrayList<>();
          try (ReadOptions options = new ReadOptions();
              Slice upper = end == null ? null : new Slice(end)) {
            if (upper != null) {
              options.setIterateUpperBound(upper);
            }
            try (RocksIterator it = db.newIterator(options)) {
              for (it.seek(prefix); it.isValid() && keys.size() < limit; it.next()) {
                keys.add(it.key());
              }
              it.status();
            }
          }
          return keys;
        });
  }

  /** The rows of {@code rowKeys}, aligned with them, null where missing. */
  <R extends Record> List<R> getAll(StoredTable<R> t, List<KeyBytes> rowKeys)
      throws StorageException {
    return getAll(t, rowKeys, false);
  }

  /**
   * As {@link #getAll}, for a transaction that holds the rows' exclusive locks to write them: a key
   * that misses both caches may have its partition (or the partition's names) read and kept, as
   * {@link #getToWrite} does; a rename's source and its new name in one directory are one batch.
   */
  <R extends Record> List<R> getAllToWrite(StoredTable<R> t, List<KeyBytes> rowKeys)
      throws StorageException {
    return getAll(t, rowKeys, true);
  }

  private <R extends Record> List<R> getAll(
      StoredTable<R> t, List<KeyBytes> rowKeys, boolean toWrite) throws StorageException {
    if (rowKeys.isEmpty()) {
      return new ArrayList<>();
    }
    RowCache cache = store.rows();
    if (!t.cacheable || !cache.enabled()) {
      return decodeAll(t, multiGet(t, rowKeys));
    }
    List<R> kept = keptRows(t, rowKeys);
    if (kept != null) {
      return kept;
    }
    RowCache.Generation g = cache.current(); // before the store is read
    List<R> rows = new ArrayList<>(rowKeys.size());
    List<KeyBytes> missing = null;
    for (KeyBytes k : rowKeys) {
      Object cached = g.get(k);
      if (cached == null && t.partitionPrefixLength > 0) {
        KeyBytes partition = partitionOf(t, k);
        cached = keptRow(partition, k);
        if (cached == null && toWrite) {
          cached = fillToWrite(t, partition, k);
        }
      }
      if (cached == null) {
        if (missing == null) {
          missing = new ArrayList<>(rowKeys.size());
        }
        missing.add(k);
      }
      rows.add(cached == null || cached == RowCache.ABSENT ? null : t.table.rowType().cast(cached));
    }
    if (missing == null) {
      return rows;
    }
    // One missing key (the usual case under the row cache): a point read, not a batch.
    List<byte[]> values;
    if (missing.size() == 1) {
      values = new ArrayList<>(1);
      values.add(pointReadCounted(t, missing.get(0).bytes()));
    } else {
      values = multiGet(t, missing);
    }
    int m = 0;
    for (int i = 0; i < rowKeys.size() && m < missing.size(); i++) {
      if (rowKeys.get(i) == missing.get(m)) {
        R row = decode(t, values.get(m++));
        rows.set(i, row);
        cache.fill(g, rowKeys.get(i), row);
      }
    }
    return rows;
  }

  /**
   * The rows of a batch whose keys all lie in one kept partition (the directories among a
   * directory's children, locked to be read again), found in one walk through it: a lookup in the
   * row cache each cost more, a cache miss or two in a table of half a million rows (stop 44). Null
   * if the keys span partitions, or theirs is not kept. A kept partition follows every commit as
   * the row cache does (see {@link #keptRow}).
   */
  private <R extends Record> List<R> keptRows(StoredTable<R> t, List<KeyBytes> rowKeys) {
    int prefix = t.partitionPrefixLength;
    if (prefix <= 0 || rowKeys.size() < KEPT_BATCH_MIN) {
      return null;
    }
    byte[] first = rowKeys.get(0).bytes();
    for (KeyBytes k : rowKeys) {
      if (!Arrays.equals(k.bytes(), 0, prefix, first, 0, prefix)) {
        return null;
      }
    }
    KeptRows partition = store.partitions().get(partitionOf(t, rowKeys.get(0)));
    if (partition == null) {
      return null;
    }
    Object[] found = partition.findAll(rowKeys);
    List<R> rows = new ArrayList<>(found.length);
    for (Object row : found) {
      rows.add(row == RowCache.ABSENT ? null : t.table.rowType().cast(row));
    }
    return rows;
  }

  /**
   * One key's value, or null. RocksDB's Java {@code get} reports a missing key with a C++ exception
   * thrown and caught inside the call, which costs more than the lookup; {@code keyMayExist} tells
   * most missing keys by the bloom filters of the memtable and the table files, and returns most
   * present ones from memory, without one. Its direct-buffer form hands the value back in this
   * thread's buffer: the array form looks up a JNI class on every call.
   */
  private static byte[] pointRead(RocksDB db, byte[] key) throws RocksDBException {
    ReadBuffers b = READ_BUFFERS.get();
    if (key.length > b.key.capacity()) {
      b.key = ByteBuffer.allocateDirect(key.length);
    }
    b.key.clear();
    b.key.put(key).flip();
    b.value.clear();
    KeyMayExist found = db.keyMayExist(b.key, b.value);
    if (found.exists == KeyMayExist.KeyMayExistEnum.kNotExist) {
      return null;
    }
    if (found.exists == KeyMayExist.KeyMayExistEnum.kExistsWithValue
        && found.valueLength <= b.value.capacity()) {
      byte[] value = new byte[found.valueLength];
      b.value.get(value);
      return value;
    }
    return db.get(key); // not in memory, or larger than the buffer
  }

  /** A thread's direct buffers for {@link #pointRead} (the key's grows to the longest key). */
  private static final class ReadBuffers {
    ByteBuffer key = ByteBuffer.allocateDirect(1 << 10);
    final ByteBuffer value = ByteBuffer.allocateDirect(16 << 10);
  }

  private static final ThreadLocal<ReadBuffers> READ_BUFFERS =
      ThreadLocal.withInitial(ReadBuffers::new);

  private byte[] pointReadCounted(StoredTable<?> t, byte[] rowKey) throws StorageException {
    keyReads.read(1);
    return store.use(t.rowRead, db -> pointRead(db, rowKey));
  }

  private List<byte[]> multiGet(StoredTable<?> t, List<KeyBytes> rowKeys) throws StorageException {
    keyReads.read(rowKeys.size());
    List<byte[]> keys = new ArrayList<>(rowKeys.size());
    for (KeyBytes k : rowKeys) {
      keys.add(k.bytes());
    }
    return store.use(t.batchRead, db -> db.multiGetAsList(keys));
  }

  private static <R extends Record> R decode(StoredTable<R> t, byte[] value) {
    return value == null ? null : t.codec.decode(value);
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
    if (store.highWaters().neverHeld(this, t.rowSpace, prefix)) {
      return new ArrayList<>();
    }
    if (!t.isPartition(prefix)) {
      return scanStoreFrom(t, prefix, after, limit, null);
    }
    PartitionCache cache = store.partitions();
    KeyBytes partition = new KeyBytes(prefix);
    Generation g = cache.current(); // before the store is read
    KeptRows cached = cache.get(partition);
    if (cached != null) {
      int from = after == null ? 0 : cached.firstAfter(after);
      return rowsOf(t, cached, from, Math.min(cached.size(), from + Math.max(0, limit)));
    }
    // Only a read from the partition's start that ends before the limit has the whole partition.
    PartitionClaim claim = after == null ? cache.claim(g, partition) : null;
    List<byte[]> keys = claim == null ? null : new ArrayList<>();
    List<R> rows = null;
    try {
      rows = scanStoreFrom(t, prefix, after, limit, keys);
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
   * the {@link PartitionCache} keeps of it since the last commit that wrote it, or one made now and
   * kept. The claim comes before the rows are read, from the kept partition or the store.
   */
  <R extends Record, A> A fold(StoredTable<R> t, byte[] prefix, PartitionFold<R, A> fold)
      throws StorageException {
    if (!t.isPartition(prefix)) {
      return fold.fold(scan(t, prefix));
    }
    PartitionCache cache = store.partitions();
    KeyBytes partition = new KeyBytes(prefix);
    Object kept = cache.folded(partition, fold);
    if (kept != null) {
      @SuppressWarnings("unchecked") // kept by this very fold, compared by identity
      A summary = (A) kept;
      return summary;
    }
    FoldClaim claim = cache.claimFold(partition, fold);
    A summary = null;
    try {
      summary = fold.fold(scan(t, prefix));
    } finally {
      cache.fillFold(claim, summary, summary == null ? 0 : fold.weight(summary));
    }
    return summary;
  }

  /**
   * As {@link #scanFrom} from the store; the rows' keys go to {@code keys} unless it is null, up to
   * one more than a kept partition holds (enough to tell that it is too large to keep). Each value
   * is copied into this thread's buffer and decoded there: an array of its own per value, made by
   * JNI, cost more than the copy.
   */
  private <R extends Record> List<R> scanStoreFrom(
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

  /**
   * The rows whose indexed {@code column} equals {@code value}, in (value, primary key) order,
   * which for one value is primary-key order.
   */
  <R extends Record> List<R> scanIndex(StoredTable<R> t, Column column, Object value)
      throws StorageException {
    List<byte[]> values =
        store.use(
            "index scan of " + t.table + "." + column.name(),
            db -> {
              Snapshot snapshot = db.getSnapshot();
              try (ReadOptions options = new ReadOptions().setSnapshot(snapshot)) {
                List<byte[]> rowKeys = new ArrayList<>();
                forEachWithPrefix(
                    db,
                    t.layout.indexPrefix(column, value),
                    options,
                    (key, rowKey) -> rowKeys.add(rowKey));
                return rowKeys.isEmpty() ? rowKeys : db.multiGetAsList(options, rowKeys);
              } finally {
                db.releaseSnapshot(snapshot);
              }
            });
    List<R> rows = new ArrayList<>(values.size());
    for (R row : decodeAll(t, values)) {
      // An entry without its row would be a bug of the write path; never hand out a null row.
      if (row != null) {
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * At most {@code limit} rows whose non-unique indexed {@code column} equals {@code value} and
   * whose row key comes after {@code afterRowKey} (null: from the first), in primary-key order: one
   * seek in the index and {@code limit} steps, then one batched read of the rows.
   */
  <R extends Record> List<R> scanIndexFrom(
      StoredTable<R> t, Column column, Object value, byte[] afterRowKey, int limit)
      throws StorageException {
    byte[] prefix = t.layout.indexPrefix(column, value);
    byte[] start = afterRowKey == null ? prefix : t.layout.indexKey(column, value, afterRowKey);
    List<byte[]> values =
        store.use(
            "index page of " + t.table + "." + column.name(),
            db -> {
              Snapshot snapshot = db.getSnapshot();
              try (ReadOptions options = new ReadOptions().setSnapshot(snapshot)) {
                List<byte[]> rowKeys = new ArrayList<>();
                forEachWithPrefix(
                    db,
                    prefix,
                    start,
                    afterRowKey != null,
                    options,
                    (key, rowKey) -> {
                      if (afterRowKey == null || !Arrays.equals(key, start)) {
                        rowKeys.add(rowKey);
                      }
                      return rowKeys.size() < limit;
                    });
                return rowKeys.isEmpty() ? rowKeys : db.multiGetAsList(options, rowKeys);
              } finally {
                db.releaseSnapshot(snapshot);
              }
            });
    List<R> rows = new ArrayList<>(values.size());
    for (R row : decodeAll(t, values)) {
      if (row != null) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** How many rows the table holds: its keys counted, no row decoded or kept. */
  long count(StoredTable<?> t) throws StorageException {
    return sumWithPrefix("count of " + t.table, t.layout.rowPrefix(), value -> 1);
  }

  /** The values of the entries whose keys start with {@code prefix}, in key order. */
  List<byte[]> valuesWithPrefix(byte[] prefix) throws StorageException {
    return store.use(
        "index scan",
        db -> {
          List<byte[]> values = new ArrayList<>();
          try (ReadOptions options = new ReadOptions()) {
            forEachWithPrefix(db, prefix, options, (k, v) -> values.add(v));
          }
          return values;
        });
  }

  /** The total length of the values of the entries whose keys start with {@code prefix}. */
  long valueBytesWithPrefix(byte[] prefix) throws StorageException {
    return sumWithPrefix("full table scan", prefix, value -> value.length);
  }

  /**
   * The sum of {@code weight} over the values of the entries whose keys start with {@code prefix}.
   */
  private long sumWithPrefix(String what, byte[] prefix, ToLongFunction<byte[]> weight)
      throws StorageException {
    return store.use(
        what,
        db -> {
          long[] total = {0};
          try (ReadOptions options = new ReadOptions()) {
            forEachWithPrefix(
                db,
                prefix,
                options,
                (k, v) -> {
                  total[0] += weight.applyAsLong(v);
                  return true;
                });
          }
          return total[0];
        });
  }

  /** The value stored under {@code key}, undecoded, or null. */
  byte[] raw(byte[] key) throws StorageException {
    keyReads.read(1);
    return store.use("point read", db -> pointRead(db, key));
  }

  /** The greatest key that starts with {@code prefix}, or null: one seek backwards. */
  byte[] lastKeyWithPrefix(byte[] prefix) throws StorageException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    return store.use(
        "last key",
        db -> {
          try (ReadOptions options = new ReadOptions();
              RocksIterator it = db.newIterator(options)) {
            if (end == null) {
              it.seekToLast();
            } else {
              it.seekForPrev(end);
              if (it.isValid() && Arrays.equals(it.key(), end)) {
                it.prev();
              }
            }
            byte[] key = it.isValid() ? it.key() : null;
            it.status();
            return key != null
                    && key.length >= prefix.length
                    && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)
                ? key
                : null;
          }
        });
  }

  /** Whether any key starts with {@code prefix}. */
  boolean any(byte[] prefix) throws StorageException {
    return store.use(
        "scan",
        db -> {
          boolean[] found = {false};
          try (ReadOptions options = new ReadOptions()) {
            forEachWithPrefix(
                db,
                prefix,
                options,
                (k, v) -> {
                  found[0] = true;
                  return false;
                });
          }
          return found[0];
        });
  }

  private static <R extends Record> List<R> decodeAll(StoredTable<R> t, List<byte[]> values) {
    List<R> rows = new ArrayList<>(values.size());
    for (byte[] v : values) {
      rows.add(v == null ? null : t.codec.decode(v));
    }
    return rows;
  }

  /** Visits each entry whose key starts with {@code prefix}, in key order, while it says so. */
  private static void forEachWithPrefix(
      RocksDB db, byte[] prefix, ReadOptions options, EntryVisitor visitor)
      throws RocksDBException {
    forEachWithPrefix(db, prefix, prefix, false, options, visitor);
  }

  /**
   * As above, from the first key at or after {@code start} (which starts with the prefix); the
   * visitor gets each key only if {@code keys} (else null): copying a key out of RocksDB is a JNI
   * call and an array per entry, and most scans only want the values.
   */
  private static void forEachWithPrefix(
      RocksDB db,
      byte[] prefix,
      byte[] start,
      boolean keys,
      ReadOptions options,
      EntryVisitor visitor)
      throws RocksDBException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    try (Slice upper = end == null ? null : new Slice(end)) {
      if (upper != null) {
        // Stops the iterator at the prefix's end instead of stepping over what lies beyond it
        // (deleted entries included).
        options.setIterateUpperBound(upper);
      }
      try (RocksIterator it = db.newIterator(options)) {
        for (it.seek(start); it.isValid(); it.next()) {
          if (!visitor.visit(keys ? it.key() : null, it.value())) {
            break;
          }
        }
        it.status();
      }
    }
  }

  @FunctionalInterface
  private interface EntryVisitor {
    /** Returns whether to go on; {@code key} is null unless keys were asked for. */
    boolean visit(byte[] key, byte[] value);
  }
}
