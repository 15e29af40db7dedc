package io.hops.dal;

import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * One database transaction. Reads go to the database at once, each at the lock mode it names; locks
 * are held until commit or rollback. Writes are buffered and flushed in one batch at commit, in the
 * table order of {@link io.hops.dal.schema.Tables}: deletes, then updates, then inserts. Reads do
 * not see this transaction's buffered writes. Closing a transaction that was not committed rolls it
 * back.
 *
 * <p>After any {@link StorageException} the transaction is rolled back and unusable.
 */
public interface Transaction extends RowReads, AutoCloseable {

  /** Primary-key read of one row, or null. Counted as {@link AccessKind#PK}. */
  <R extends Record> R find(Table<R> table, Key key, LockMode mode) throws StorageException;

  /**
   * Batched primary-key read in one round trip. The result is aligned with {@code keys}: element i
   * is the row of key i, or null. The embedded engine takes locks in the order of {@code keys}; a
   * database that locks per statement takes them in index order and then re-reads the keys it found
   * missing, so a row created under a lock the batch waited for is seen. Counted as one {@link
   * AccessKind#BATCH}.
   */
  <R extends Record> List<R> findBatch(Table<R> table, List<Key> keys, LockMode mode)
      throws StorageException;

  /**
   * Partition-pruned index scan: the rows whose partition column equals {@code partitionValue}, in
   * primary-key order. Counted as {@link AccessKind#PPIS}.
   */
  <R extends Record> List<R> findByPartition(Table<R> table, Object partitionValue, LockMode mode)
      throws StorageException;

  /**
   * Partition-pruned index scans of several partitions in one round trip: the rows whose partition
   * column equals one of {@code partitionValues}, partition by partition in the order given, each
   * in primary-key order (a caller that locks passes them ascending, the lock order). Counted as
   * one {@link AccessKind#PPIS}: the replication and decommission checks read the rows of a batch
   * of files this way, one access per table rather than one per file.
   */
  <R extends Record> List<R> findByPartitions(
      Table<R> table, List<?> partitionValues, LockMode mode) throws StorageException;

  /** As {@link #findByPartition(Table, Object, LockMode)}, with one more equality. */
  <R extends Record> List<R> findByPartition(
      Table<R> table, Object partitionValue, String column, Object value, LockMode mode)
      throws StorageException;

  /**
   * Index scan over all partitions: the rows whose indexed {@code column} equals {@code value}, in
   * primary-key order. Counted as {@link AccessKind#IS}.
   */
  <R extends Record> List<R> findByIndex(Table<R> table, String column, Object value, LockMode mode)
      throws StorageException;

  /**
   * Index scans of several values in one round trip: the rows whose indexed {@code column} equals
   * one of {@code values}, value by value in the order given, each in primary-key order. Counted as
   * one {@link AccessKind#IS}: the block health census reads the files of a page of blocks by id
   * this way, one access rather than one per file.
   */
  <R extends Record> List<R> findByIndexIn(
      Table<R> table, String column, List<?> values, LockMode mode) throws StorageException;

  /**
   * The rows whose partition column equals {@code partitionValue}, read committed, summarized by
   * {@code fold}: what a caller that wants a partition's summary rather than its rows asks (a
   * directory's content summary). An engine may answer from a summary it kept since no commit wrote
   * the partition (see {@link PartitionFold}). Counted as {@link AccessKind#PPIS}.
   */
  <R extends Record, A> A foldPartition(
      Table<R> table, Object partitionValue, PartitionFold<R, A> fold) throws StorageException;

  /**
   * One page of a bounded range scan: the rows whose primary key comes after {@code after} (null:
   * from the first), in primary-key order, at most {@code limit}; within one partition if {@code
   * partitionValue} is not null ({@link AccessKind#PPIS}), else over the table ({@link
   * AccessKind#FTS}). Its cost is the page, not what lies beyond it: a cursor (the last key of a
   * page) reads a table or a partition of any size page by page. A locking page locks the rows it
   * returns.
   */
  <R extends Record> List<R> scanFrom(
      Table<R> table, Object partitionValue, Key after, int limit, LockMode mode)
      throws StorageException;

  /**
   * One page of an index scan: the rows whose indexed {@code column} equals {@code value} and whose
   * primary key comes after {@code after} (null: from the first), in primary-key order, at most
   * {@code limit} ({@link AccessKind#IS}). Its cost is the page: a cursor reads the rows of one
   * index value page by page, however many there are.
   */
  <R extends Record> List<R> findByIndexFrom(
      Table<R> table, String column, Object value, Key after, int limit, LockMode mode)
      throws StorageException;

  /**
   * As {@link #findByIndex} read committed, but only the primary keys of the rows, in primary-key
   * order: an engine whose index entries hold the primary key (the embedded one; an InnoDB
   * secondary index) answers from the index alone, without reading or decoding a row. Counted as
   * {@link AccessKind#IS}.
   */
  List<Key> findKeysByIndex(Table<?> table, String column, Object value) throws StorageException;

  /**
   * As {@link #findKeysByIndex}, but only one {@code BIGINT} column of each primary key ({@code
   * keyColumn}), sorted ascending: a full block report's and startup safe mode's scan of a
   * storage's replica block ids, which an engine can decode from its index entries without a key
   * object per row. Counted as {@link AccessKind#IS}.
   */
  long[] findKeyLongsByIndex(Table<?> table, String column, Object value, String keyColumn)
      throws StorageException;

  /** Every row of the table, in primary-key order. Counted as {@link AccessKind#FTS}. */
  <R extends Record> List<R> scanAll(Table<R> table, LockMode mode) throws StorageException;

  /**
   * How many committed rows {@code table} holds, read committed: one full table scan that neither
   * returns nor decodes the rows (a census of a table of millions of rows holds none of them).
   */
  long countAll(Table<?> table) throws StorageException;

  /** Buffers an insert. Refuses a row over a column limit at once, naming the column. */
  <R extends Record> void insert(Table<R> table, R row) throws StorageException;

  /**
   * Buffers an insert that, at commit, leaves a row already there with the same primary key as it
   * is, where {@link #insert} would fail with a {@link DuplicateKeyException}: for a writer that
   * knows a row was absent a moment ago, without reading it again, and another transaction may have
   * inserted the same row since. For tables whose only unique key is the primary key: a SQL
   * engine's duplicate-key clause would absorb a clash in a unique secondary index too.
   */
  <R extends Record> void insertIfAbsent(Table<R> table, R row) throws StorageException;

  /** Buffers an update of the row with the same key. Refuses a row over a column limit at once. */
  <R extends Record> void update(Table<R> table, R row) throws StorageException;

  /** Buffers the delete of the row with this key. */
  void delete(Table<?> table, Key key) throws StorageException;

  /** Buffers the delete of this row. */
  default <R extends Record> void delete(Table<R> table, R row) throws StorageException {
    delete(table, table.keyOf(row));
  }

  /**
   * Buffers the delete of every row whose primary key lies between {@code first} and {@code last},
   * both included: keys that differ in their last column only, a number, of a table without indexes
   * ({@link KeyRange}). The rows are neither read nor locked: the delete takes whatever the range
   * holds when the transaction commits, one range tombstone of a key-value engine rather than a
   * tombstone per row. A caller that must not delete a row written in between locks the rows it
   * knows of first. The transaction writes no row within a range it deletes.
   */
  void deleteRange(Table<?> table, Key first, Key last) throws StorageException;

  /**
   * Flushes the buffered writes (one {@link AccessKind#WRITE_BATCH} if any) and commits; returns
   * once the commit is durable.
   */
  void commit() throws StorageException;

  /**
   * Commits as {@link #commit}, but may return before the commit is durable: its rows are visible
   * and its locks released, and the stage completes once it is on disk, or fails with a {@link
   * StorageException} if it cannot be (the engine then commits nothing more). For a caller that can
   * answer its client later (an RPC whose response waits for the stage), so that it does not hold a
   * thread while the disk syncs. An engine whose commit returns durable gives a completed stage.
   */
  CompletionStage<Void> commitDeferred() throws StorageException;

  /** Discards the buffered writes and releases every lock. Idempotent. */
  void rollback();

  /** This transaction's accesses so far. */
  AccessCounts accessCounts();

  /**
   * Bounds how long each further round trip of this transaction waits for the database's answer (at
   * least 1 ms, never more than the engine's own round-trip timeout): one that waits longer fails
   * with a {@link TransientStorageException} and its connection is given up, not reused. Engines
   * without a network (the embedded one) ignore it.
   */
  default void limitRoundTrips(long millis) {}

  /**
   * The rows this transaction reads from now on are read once (a block report's bulk apply): an
   * engine with a row cache reads them from the store, neither looking them up in its cache nor
   * keeping them there, and its commit replaces the rows the cache holds but adds none, so that a
   * report of a million replicas neither floods the cache nor pays for it. Engines without one
   * ignore it.
   */
  default void readOnce() {}

  /** Rolls back unless committed. */
  @Override
  void close();
}
