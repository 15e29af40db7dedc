package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.KeyMayExist;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * Reads of rows by primary key, one or a batch: from the {@link RowCache}, a partition the {@link
 * PartitionCache} keeps (rows or names), a {@link FillOnWrite fill} for a write, or the store. Each
 * key read from the store is told to the {@link RowReader.KeyReads}.
 */
final class PointReads {
  /** The fewest keys of one partition that {@link #getAll} looks for in the kept partition. */
  static final int KEPT_BATCH_MIN = 2;

  /** The fewest keys a batch reads in key order with an iterator ({@link #orderedGet}). */
  static final int ORDERED_BATCH_MIN = 256;

  /**
   * How many entries {@link #orderedGet} steps over, one by one, before it seeks to the key it
   * wants: a step costs a tenth of a seek or less.
   */
  static final int ORDERED_STEPS = 8;

  /**
   * How many keys {@link #orderedGet} reads before it judges whether they lie close enough together
   * for an iterator.
   */
  static final int ORDERED_PROBE = 64;

  private final RocksStore store;
  private final RowReader.KeyReads keyReads;
  private final FillOnWrite fills;

  PointReads(RocksStore store, RowReader.KeyReads keyReads, FillOnWrite fills) {
    this.store = store;
    this.keyReads = keyReads;
    this.fills = fills;
  }

  /**
   * The row of {@code rowKey}, or null; with {@code toWrite} (the caller holds the row's exclusive
   * lock to write it, or a row beside it) a miss of both caches may read and keep the row's whole
   * partition ({@link FillOnWrite}).
   */
  <R extends Record> R get(StoredTable<R> t, KeyBytes rowKey, boolean toWrite)
      throws StorageException {
    RowCache cache = store.rows();
    if (!t.rowCached || !cache.enabled()) {
      keyReads.read(1);
      return decode(t, store.use(t.rowRead, db -> pointRead(db, rowKey.bytes())));
    }
    RowCache.Generation g = cache.current(); // before the store is read
    long passes = g.passes(rowKey);
    Object cached = counted(g.get(rowKey));
    if (cached == RowCache.UNSHARED) {
      keyReads.read(1);
      return decode(t, store.use(t.rowRead, db -> pointRead(db, rowKey.bytes())));
    }
    if (cached == null && t.partitionPrefixLength > 0) {
      KeyBytes partition = partitionOf(t, rowKey);
      cached = keptRow(partition, rowKey);
      if (cached == null && toWrite) {
        cached = fills.fill(t, partition, rowKey);
      }
    }
    if (cached != null) {
      return cached == RowCache.ABSENT ? null : t.table.rowType().cast(cached);
    }
    keyReads.read(1);
    R row = decode(t, store.use(t.rowRead, db -> pointRead(db, rowKey.bytes())));
    cache.fill(g, passes, rowKey, t.shares(row) ? row : RowCache.UNSHARED);
    return row;
  }

  /** {@code cached}, the row cache's answer, counted as a hit or a miss. */
  private Object counted(Object cached) {
    if (cached == null) {
      store.rows().stats().miss();
    } else {
      store.rows().stats().hit();
    }
    return cached;
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
      cache.stats().hit();
      return rows.find(rowKey.bytes());
    }
    KeptNames names = cache.names(partition);
    Object row = names == null || names.holds(rowKey) ? null : RowCache.ABSENT;
    if (row == null) {
      cache.stats().miss();
    } else {
      cache.stats().hit();
    }
    return row;
  }

  /**
   * The rows of {@code rowKeys}, aligned with them, null where missing; with {@code toWrite}, a key
   * that misses both caches may have its partition (or the partition's names) read and kept, as
   * {@link #get} does: a rename's source and its new name in one directory are one batch.
   */
  <R extends Record> List<R> getAll(StoredTable<R> t, List<KeyBytes> rowKeys, boolean toWrite)
      throws StorageException {
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
    long[] passes = null; // of each missing key, taken before the store is read
    for (KeyBytes k : rowKeys) {
      long keyPasses = g.passes(k);
      Object cached = counted(g.get(k));
      if (cached == null && t.partitionPrefixLength > 0) {
        KeyBytes partition = partitionOf(t, k);
        cached = keptRow(partition, k);
        if (cached == null && toWrite) {
          cached = fills.fill(t, partition, k);
        }
      }
      if (cached == null) {
        if (missing == null) {
          missing = new ArrayList<>(rowKeys.size());
          passes = new long[rowKeys.size()];
        }
        passes[missing.size()] = keyPasses;
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
        R row = decode(t, values.get(m));
        rows.set(i, row);
        cache.fill(g, passes[m++], rowKeys.get(i), row);
      }
    }
    return rows;
  }

  /**
   * The rows of a batch whose keys all lie in one kept partition (the directories among a
   * directory's children, locked to be read again), found in one walk through it: a lookup in the
   * row cache each cost more, a cache miss or two in a table of half a million rows. Null if the
   * keys span partitions, or theirs is not kept. A kept partition follows every commit as the row
   * cache does (see {@link #keptRow}).
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

  /** The row of {@code rowKey} from the store, or null: no cache is looked up or filled. */
  <R extends Record> R getOnce(StoredTable<R> t, KeyBytes rowKey) throws StorageException {
    return decode(t, pointReadCounted(t, rowKey.bytes()));
  }

  /** The rows of {@code rowKeys} from the store in one batch, aligned, null where missing. */
  <R extends Record> List<R> getAllOnce(StoredTable<R> t, List<KeyBytes> rowKeys)
      throws StorageException {
    return rowKeys.isEmpty() ? new ArrayList<>() : decodeAll(t, multiGet(t, rowKeys));
  }

  /** The value stored under {@code key}, undecoded, or null. */
  byte[] raw(byte[] key) throws StorageException {
    keyReads.read(1);
    return store.use("point read", db -> pointRead(db, key));
  }

  /**
   * One key's value, or null. RocksDB's Java {@code get} reports a missing key with a C++ exception
   * thrown and caught inside the call, which costs more than the lookup; {@code keyMayExist} tells
   * most missing keys by the bloom filters of the memtable and the table files, and returns most
   * present ones from memory, without one. Its direct-buffer form hands the value back in this
   * thread's buffer: the array form looks up a JNI class on every call.
   *
   * <p>An empty value from {@code keyMayExist} is not an answer: a lookup that reaches a table file
   * whose index block is not in the block cache stops there and reports the key found with no
   * value, whether or not the file holds it ({@code DBImpl::KeyMayExist} presumes the value found
   * before it looks; facebook/rocksdb#12921). Once a store outgrows the block cache that happens to
   * the index blocks of its older table files, the ones not pinned; no row and no index entry is
   * stored empty, so such a key is read with {@code get}.
   */
  static byte[] pointRead(RocksDB db, byte[] key) throws RocksDBException {
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
        && found.valueLength > 0
        && found.valueLength <= b.value.capacity()) {
      byte[] value = new byte[found.valueLength];
      b.value.get(value);
      return value;
    }
    return db.get(key); // not in memory, not known, or larger than the buffer
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
    return store.use(
        t.batchRead,
        db -> keys.size() >= ORDERED_BATCH_MIN ? orderedGet(db, keys) : db.multiGetAsList(keys));
  }

  /**
   * The values of {@code keys}, aligned with them, null where missing: what {@code multiGetAsList}
   * answers, read in key order by one iterator, which steps from a key to the next one it wants and
   * seeks only past {@link #ORDERED_STEPS} entries. A big batch of keys that lie close together (a
   * full report's lookup and block rows: the report is sorted by block id, and a file's blocks are
   * one partition) costs a third of a {@code multiGet}'s time this way, which looks every key up
   * from the top of each table file. A seek costs more than a lookup (it positions itself in every
   * sorted run, where a lookup skips the runs whose bloom filter rules the key out): once most keys
   * of the first {@link #ORDERED_PROBE} needed one, the rest are read by {@code multiGetAsList}.
   */
  static List<byte[]> orderedGet(RocksDB db, List<byte[]> keys) throws RocksDBException {
    int n = keys.size();
    int[] order = keyOrder(keys);
    byte[][] values = new byte[n][];
    int done = 0;
    // One view of the store for the iterator and a multiGet of the rest, as one multiGet reads.
    Snapshot snapshot = db.getSnapshot();
    try (ReadOptions options = new ReadOptions().setTotalOrderSeek(true).setSnapshot(snapshot);
        RocksIterator it = db.newIterator(options)) {
      byte[] want = keys.get(order[0]);
      it.seek(want);
      int seeks = 1;
      byte[] at = it.isValid() ? it.key() : null; // the iterator's key; null past the end
      for (; done < n; done++) {
        if (done >= ORDERED_PROBE && seeks * 2 > done) {
          break; // far apart: lookups cost less
        }
        want = keys.get(order[done]);
        int steps = 0;
        while (at != null && Arrays.compareUnsigned(at, want) < 0) {
          if (++steps > ORDERED_STEPS) {
            it.seek(want);
            seeks++;
          } else {
            it.next();
          }
          at = it.isValid() ? it.key() : null;
        }
        if (at != null && Arrays.equals(at, want)) {
          values[order[done]] = it.value();
        }
      }
      it.status();
      if (done < n) {
        List<byte[]> rest = new ArrayList<>(n - done);
        for (int i = done; i < n; i++) {
          rest.add(keys.get(order[i]));
        }
        List<byte[]> found = db.multiGetAsList(options, rest);
        for (int i = done; i < n; i++) {
          values[order[i]] = found.get(i - done);
        }
      }
    } finally {
      db.releaseSnapshot(snapshot);
    }
    return new ArrayList<>(Arrays.asList(values));
  }

  /** The positions of {@code keys} in ascending key order (as given if they already are). */
  private static int[] keyOrder(List<byte[]> keys) {
    int n = keys.size();
    boolean sorted = true;
    for (int i = 1; i < n && sorted; i++) {
      sorted = Arrays.compareUnsigned(keys.get(i - 1), keys.get(i)) <= 0;
    }
    int[] order = new int[n];
    if (sorted) {
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      return order;
    }
    Integer[] boxed = new Integer[n];
    for (int i = 0; i < n; i++) {
      boxed[i] = i;
    }
    Arrays.sort(boxed, (a, b) -> Arrays.compareUnsigned(keys.get(a), keys.get(b)));
    for (int i = 0; i < n; i++) {
      order[i] = boxed[i];
    }
    return order;
  }

  private static <R extends Record> R decode(StoredTable<R> t, byte[] value) {
    return value == null ? null : t.codec.decode(value);
  }

  /** The rows of {@code values}, aligned with them, null where a value is. */
  static <R extends Record> List<R> decodeAll(StoredTable<R> t, List<byte[]> values) {
    List<R> rows = new ArrayList<>(values.size());
    for (byte[] v : values) {
      rows.add(v == null ? null : t.codec.decode(v));
    }
    return rows;
  }
}
