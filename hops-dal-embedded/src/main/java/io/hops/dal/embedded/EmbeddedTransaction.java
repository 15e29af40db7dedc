package io.hops.dal.embedded;

import io.hops.dal.AbstractTransaction;
import io.hops.dal.Durability;
import io.hops.dal.KeyRange;
import io.hops.dal.LockMode;
import io.hops.dal.PartitionFold;
import io.hops.dal.StorageException;
import io.hops.dal.WriteOp;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * A transaction on the RocksDB store. Reads see the latest committed rows; a locking read first
 * takes the row lock from the store's {@link LockManager}, then reads, so it sees the commit of
 * whoever held the lock before. A key is locked whether or not its row exists, so two transactions
 * that read-then-insert the same missing key serialize. Writes are buffered and committed as one
 * write batch under the exclusive locks of every written key.
 */
final class EmbeddedTransaction extends AbstractTransaction {
  /** How often a locked scan re-reads to cover rows that appeared while it was locking. */
  private static final int MAX_SCAN_ROUNDS = 5;

  private final RocksStore store;
  private final LockManager locks;
  private final RowReader reader;
  private CommitBatch pending;

  /** Whether this transaction took an exclusive lock: the group sync counts it as a writer. */
  private boolean writer;

  /**
   * What this transaction read under a row lock, by row key: the row, or {@link RowCache#ABSENT}.
   * The lock is held until commit, so no one else can have written those rows, and the commit's
   * duplicate check and index maintenance need not read them again. Rows of tables whose rows are
   * not shared ({@link StoredTable#cacheable}) are kept only as absent: a caller may change the
   * bytes of a row it was handed.
   */
  private final Map<KeyBytes, Object> lockedReads = new HashMap<>();

  /** Whether reads go to the store past the caches ({@link #readOnce}). */
  private boolean readOnce;

  EmbeddedTransaction(EmbeddedStorage storage) {
    super(storage.totals());
    this.store = storage.store();
    this.locks = store.locks();
    this.reader = storage.reader().counting(n -> countKeys(n, 0, 0));
  }

  @Override
  protected <R extends Record> R doFind(Table<R> table, Key key, LockMode mode)
      throws StorageException {
    lock(key, mode);
    StoredTable<R> t = StoredTable.of(table);
    KeyBytes rowKey = t.rowKeyBytes(key);
    R row =
        t.partitionMarks
                && store
                    .highWaters()
                    .partitionNeverHeld(reader.prefixes(), t.partitionSpace(rowKey), rowKey.bytes())
            ? null
            : readOnce
                ? reader.getOnce(t, rowKey)
                : mode == LockMode.EXCLUSIVE ? reader.getToWrite(t, rowKey) : reader.get(t, rowKey);
    if (mode != LockMode.READ_COMMITTED) {
      remember(t, rowKey, row);
    }
    return row;
  }

  private void remember(StoredTable<?> t, KeyBytes rowKey, Record row) {
    if (row == null) {
      lockedReads.put(rowKey, RowCache.ABSENT);
    } else if (t.cacheable) {
      lockedReads.put(rowKey, row);
    }
  }

  @Override
  protected <R extends Record> List<R> doFindBatch(Table<R> table, List<Key> keys, LockMode mode)
      throws StorageException {
    StoredTable<R> t = StoredTable.of(table);
    List<KeyBytes> rowKeys = new ArrayList<>(keys.size());
    for (Key k : keys) {
      lock(k, mode);
      rowKeys.add(t.rowKeyBytes(k));
    }
    List<R> rows =
        readOnce
            ? reader.getAllOnce(t, rowKeys)
            : mode == LockMode.EXCLUSIVE
                ? reader.getAllToWrite(t, rowKeys)
                : reader.getAll(t, rowKeys);
    if (mode != LockMode.READ_COMMITTED) {
      for (int i = 0; i < rows.size(); i++) {
        remember(t, rowKeys.get(i), rows.get(i));
      }
    }
    return rows;
  }

  /**
   * Point reads go to the store: the store holds every commit before its locks are released, so a
   * read under a lock is exact there as in the caches, and a read committed one sees a commit at
   * least as new. The commit adds no row to the row cache ({@link RowCache#committedPast}).
   */
  @Override
  public void readOnce() {
    readOnce = true;
  }

  @Override
  protected <R extends Record> List<R> doScan(
      Table<R> table, List<Column> columns, List<Object> values, LockMode mode)
      throws StorageException {
    StoredTable<R> t = StoredTable.of(table);
    if (mode == LockMode.READ_COMMITTED) {
      return scanOnce(t, columns, values);
    }
    // Read, lock what was read, and read again until nothing new appears.
    Set<Key> locked = new HashSet<>();
    for (int round = 0; ; round++) {
      List<R> rows = scanOnce(t, columns, values);
      boolean fresh = false;
      for (R row : rows) {
        Key k = table.keyOf(row);
        if (locked.add(k)) {
          lock(k, mode);
          fresh = true;
        }
      }
      if (!fresh || round == MAX_SCAN_ROUNDS) {
        return fresh ? scanOnce(t, columns, values) : rows;
      }
    }
  }

  @Override
  protected <R extends Record, A> A doFold(
      Table<R> table, Column partition, Object partitionValue, PartitionFold<R, A> fold)
      throws StorageException {
    if (partitionValue == null || !table.keyColumns().get(0).equals(partition)) {
      return super.doFold(table, partition, partitionValue, fold);
    }
    StoredTable<R> t = StoredTable.of(table);
    return reader.fold(t, t.layout.rowPrefix(List.of(partition), List.of(partitionValue)), fold);
  }

  @Override
  protected long doCount(Table<?> table) throws StorageException {
    return reader.count(StoredTable.of(table));
  }

  @Override
  protected <R extends Record> List<R> doScanFrom(
      Table<R> table, Column partition, Object partitionValue, Key after, int limit, LockMode mode)
      throws StorageException {
    StoredTable<R> t = StoredTable.of(table);
    if (partition != null && partitionValue == null) {
      return List.of();
    }
    List<R> rows;
    if (partition != null && t.unique.contains(partition)) {
      // A unique index's entry is keyed by the value alone: at most one row.
      byte[] afterKey = after == null ? null : t.rowKey(after);
      rows = new ArrayList<>();
      for (R row : reader.scanIndex(t, partition, partitionValue)) {
        if (afterKey == null || Arrays.compareUnsigned(t.rowKey(row), afterKey) > 0) {
          rows.add(row);
        }
      }
    } else if (partition != null && !partition.partitionKey()) {
      rows =
          reader.scanIndexFrom(
              t, partition, partitionValue, after == null ? null : t.rowKey(after), limit);
    } else {
      byte[] prefix =
          partition == null
              ? t.layout.rowPrefix()
              : t.layout.rowPrefix(List.of(partition), List.of(partitionValue));
      rows = reader.scanFrom(t, prefix, after == null ? null : t.rowKey(after), limit);
    }
    if (mode == LockMode.READ_COMMITTED || rows.isEmpty()) {
      return rows;
    }
    // Lock what the page found, then read it again under the locks: a row deleted meanwhile
    // drops out; one inserted meanwhile belongs to a later read of the page.
    List<KeyBytes> keys = new ArrayList<>(rows.size());
    for (R row : rows) {
      lock(table.keyOf(row), mode);
      keys.add(new KeyBytes(t.rowKey(row)));
    }
    List<R> locked = new ArrayList<>(rows.size());
    for (R row : reader.getAll(t, keys)) {
      if (row != null) {
        locked.add(row);
      }
    }
    return locked;
  }

  @Override
  protected List<Key> doFindKeysByIndex(Table<?> table, Column column, Object value)
      throws StorageException {
    if (value == null) {
      return List.of();
    }
    StoredTable<?> t = StoredTable.of(table);
    // An index entry's value is its row's key: the primary key, with no row read.
    List<byte[]> rowKeys = reader.valuesWithPrefix(t.layout.indexPrefix(column, value));
    List<Key> keys = new ArrayList<>(rowKeys.size());
    for (byte[] rowKey : rowKeys) {
      keys.add(t.layout.keyOf(rowKey));
    }
    return keys;
  }

  @Override
  protected long[] doFindKeyLongsByIndex(Table<?> table, Column column, Object value, int at)
      throws StorageException {
    StoredTable<?> t = StoredTable.of(table);
    // An index entry's key is the index's prefix for the value, then its row's key columns.
    byte[] prefix = t.layout.indexPrefix(column, value);
    int offset = prefix.length;
    for (int i = 0; i < at; i++) {
      int width = OrderedBytes.fixedKeyWidth(table.keyColumns().get(i));
      if (width < 0) {
        return super.doFindKeyLongsByIndex(table, column, value, at);
      }
      offset += width;
    }
    return reader.longsInKeysWithPrefix(prefix, offset);
  }

  /**
   * One read of the rows matching the equalities: a prefix iteration over the leading key columns
   * the equalities fix, else an index scan, then the remaining equalities as a filter.
   */
  private <R extends Record> List<R> scanOnce(
      StoredTable<R> t, List<Column> columns, List<Object> values) throws StorageException {
    for (Object v : values) {
      if (v == null) {
        return List.of(); // as in SQL, "column = NULL" matches nothing
      }
    }
    List<Column> keyColumns = t.table.keyColumns();
    int leading = 0;
    while (leading < columns.size()
        && leading < keyColumns.size()
        && columns.get(leading).equals(keyColumns.get(leading))) {
      leading++;
    }
    List<R> rows;
    int filtered;
    if (leading > 0 || columns.isEmpty()) {
      rows =
          reader.scan(
              t, t.layout.rowPrefix(columns.subList(0, leading), values.subList(0, leading)));
      filtered = leading;
    } else if (columns.get(0).indexed() && t.table.indexHolds(columns.get(0), values.get(0))) {
      rows = reader.scanIndex(t, columns.get(0), values.get(0));
      filtered = 1;
    } else {
      rows = reader.scan(t, t.layout.rowPrefix());
      filtered = 0;
    }
    if (filtered == columns.size()) {
      return rows;
    }
    List<R> matching = new ArrayList<>(rows.size());
    for (R row : rows) {
      if (matches(
          t,
          row,
          columns.subList(filtered, columns.size()),
          values.subList(filtered, values.size()))) {
        matching.add(row);
      }
    }
    return matching;
  }

  private static <R extends Record> boolean matches(
      StoredTable<R> t, R row, List<Column> columns, List<Object> values) {
    for (int i = 0; i < columns.size(); i++) {
      Object actual = t.table.get(row, columns.get(i).position());
      Object wanted = values.get(i);
      boolean equal;
      if (actual instanceof Number a && wanted instanceof Number w) {
        equal = a.longValue() == w.longValue();
      } else if (actual instanceof byte[] a && wanted instanceof byte[] w) {
        equal = Arrays.equals(a, w);
      } else {
        equal = wanted.equals(actual);
      }
      if (!equal) {
        return false;
      }
    }
    return true;
  }

  @Override
  protected void doFlush(List<KeyRange> ranges, List<WriteOp> ops) throws StorageException {
    if (!ranges.isEmpty()) {
      becomeWriter(); // no row lock taken for a range: counted in among the writers here
    }
    for (WriteOp op : ops) {
      // A row written is mostly one read under its lock first: the key of that read (a key
      // object of its own, built by the reader) carries the encoding, which the write's key takes
      // rather than encoding the same row key again.
      Object locked = lock(op.key(), LockMode.EXCLUSIVE);
      if (locked != op.key()
          && locked instanceof Key read
          && read.encoded() instanceof KeyBytes encoded
          && op.key().encoded() == null) {
        op.key().encoded(encoded);
      }
    }
    pending =
        CommitBatch.of(
            reader,
            lockedReads,
            value -> lock(value, LockMode.EXCLUSIVE),
            store.capacities(),
            store.highWaters(),
            readOnce,
            ranges,
            ops);
  }

  @Override
  protected void doCommit() throws StorageException {
    Durability.await(doCommitDeferred());
  }

  /** Writes the batch, then releases the locks; the stage completes when the batch is synced. */
  @Override
  protected CompletionStage<Void> doCommitDeferred() throws StorageException {
    try {
      if (pending == null) {
        return Durability.DURABLE;
      }
      countKeys(0, pending.keysPut(), pending.keysDeleted());
      var growth = pending.growth();
      if (growth.isEmpty()) {
        return store.writes().commitDeferred("commit", pending, this::writerEnds);
      }
      store.capacities().reserve(growth, reader.prefixes());
      try {
        return store.writes().commitDeferred("commit", pending, this::writerEnds);
      } catch (StorageException | RuntimeException e) {
        store.capacities().release(growth);
        throw e;
      }
    } finally {
      release();
    }
  }

  @Override
  protected void doRollback() {
    release();
  }

  private void release() {
    if (pending != null) {
      pending.close();
      pending = null;
    }
    locks.releaseAll(this);
    writerEnds();
  }

  /** Counts this transaction out of the group sync's writers, if it was counted in. Idempotent. */
  private void writerEnds() {
    if (writer) {
      writer = false;
      store.writes().writerEnds();
    }
  }

  /** Returns the name the lock is held under ({@link LockManager#acquire}). */
  private Object lock(Object lockName, LockMode mode) throws StorageException {
    if (mode == LockMode.EXCLUSIVE) {
      becomeWriter();
    }
    return locks.acquire(this, lockName, mode);
  }

  /** Counts this transaction in among the group sync's writers, once. */
  private void becomeWriter() {
    if (!writer) {
      writer = true;
      store.writes().writerBegins();
    }
  }
}
