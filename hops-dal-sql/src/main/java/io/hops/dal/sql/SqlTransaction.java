package io.hops.dal.sql;

import io.hops.dal.AbstractTransaction;
import io.hops.dal.DuplicateKeyException;
import io.hops.dal.KeyRange;
import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.WriteOp;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A transaction on one pooled JDBC connection at READ COMMITTED. Locking reads use the database's
 * lock clause, so a locked read always sees the latest committed row.
 */
final class SqlTransaction extends AbstractTransaction {
  private final SqlStorage storage;
  private final SqlDialect dialect;
  private final Connection connection;

  SqlTransaction(SqlStorage storage, Connection connection) {
    super(storage.totals());
    this.storage = storage;
    this.dialect = storage.dialect();
    this.connection = connection;
  }

  @Override
  protected <R extends Record> R doFind(Table<R> table, Key key, LockMode mode)
      throws StorageException {
    TableSql<R> sql = storage.sql(table);
    try (PreparedStatement ps = connection.prepareStatement(sql.findByKey(lockClause(mode)))) {
      sql.bindKey(ps, 1, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? sql.read(rs) : null;
      }
    } catch (SQLException e) {
      throw dialect.classify("read " + key, e);
    }
  }

  @Override
  protected <R extends Record> List<R> doFindBatch(Table<R> table, List<Key> keys, LockMode mode)
      throws StorageException {
    if (keys.isEmpty()) {
      return List.of();
    }
    Map<Key, R> found = new HashMap<>();
    readBatch(table, keys, mode, found);
    if (mode != LockMode.READ_COMMITTED) {
      // One locking statement locks its rows in index order, not in the order of the keys: it
      // may have looked for a missing key before it waited for the lock of another key (say the
      // key's parent directory), while the lock holder created that key. Once the statement holds
      // its locks, whoever created rows under them has committed: one more read of the keys that
      // were missing finds them.
      List<Key> missing = new ArrayList<>();
      for (Key k : keys) {
        if (!found.containsKey(k) && !missing.contains(k)) {
          missing.add(k);
        }
      }
      if (!missing.isEmpty() && missing.size() < keys.size()) {
        readBatch(table, missing, mode, found);
      }
    }
    List<R> aligned = new ArrayList<>(keys.size());
    for (Key k : keys) {
      aligned.add(found.get(k));
    }
    return aligned;
  }

  private <R extends Record> void readBatch(
      Table<R> table, List<Key> keys, LockMode mode, Map<Key, R> found) throws StorageException {
    TableSql<R> sql = storage.sql(table);
    try (PreparedStatement ps =
        connection.prepareStatement(sql.findBatch(keys.size(), lockClause(mode)))) {
      int next = 1;
      for (Key k : keys) {
        next = sql.bindKey(ps, next, k);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          R row = sql.read(rs);
          found.put(table.keyOf(row), row);
        }
      }
    } catch (SQLException e) {
      throw dialect.classify("batched read of " + keys.size() + " rows of " + table, e);
    }
  }

  @Override
  protected <R extends Record> List<R> doScan(
      Table<R> table, List<Column> columns, List<Object> values, LockMode mode)
      throws StorageException {
    return query(table, columns, values, mode);
  }

  /** One statement for every value ({@code IN}), its rows then grouped in the order asked. */
  @Override
  protected <R extends Record> List<R> doScanIn(
      Table<R> table, Column partition, List<?> values, LockMode mode) throws StorageException {
    if (values.size() == 1) {
      return query(table, List.of(partition), List.of(values.get(0)), mode);
    }
    TableSql<R> sql = storage.sql(table);
    Map<Object, List<R>> byPartition = new HashMap<>();
    for (Object v : values) {
      byPartition.putIfAbsent(comparable(v), new ArrayList<>());
    }
    try (PreparedStatement ps =
        connection.prepareStatement(sql.scanIn(partition, values.size(), lockClause(mode)))) {
      for (int i = 0; i < values.size(); i++) {
        TableSql.bind(ps, i + 1, partition, values.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          R row = sql.read(rs);
          byPartition.get(comparable(table.get(row, partition.position()))).add(row);
        }
      }
    } catch (SQLException e) {
      throw dialect.classify(
          "scan of " + table + " by " + partition.name() + " in " + values.size() + " values", e);
    }
    List<R> rows = new ArrayList<>();
    for (Object v : values) {
      rows.addAll(byPartition.get(comparable(v)));
    }
    return rows;
  }

  /** A partition value that compares by content (a byte[] partition's bytes). */
  private static Object comparable(Object value) {
    return value instanceof byte[] b ? java.nio.ByteBuffer.wrap(b) : value;
  }

  @Override
  protected long doCount(Table<?> table) throws StorageException {
    try (PreparedStatement ps =
            connection.prepareStatement("SELECT COUNT(*) FROM " + table.name());
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw dialect.classify("count of " + table, e);
    }
  }

  @Override
  protected <R extends Record> List<R> doScanFrom(
      Table<R> table, Column partition, Object partitionValue, Key after, int limit, LockMode mode)
      throws StorageException {
    TableSql<R> sql = storage.sql(table);
    try (PreparedStatement ps =
        connection.prepareStatement(
            sql.scanFrom(partition, after != null, limit, lockClause(mode)))) {
      int next = 1;
      if (partition != null) {
        TableSql.bind(ps, next++, partition, partitionValue);
      }
      if (after != null) {
        sql.bindAfter(ps, next, after);
      }
      List<R> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(sql.read(rs));
        }
      }
      return rows;
    } catch (SQLException e) {
      throw dialect.classify("page of " + table + " after " + after, e);
    }
  }

  @Override
  protected List<Key> doFindKeysByIndex(Table<?> table, Column column, Object value)
      throws StorageException {
    TableSql<?> sql = storage.sql(table);
    try (PreparedStatement ps = connection.prepareStatement(sql.keysByIndex(column))) {
      TableSql.bind(ps, 1, column, value);
      List<Key> keys = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.add(sql.readKey(rs));
        }
      }
      return keys;
    } catch (SQLException e) {
      throw dialect.classify("keys of " + table + " by " + column.name(), e);
    }
  }

  private <R extends Record> List<R> query(
      Table<R> table, List<Column> columns, List<Object> values, LockMode mode)
      throws StorageException {
    TableSql<R> sql = storage.sql(table);
    try (PreparedStatement ps = connection.prepareStatement(sql.scan(columns, lockClause(mode)))) {
      for (int i = 0; i < columns.size(); i++) {
        TableSql.bind(ps, i + 1, columns.get(i), values.get(i));
      }
      List<R> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(sql.read(rs));
        }
      }
      return rows;
    } catch (SQLException e) {
      throw dialect.classify("scan of " + table + " by " + columns, e);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  protected void doFlush(List<KeyRange> ranges, List<WriteOp> ops) throws StorageException {
    for (KeyRange r : ranges) {
      TableSql<?> sql = storage.sql(r.table());
      try (PreparedStatement ps = connection.prepareStatement(sql.deleteRange)) {
        sql.bindRange(ps, r);
        ps.executeUpdate();
      } catch (SQLException e) {
        throw dialect.classify("delete of " + r.first() + " to " + r.last(), e);
      }
    }
    int i = 0;
    try {
      while (i < ops.size()) {
        // One JDBC batch per run of writes of the same kind to the same table.
        int j = i;
        while (j < ops.size()
            && ops.get(j).kind() == ops.get(i).kind()
            && ops.get(j).table() == ops.get(i).table()) {
          j++;
        }
        flushRun((TableSql<Record>) storage.sql(ops.get(i).table()), ops.subList(i, j));
        i = j;
      }
    } catch (SQLException e) {
      Key key = ops.get(Math.min(i, ops.size() - 1)).key();
      StorageException error = dialect.classify("write of " + key, e);
      throw error instanceof DuplicateKeyException
          ? new DuplicateKeyException(error.getMessage(), e, key)
          : error;
    }
  }

  private void flushRun(TableSql<Record> sql, List<WriteOp> run) throws SQLException {
    WriteOp.Kind kind = run.get(0).kind();
    String statement =
        switch (kind) {
          case DELETE -> sql.delete;
          case UPDATE -> sql.update;
          case INSERT -> sql.insert;
          case INSERT_IF_ABSENT -> sql.insertIfAbsent;
        };
    if (statement == null) {
      return; // an update of a table whose columns are all key columns changes nothing
    }
    try (PreparedStatement ps = connection.prepareStatement(statement)) {
      for (WriteOp op : run) {
        switch (kind) {
          case DELETE -> sql.bindKey(ps, 1, op.key());
          case UPDATE -> sql.bindUpdate(ps, op.row());
          case INSERT, INSERT_IF_ABSENT -> sql.bindInsert(ps, op.row());
        }
        if (run.size() > 1) {
          ps.addBatch();
        }
      }
      if (run.size() > 1) {
        ps.executeBatch();
      } else {
        ps.executeUpdate();
      }
    }
  }

  /**
   * The driver's socket timeout for this connection only, never above the pool's; the pool puts its
   * own back when the connection returns to it.
   */
  @Override
  public void limitRoundTrips(long millis) {
    try {
      int pools = connection.getNetworkTimeout(); // 0: none
      long limit = Math.max(1, pools > 0 ? Math.min(millis, pools) : millis);
      if (limit != pools) {
        connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, limit));
      }
    } catch (SQLException e) {
      storage.log().debug("setting a round trip timeout failed; the pool's default stays", e);
    }
  }

  @Override
  protected void doCommit() throws StorageException {
    try {
      connection.commit();
    } catch (SQLException e) {
      throw dialect.classify("commit", e);
    }
    release();
  }

  @Override
  protected void doRollback() {
    try {
      connection.rollback();
    } catch (SQLException e) {
      storage.log().debug("rollback failed; the pool discards the connection", e);
    }
    release();
  }

  private void release() {
    try {
      connection.close();
    } catch (SQLException e) {
      storage.log().debug("closing a connection failed", e);
    }
  }

  private String lockClause(LockMode mode) {
    return dialect.lockClause(mode);
  }
}
