package io.hops.dal;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * What every driver's transactions share: the write buffer, column-limit checks, access counting
 * and the rule that a failed transaction is rolled back. A driver implements only the {@code do*}
 * primitives.
 */
public abstract class AbstractTransaction implements Transaction {
  private final AccessCounter counter;
  private final WriteBuffer writes = new WriteBuffer();
  private final List<KeyRange> rangeDeletes = new ArrayList<>(0);
  private boolean finished;

  protected AbstractTransaction(AccessCounter storageTotals) {
    this.counter = new AccessCounter(storageTotals);
  }

  protected abstract <R extends Record> R doFind(Table<R> table, Key key, LockMode mode)
      throws StorageException;

  protected abstract <R extends Record> List<R> doFindBatch(
      Table<R> table, List<Key> keys, LockMode mode) throws StorageException;

  /** Rows whose {@code columns} equal {@code values} (none: every row), in primary-key order. */
  protected abstract <R extends Record> List<R> doScan(
      Table<R> table, List<Column> columns, List<Object> values, LockMode mode)
      throws StorageException;

  /**
   * At most {@code limit} rows after {@code after} (null: from the first) in primary-key order,
   * whose column {@code partition} equals {@code partitionValue} unless it is null: the partition
   * column (a prefix of the key), or an indexed column ({@link #findByIndexFrom}, whose index
   * entries are in primary-key order for one value).
   */
  protected abstract <R extends Record> List<R> doScanFrom(
      Table<R> table, Column partition, Object partitionValue, Key after, int limit, LockMode mode)
      throws StorageException;

  /**
   * The rows whose {@code column} (the partition column, or an indexed one) equals each of {@code
   * values}, value by value in that order ({@link #findByPartitions}, {@link #findByIndexIn}). This
   * default scans them one by one ({@link #doScan}); a driver with a network round trip per
   * statement overrides it with one statement.
   */
  protected <R extends Record> List<R> doScanIn(
      Table<R> table, Column column, List<?> values, LockMode mode) throws StorageException {
    List<R> rows = new ArrayList<>();
    for (Object v : values) {
      rows.addAll(doScan(table, List.of(column), List.of(v), mode));
    }
    return rows;
  }

  /** The primary keys of the rows whose indexed {@code column} equals {@code value}, in order. */
  protected abstract List<Key> doFindKeysByIndex(Table<?> table, Column column, Object value)
      throws StorageException;

  /**
   * The partition's rows, read committed, folded. This default reads them all ({@link #doScan}); an
   * engine that can keep summaries overrides it.
   */
  protected <R extends Record, A> A doFold(
      Table<R> table, Column partition, Object partitionValue, PartitionFold<R, A> fold)
      throws StorageException {
    return fold.fold(
        doScan(table, List.of(partition), List.of(partitionValue), LockMode.READ_COMMITTED));
  }

  /**
   * How many committed rows {@code table} holds. This default reads them all; a driver that can
   * count without reading rows overrides it.
   */
  protected long doCount(Table<?> table) throws StorageException {
    return doScan(table, List.of(), List.of(), LockMode.READ_COMMITTED).size();
  }

  /**
   * Sends the writes inside the transaction: the range deletes, then the row writes in the order
   * given (no row of which lies in a range).
   */
  protected abstract void doFlush(List<KeyRange> ranges, List<WriteOp> ops) throws StorageException;

  /** Commits; returns once the commit is durable. */
  protected abstract void doCommit() throws StorageException;

  /**
   * Commits, returning once its rows are visible and its locks released; the stage completes when
   * the commit is durable. This default is {@link #doCommit}, durable when it returns.
   */
  protected CompletionStage<Void> doCommitDeferred() throws StorageException {
    doCommit();
    return Durability.DURABLE;
  }

  /** Rolls back and releases everything; must not throw. */
  protected abstract void doRollback();

  @Override
  public final <R extends Record> R find(Table<R> table, Key key, LockMode mode)
      throws StorageException {
    checkKey(table, key);
    R row = guard(() -> doFind(table, key, mode));
    counter.count(AccessKind.PK, mode);
    counter.countRows(row == null ? 0 : 1, 0);
    return row;
  }

  @Override
  public final <R extends Record> List<R> findBatch(Table<R> table, List<Key> keys, LockMode mode)
      throws StorageException {
    for (Key k : keys) {
      checkKey(table, k);
    }
    List<R> rows = guard(() -> doFindBatch(table, keys, mode));
    counter.count(AccessKind.BATCH, mode);
    long found = 0; // every path resolution's batch: a loop, not a stream
    for (R r : rows) {
      if (r != null) {
        found++;
      }
    }
    counter.countRows(found, 0);
    return rows;
  }

  @Override
  public final <R extends Record> List<R> findByPartition(
      Table<R> table, Object partitionValue, LockMode mode) throws StorageException {
    Column p = partitionColumn(table);
    return scan(AccessKind.PPIS, table, List.of(p), List.of(partitionValue), mode);
  }

  @Override
  public final <R extends Record> List<R> findByPartitions(
      Table<R> table, List<?> partitionValues, LockMode mode) throws StorageException {
    checkOpen();
    Column p = partitionColumn(table);
    List<R> rows =
        partitionValues.isEmpty()
            ? List.of()
            : guard(() -> doScanIn(table, p, partitionValues, mode));
    counter.count(AccessKind.PPIS, mode);
    counter.countRows(rows.size(), 0);
    return rows;
  }

  @Override
  public final <R extends Record> List<R> findByPartition(
      Table<R> table, Object partitionValue, String column, Object value, LockMode mode)
      throws StorageException {
    Column p = partitionColumn(table);
    return scan(
        AccessKind.PPIS,
        table,
        List.of(p, table.column(column)),
        List.of(partitionValue, value),
        mode);
  }

  @Override
  public final <R extends Record, A> A foldPartition(
      Table<R> table, Object partitionValue, PartitionFold<R, A> fold) throws StorageException {
    checkOpen();
    Column p = partitionColumn(table);
    A summary = guard(() -> doFold(table, p, partitionValue, fold));
    counter.count(AccessKind.PPIS, LockMode.READ_COMMITTED);
    return summary;
  }

  @Override
  public final <R extends Record> List<R> findByIndex(
      Table<R> table, String column, Object value, LockMode mode) throws StorageException {
    Column c = table.column(column);
    if (!c.indexed()) {
      throw new IllegalArgumentException(table + "." + column + " has no index");
    }
    table.checkIndexHolds(c, value);
    return scan(AccessKind.IS, table, List.of(c), List.of(value), mode);
  }

  @Override
  public final <R extends Record> List<R> scanFrom(
      Table<R> table, Object partitionValue, Key after, int limit, LockMode mode)
      throws StorageException {
    checkOpen();
    if (after != null) {
      checkKey(table, after);
    }
    if (limit <= 0) {
      throw new IllegalArgumentException("a page holds at least one row, not " + limit);
    }
    Column p = partitionValue == null ? null : partitionColumn(table);
    List<R> rows = guard(() -> doScanFrom(table, p, partitionValue, after, limit, mode));
    counter.count(partitionValue == null ? AccessKind.FTS : AccessKind.PPIS, mode);
    counter.countRows(rows.size(), 0);
    return rows;
  }

  @Override
  public final <R extends Record> List<R> findByIndexIn(
      Table<R> table, String column, List<?> values, LockMode mode) throws StorageException {
    checkOpen();
    Column c = table.column(column);
    if (!c.indexed()) {
      throw new IllegalArgumentException(table + "." + column + " has no index");
    }
    List<Object> asked = new ArrayList<>(values.size());
    for (Object v : values) {
      table.checkIndexHolds(c, v);
      if (v != null) { // as findByIndex: a null matches no row
        asked.add(v);
      }
    }
    List<R> rows = asked.isEmpty() ? List.of() : guard(() -> doScanIn(table, c, asked, mode));
    counter.count(AccessKind.IS, mode);
    counter.countRows(rows.size(), 0);
    return rows;
  }

  @Override
  public final <R extends Record> List<R> findByIndexFrom(
      Table<R> table, String column, Object value, Key after, int limit, LockMode mode)
      throws StorageException {
    checkOpen();
    Column c = table.column(column);
    if (!c.indexed()) {
      throw new IllegalArgumentException(table + "." + column + " has no index");
    }
    table.checkIndexHolds(c, value);
    if (after != null) {
      checkKey(table, after);
    }
    if (limit <= 0) {
      throw new IllegalArgumentException("a page holds at least one row, not " + limit);
    }
    if (value == null) {
      counter.count(AccessKind.IS, mode);
      return List.of();
    }
    List<R> rows = guard(() -> doScanFrom(table, c, value, after, limit, mode));
    counter.count(AccessKind.IS, mode);
    counter.countRows(rows.size(), 0);
    return rows;
  }

  @Override
  public final List<Key> findKeysByIndex(Table<?> table, String column, Object value)
      throws StorageException {
    checkOpen();
    Column c = table.column(column);
    if (!c.indexed()) {
      throw new IllegalArgumentException(table + "." + column + " has no index");
    }
    table.checkIndexHolds(c, value);
    List<Key> keys = guard(() -> doFindKeysByIndex(table, c, value));
    counter.count(AccessKind.IS, LockMode.READ_COMMITTED);
    counter.countRows(keys.size(), 0);
    return keys;
  }

  @Override
  public final long[] findKeyLongsByIndex(
      Table<?> table, String column, Object value, String keyColumn) throws StorageException {
    checkOpen();
    Column c = table.column(column);
    if (!c.indexed()) {
      throw new IllegalArgumentException(table + "." + column + " has no index");
    }
    int at = table.keyColumns().indexOf(table.column(keyColumn));
    if (at < 0 || table.keyColumns().get(at).type() != ColumnType.BIGINT) {
      throw new IllegalArgumentException(table + "." + keyColumn + " is no BIGINT key column");
    }
    table.checkIndexHolds(c, value);
    long[] values =
        value == null ? new long[0] : guard(() -> doFindKeyLongsByIndex(table, c, value, at));
    Arrays.sort(values);
    counter.count(AccessKind.IS, LockMode.READ_COMMITTED);
    counter.countRows(values.length, 0);
    return values;
  }

  /**
   * The {@code at}-th primary-key column (a {@code BIGINT}) of {@link #doFindKeysByIndex}'s keys,
   * in any order; an engine that can read it from its index entries directly overrides this.
   */
  protected long[] doFindKeyLongsByIndex(Table<?> table, Column column, Object value, int at)
      throws StorageException {
    List<Key> keys = doFindKeysByIndex(table, column, value);
    long[] values = new long[keys.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = ((Number) keys.get(i).value(at)).longValue();
    }
    return values;
  }

  @Override
  public final <R extends Record> List<R> scanAll(Table<R> table, LockMode mode)
      throws StorageException {
    return scan(AccessKind.FTS, table, List.of(), List.of(), mode);
  }

  @Override
  public final long countAll(Table<?> table) throws StorageException {
    checkOpen();
    long n = guard(() -> doCount(table));
    counter.count(AccessKind.FTS, LockMode.READ_COMMITTED);
    return n;
  }

  private <R extends Record> List<R> scan(
      AccessKind kind, Table<R> table, List<Column> columns, List<Object> values, LockMode mode)
      throws StorageException {
    checkOpen();
    List<R> rows = guard(() -> doScan(table, columns, values, mode));
    counter.count(kind, mode);
    counter.countRows(rows.size(), 0);
    return rows;
  }

  @Override
  public final <R extends Record> void insert(Table<R> table, R row) throws StorageException {
    checkOpen();
    table.validate(row);
    writes.insert(table.keyOf(row), row);
  }

  @Override
  public final <R extends Record> void insertIfAbsent(Table<R> table, R row)
      throws StorageException {
    checkOpen();
    table.validate(row);
    writes.insertIfAbsent(table.keyOf(row), row);
  }

  @Override
  public final <R extends Record> void update(Table<R> table, R row) throws StorageException {
    checkOpen();
    table.validate(row);
    writes.update(table.keyOf(row), row);
  }

  @Override
  public final void delete(Table<?> table, Key key) throws StorageException {
    checkKey(table, key);
    writes.delete(key);
  }

  @Override
  public final void deleteRange(Table<?> table, Key first, Key last) throws StorageException {
    checkKey(table, first);
    checkKey(table, last);
    rangeDeletes.add(new KeyRange(table, first, last));
  }

  @Override
  public final void commit() throws StorageException {
    Durability.await(commitDeferred());
  }

  @Override
  public final CompletionStage<Void> commitDeferred() throws StorageException {
    checkOpen();
    if (!writes.isEmpty() || !rangeDeletes.isEmpty()) {
      List<WriteOp> ops = writes.inFlushOrder();
      for (KeyRange r : rangeDeletes) {
        for (WriteOp op : ops) {
          if (r.contains(op.key())) {
            rollback();
            throw new IllegalArgumentException(
                "a write of " + op.key() + ", which the same transaction's range delete covers");
          }
        }
      }
      guard(
          () -> {
            doFlush(rangeDeletes, ops);
            return null;
          });
      counter.count(AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE);
      counter.countRows(0, ops.size() + rangeDeletes.size());
    }
    CompletionStage<Void> durable = guard(this::doCommitDeferred);
    finished = true;
    return durable;
  }

  @Override
  public final void rollback() {
    if (!finished) {
      finished = true;
      doRollback();
    }
  }

  @Override
  public final void close() {
    rollback();
  }

  /** For a key-value engine: keys its store read by point lookups, and put and deleted. */
  protected final void countKeys(long read, long put, long deleted) {
    counter.countKeys(read, put, deleted);
  }

  @Override
  public final AccessCounts accessCounts() {
    return counter.snapshot();
  }

  /** Whether commit or rollback has happened. */
  protected final boolean finished() {
    return finished;
  }

  private void checkOpen() {
    if (finished) {
      throw new IllegalStateException("transaction already committed or rolled back");
    }
  }

  private void checkKey(Table<?> table, Key key) {
    checkOpen();
    if (key.table() != table) {
      throw new IllegalArgumentException("key " + key + " is not a key of " + table);
    }
  }

  private static Column partitionColumn(Table<?> table) {
    return table
        .partitionColumn()
        .orElseThrow(() -> new IllegalArgumentException(table + " is not partitioned"));
  }

  /** A database call that may fail. */
  @FunctionalInterface
  private interface Call<T> {
    T run() throws StorageException;
  }

  /** Runs a call; on any failure the transaction is rolled back before the error propagates. */
  private <T> T guard(Call<T> call) throws StorageException {
    try {
      return call.run();
    } catch (StorageException | RuntimeException | Error e) {
      rollback();
      throw e;
    }
  }
}
