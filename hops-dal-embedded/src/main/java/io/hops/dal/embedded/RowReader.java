package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import io.hops.dal.schema.Column;
import java.util.ArrayList;
import java.util.List;
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
  private final RocksDB db;

  RowReader(RocksDB db) {
    this.db = db;
  }

  <R extends Record> R get(StoredTable<R> t, byte[] rowKey) throws StorageException {
    try {
      byte[] value = db.get(rowKey);
      return value == null ? null : t.codec.decode(value);
    } catch (RocksDBException e) {
      throw Errors.of("read of a row of " + t.table, e);
    }
  }

  /** The rows of {@code rowKeys}, aligned with them, null where missing. */
  <R extends Record> List<R> getAll(StoredTable<R> t, List<byte[]> rowKeys)
      throws StorageException {
    try (ReadOptions options = new ReadOptions()) {
      return getAll(t, rowKeys, options);
    }
  }

  private <R extends Record> List<R> getAll(
      StoredTable<R> t, List<byte[]> rowKeys, ReadOptions options) throws StorageException {
    if (rowKeys.isEmpty()) {
      return List.of();
    }
    try {
      List<byte[]> values = db.multiGetAsList(options, rowKeys);
      List<R> rows = new ArrayList<>(values.size());
      for (byte[] v : values) {
        rows.add(v == null ? null : t.codec.decode(v));
      }
      return rows;
    } catch (RocksDBException e) {
      throw Errors.of("batched read of " + rowKeys.size() + " rows of " + t.table, e);
    }
  }

  /** The rows whose key starts with {@code prefix}, in key order. */
  <R extends Record> List<R> scan(StoredTable<R> t, byte[] prefix) throws StorageException {
    List<R> rows = new ArrayList<>();
    try (ReadOptions options = new ReadOptions()) {
      forEachWithPrefix(prefix, options, (key, value) -> rows.add(t.codec.decode(value)));
    }
    return rows;
  }

  /**
   * The rows whose indexed {@code column} equals {@code value}, in (value, primary key) order,
   * which for one value is primary-key order.
   */
  <R extends Record> List<R> scanIndex(StoredTable<R> t, Column column, Object value)
      throws StorageException {
    Snapshot snapshot = db.getSnapshot();
    try (ReadOptions options = new ReadOptions().setSnapshot(snapshot)) {
      List<byte[]> rowKeys = new ArrayList<>();
      forEachWithPrefix(
          t.layout.indexPrefix(column, value), options, (key, rowKey) -> rowKeys.add(rowKey));
      List<R> rows = new ArrayList<>(rowKeys.size());
      for (R row : getAll(t, rowKeys, options)) {
        // An entry without its row would be a bug of the write path; never hand out a null row.
        if (row != null) {
          rows.add(row);
        }
      }
      return rows;
    } finally {
      db.releaseSnapshot(snapshot);
    }
  }

  /** Whether any key starts with {@code prefix}. */
  boolean any(byte[] prefix) throws StorageException {
    boolean[] found = {false};
    try (ReadOptions options = new ReadOptions()) {
      forEachWithPrefix(
          prefix,
          options,
          (k, v) -> {
            found[0] = true;
            return false;
          });
    }
    return found[0];
  }

  /** Visits each entry whose key starts with {@code prefix}, in key order. */
  private void forEachWithPrefix(byte[] prefix, ReadOptions options, EntryVisitor visitor)
      throws StorageException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    try (Slice upper = end == null ? null : new Slice(end)) {
      if (upper != null) {
        // Stops the iterator at the prefix's end instead of stepping over what lies beyond it
        // (deleted entries included).
        options.setIterateUpperBound(upper);
      }
      try (RocksIterator it = db.newIterator(options)) {
        for (it.seek(prefix); it.isValid(); it.next()) {
          if (!visitor.visit(it.key(), it.value())) {
            break;
          }
        }
        it.status();
      } catch (RocksDBException e) {
        throw Errors.of("scan", e);
      }
    }
  }

  @FunctionalInterface
  private interface EntryVisitor {
    /** Returns whether to go on. */
    boolean visit(byte[] key, byte[] value);
  }
}
