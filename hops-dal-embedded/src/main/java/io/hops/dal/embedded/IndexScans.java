package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import io.hops.dal.schema.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ReadOptions;
import org.rocksdb.Snapshot;

/**
 * Reads of rows through a non-unique index: the index's entries for one value, then their rows in
 * one batched read, both at one snapshot of the store, so that every entry finds its row.
 */
final class IndexScans {
  private final RocksStore store;

  IndexScans(RocksStore store) {
    this.store = store;
  }

  /**
   * The rows whose indexed {@code column} equals {@code value}, in (value, primary key) order,
   * which for one value is primary-key order.
   */
  <R extends Record> List<R> scan(StoredTable<R> t, Column column, Object value)
      throws StorageException {
    return scan("index scan of ", t, column, value, null, Integer.MAX_VALUE);
  }

  /**
   * At most {@code limit} rows whose non-unique indexed {@code column} equals {@code value} and
   * whose row key comes after {@code afterRowKey} (null: from the first), in primary-key order: one
   * seek in the index and {@code limit} steps, then one batched read of the rows.
   */
  <R extends Record> List<R> scanFrom(
      StoredTable<R> t, Column column, Object value, byte[] afterRowKey, int limit)
      throws StorageException {
    return scan("index page of ", t, column, value, afterRowKey, limit);
  }

  private <R extends Record> List<R> scan(
      String what, StoredTable<R> t, Column column, Object value, byte[] afterRowKey, int limit)
      throws StorageException {
    byte[] prefix = t.layout.indexPrefix(column, value);
    byte[] start = afterRowKey == null ? prefix : t.layout.indexKey(column, value, afterRowKey);
    List<byte[]> values =
        store.use(
            what + t.table + "." + column.name(),
            db -> {
              Snapshot snapshot = db.getSnapshot();
              try (ReadOptions options = new ReadOptions().setSnapshot(snapshot)) {
                List<byte[]> rowKeys = new ArrayList<>();
                PrefixReads.forEachWithPrefix(
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
    return rowsOf(t, values);
  }

  /** The rows of the values read. */
  private static <R extends Record> List<R> rowsOf(StoredTable<R> t, List<byte[]> values) {
    List<R> rows = new ArrayList<>(values.size());
    for (R row : PointReads.decodeAll(t, values)) {
      // An entry without its row would be a bug of the write path; never hand out a null row.
      if (row != null) {
        rows.add(row);
      }
    }
    return rows;
  }
}
