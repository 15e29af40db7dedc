package io.hops.dal.embedded;

import io.hops.dal.PartitionFold;
import io.hops.dal.StorageException;
import io.hops.dal.schema.Column;
import java.util.List;

/**
 * Reads of committed rows, by kind: by primary key ({@link PointReads}, with {@link FillOnWrite}
 * for a write), by key prefix ({@link PartitionScans}), through an index ({@link IndexScans}), and
 * raw entries under a prefix ({@link PrefixReads}). Each read sees one consistent state of the
 * store (an iterator reads at the sequence number it was created at; an index scan reads its
 * entries and their rows at one snapshot).
 */
final class RowReader {
  /** Told how many keys each point lookup asked the store for (row-cache hits are not). */
  @FunctionalInterface
  interface KeyReads {
    KeyReads NONE = n -> {};

    void read(int keys);
  }

  private final RocksStore store;
  private final PrefixReads prefixes;
  private final PartitionScans scans;
  private final IndexScans indexes;
  private final PointReads points;

  RowReader(RocksStore store) {
    this(store, new PrefixReads(store), KeyReads.NONE);
  }

  private RowReader(RocksStore store, PrefixReads prefixes, KeyReads keyReads) {
    this(store, prefixes, new PartitionScans(store, prefixes), new IndexScans(store), keyReads);
  }

  private RowReader(
      RocksStore store,
      PrefixReads prefixes,
      PartitionScans scans,
      IndexScans indexes,
      KeyReads keyReads) {
    this.store = store;
    this.prefixes = prefixes;
    this.scans = scans;
    this.indexes = indexes;
    this.points =
        new PointReads(store, keyReads, new FillOnWrite(store, keyReads, scans, prefixes));
  }

  /** This reader, telling {@code keyReads} of the keys its point lookups read from the store. */
  RowReader counting(KeyReads keyReads) {
    return new RowReader(store, prefixes, scans, indexes, keyReads);
  }

  /** The reads of raw entries under a prefix. */
  PrefixReads prefixes() {
    return prefixes;
  }

  <R extends Record> R get(StoredTable<R> t, KeyBytes rowKey) throws StorageException {
    return points.get(t, rowKey, false);
  }

  /**
   * As {@link #get}, for a transaction that holds the row's exclusive lock to write it, or a row
   * beside it: a write that misses both caches may read and keep the row's whole partition ({@link
   * FillOnWrite}), so that the next writes into it, a directory's new names above all, are answered
   * from memory.
   */
  <R extends Record> R getToWrite(StoredTable<R> t, KeyBytes rowKey) throws StorageException {
    return points.get(t, rowKey, true);
  }

  /** The rows of {@code rowKeys}, aligned with them, null where missing. */
  <R extends Record> List<R> getAll(StoredTable<R> t, List<KeyBytes> rowKeys)
      throws StorageException {
    return points.getAll(t, rowKeys, false);
  }

  /** As {@link #getAll}, for a transaction that holds the rows' exclusive locks to write them. */
  <R extends Record> List<R> getAllToWrite(StoredTable<R> t, List<KeyBytes> rowKeys)
      throws StorageException {
    return points.getAll(t, rowKeys, true);
  }

  /** As {@link #get}, from the store, past the caches and without filling them. */
  <R extends Record> R getOnce(StoredTable<R> t, KeyBytes rowKey) throws StorageException {
    return points.getOnce(t, rowKey);
  }

  /** As {@link #getAll}, from the store, past the caches and without filling them. */
  <R extends Record> List<R> getAllOnce(StoredTable<R> t, List<KeyBytes> rowKeys)
      throws StorageException {
    return points.getAllOnce(t, rowKeys);
  }

  /** The value stored under {@code key}, undecoded, or null. */
  byte[] raw(byte[] key) throws StorageException {
    return points.raw(key);
  }

  /** The rows whose key starts with {@code prefix}, in key order ({@link PartitionScans}). */
  <R extends Record> List<R> scan(StoredTable<R> t, byte[] prefix) throws StorageException {
    return scans.scan(t, prefix);
  }

  /**
   * At most {@code limit} rows whose key starts with {@code prefix} and comes after {@code after}
   * (null: from the prefix's first), in key order.
   */
  <R extends Record> List<R> scanFrom(StoredTable<R> t, byte[] prefix, byte[] after, int limit)
      throws StorageException {
    return scans.scanFrom(t, prefix, after, limit);
  }

  /** The rows whose key starts with {@code prefix}, folded ({@link PartitionScans#fold}). */
  <R extends Record, A> A fold(StoredTable<R> t, byte[] prefix, PartitionFold<R, A> fold)
      throws StorageException {
    return scans.fold(t, prefix, fold);
  }

  /** The rows whose indexed {@code column} equals {@code value} ({@link IndexScans}). */
  <R extends Record> List<R> scanIndex(StoredTable<R> t, Column column, Object value)
      throws StorageException {
    return indexes.scan(t, column, value);
  }

  /** A page of the rows whose indexed {@code column} equals {@code value} ({@link IndexScans}). */
  <R extends Record> List<R> scanIndexFrom(
      StoredTable<R> t, Column column, Object value, byte[] afterRowKey, int limit)
      throws StorageException {
    return indexes.scanFrom(t, column, value, afterRowKey, limit);
  }

  /** How many rows the table holds. */
  long count(StoredTable<?> t) throws StorageException {
    return prefixes.count(t);
  }

  /** The values of the entries whose keys start with {@code prefix}, in key order. */
  List<byte[]> valuesWithPrefix(byte[] prefix) throws StorageException {
    return prefixes.valuesWithPrefix(prefix);
  }

  /** See {@link PrefixReads#longsInKeysWithPrefix}. */
  long[] longsInKeysWithPrefix(byte[] prefix, int offset) throws StorageException {
    return prefixes.longsInKeysWithPrefix(prefix, offset);
  }

  /** Whether any key starts with {@code prefix}. */
  boolean any(byte[] prefix) throws StorageException {
    return prefixes.any(prefix);
  }
}
