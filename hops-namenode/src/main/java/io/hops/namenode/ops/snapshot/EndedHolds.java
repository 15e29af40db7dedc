package io.hops.namenode.ops.snapshot;

import io.hops.dal.StorageException;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.tx.ExecutePhase;

/**
 * The largest hold of a deleted directory that ended while another holder's remained
 * (docs/architecture.md, "Snapshots", several holders). A directory still in the tree has it in its
 * {@code snapshot_id} (its holds only raise it), which the last clearing releases its kept files up
 * to; a deleted one has no row, and its files kept at ids up to a larger hold that ended first
 * would stay for good once the smaller one ends. So a clearing that leaves another holder of a
 * deleted directory writes the hold it ends as a row of the directory's own partition, {@code (dir,
 * hold, -dir)}, the shape of the own hold of a directory made snapshottable while held, keeping the
 * largest: no release of the partition runs while it is there (the last holder's snapshots may have
 * any of it), and the last clearing deletes it and releases up to it ({@link ClearHold}).
 */
final class EndedHolds {
  private EndedHolds() {}

  /**
   * Buffers the memory of {@code ended}, a hold of a deleted directory that another holder still
   * has, over {@code remembered} (the directory's own row, or null) when it is larger.
   */
  static void remember(ExecutePhase tx, SnapshotKeptFileRow ended, SnapshotKeptFileRow remembered)
      throws StorageException {
    if (remembered != null && remembered.snapshotId() >= ended.snapshotId()) {
      return;
    }
    if (remembered != null) {
      tx.delete(SnapshotKeptFileRow.TABLE, remembered);
    }
    long dir = ended.heldId();
    tx.insertIfAbsent(
        SnapshotKeptFileRow.TABLE, SnapshotKeptFileRow.hold(dir, ended.snapshotId(), dir));
  }
}
