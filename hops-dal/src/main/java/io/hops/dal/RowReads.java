package io.hops.dal;

import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;

/**
 * The reads by primary key and by index that a {@link Transaction} and a namenode operation's lock
 * phase both offer: for a lookup shared by code that runs in either (the replication snapshots keep
 * for a block, read by the block health census and by the replication check).
 */
public interface RowReads {
  /** Primary-key read of one row, or null ({@link Transaction#find}). */
  <R extends Record> R find(Table<R> table, Key key, LockMode mode) throws StorageException;

  /** Index scan over all partitions ({@link Transaction#findByIndex}). */
  <R extends Record> List<R> findByIndex(Table<R> table, String column, Object value, LockMode mode)
      throws StorageException;
}
