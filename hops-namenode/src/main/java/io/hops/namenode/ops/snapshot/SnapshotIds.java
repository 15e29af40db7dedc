package io.hops.namenode.ops.snapshot;

import io.hops.dal.StorageException;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;

/**
 * The database counter of snapshot ids: a row of {@code variables} that a snapshot creation reads
 * exclusively and advances in its own transaction, so ids grow in commit order across namenodes
 * (the copy-on-write rule "an inode at snapshot s is its earliest version with id >= s" needs
 * that). Allows and disallows lock the same row, which serializes them with each other and with
 * creations; a subtree operation's mark locks it shared, which serializes marks with creations
 * ({@link SubtreeOperationsAround}).
 */
public final class SnapshotIds {
  static final String NAME = "snapshot_id";

  /** The counter's row in {@code variables}. */
  public static final Key KEY = VariableRow.TABLE.key(NAME);

  /** The counter's row before any snapshot was taken: the next id is 1. */
  public static VariableRow first() {
    return new VariableRow(NAME, 1, null);
  }

  private SnapshotIds() {}

  /** The next id given the counter's row as read (null: none taken yet), and writes the advance. */
  static long take(ExecutePhase tx, VariableRow counter) throws StorageException {
    long id = counter == null ? 1 : counter.longValue();
    VariableRow next = new VariableRow(NAME, id + 1, null);
    if (counter == null) {
      tx.insert(VariableRow.TABLE, next);
    } else {
      tx.update(VariableRow.TABLE, next);
    }
    return id;
  }
}
