package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a housekeeping task is in its queue table: each round reads the next page of rows in
 * primary-key order after the last key of the previous page (one bounded scan, {@link
 * Transaction#scanFrom}), and starts over after a short page. The cursor is the leader's memory
 * only, a hint: a new leader starts from the beginning, and rows inserted behind the cursor are
 * seen on the next pass.
 */
final class QueueCursor<R extends Record> {
  private final Table<R> table;
  private final int pageRows;
  private Key after;
  private boolean wrapped;

  QueueCursor(Table<R> table, int pageRows) {
    this.table = table;
    this.pageRows = pageRows;
  }

  static int pageRows(Configuration conf) {
    return Math.max(
        1,
        conf.getInt(
            NamenodeConfig.HOUSEKEEPING_PAGE_ROWS, NamenodeConfig.HOUSEKEEPING_PAGE_ROWS_DEFAULT));
  }

  /** The next page, read committed; the cursor moves past it. */
  List<R> next(Transaction tx) throws StorageException {
    List<R> page = tx.scanFrom(table, null, after, pageRows, LockMode.READ_COMMITTED);
    wrapped = page.size() < pageRows;
    after = wrapped ? null : table.keyOf(page.get(page.size() - 1));
    return page;
  }

  /** Whether the last page ended the table: the next one starts over. */
  boolean wrapped() {
    return wrapped;
  }
}
