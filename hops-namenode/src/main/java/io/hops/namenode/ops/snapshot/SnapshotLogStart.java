package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;

/**
 * From which snapshot id on {@code snapshot_version_log} has every version (docs/architecture.md,
 * "Diff reports", the log): a row of {@code variables} written once, by the first namenode of a
 * release that reads it, as the snapshot counter's next id then. A version at id {@code v} is
 * written after snapshot {@code v} was taken, so every version at an id from this one on was
 * written by a namenode that logs it; a store formatted by such a namenode starts at 1. Versions
 * written before the log existed (schema version 12) have no log row: a diff report whose earlier
 * end is older walks its whole tree, as it did before.
 */
public final class SnapshotLogStart {
  static final String NAME = "snapshot_log_since";

  /** The row's key in {@code variables}. */
  public static final Key KEY = VariableRow.TABLE.key(NAME);

  private SnapshotLogStart() {}

  /** Writes the row if no namenode has yet: the next snapshot id. */
  public static void ensure(Storage storage) throws StorageException {
    try (Transaction tx = storage.begin()) {
      if (tx.find(VariableRow.TABLE, KEY, LockMode.READ_COMMITTED) != null) {
        return;
      }
    }
    try (Transaction tx = storage.begin()) {
      VariableRow counter = tx.find(VariableRow.TABLE, SnapshotIds.KEY, LockMode.EXCLUSIVE);
      long next = counter == null ? 1 : counter.longValue();
      tx.insert(VariableRow.TABLE, new VariableRow(NAME, next, null));
      tx.commit();
    } catch (io.hops.dal.DuplicateKeyException e) {
      // Another namenode wrote it first.
    }
  }

  /** Whether the log has every version at {@code snapshotId} and later ({@code row} as read). */
  static boolean covers(VariableRow row, long snapshotId) {
    return row != null && snapshotId >= row.longValue();
  }
}
