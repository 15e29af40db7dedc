package io.hops.dal;

import io.hops.dal.schema.Table;

/**
 * Rows written straight into the store's files, outside transactions: no row locks, no write-ahead
 * log, no duplicate check against the store (docs/architecture.md, "Bulk load"). For a load of many
 * new rows, such as a namespace built for a benchmark: its rows are those a transaction's inserts
 * would write (the same tables, keys, row encoding and index entries), made visible a flush at a
 * time.
 *
 * <p>The caller owns what a transaction would check: every key is new to the store and to the load,
 * and no transaction writes the load's keys while it runs. A flush whose keys follow on from those
 * of no other flush (one range of new ids each, say) costs the store least: its files join the
 * store without overlapping any other.
 *
 * <p>Thread-safe; one thread usually fills one load.
 */
public interface BulkLoad extends AutoCloseable {
  /** Adds {@code row} to the next flush. */
  <R extends Record> void insert(Table<R> table, R row) throws StorageException;

  /** Writes the rows added since the last flush into the store: visible and durable on return. */
  void flush() throws StorageException;

  /** Drops the rows not flushed. */
  @Override
  void close();
}
