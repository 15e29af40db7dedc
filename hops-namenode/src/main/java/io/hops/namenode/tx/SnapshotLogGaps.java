package io.hops.namenode.tx;

import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;

/**
 * The latest snapshot id at which a version was written below a snapshottable directory but logged
 * under another one (docs/architecture.md, "Diff reports", which directories): below a directory
 * held by a move, {@code snapshot_version_log} names the held directory, whose holder's snapshots
 * read the version ({@link CopyOnWrite}), so the log of a snapshottable directory above it misses
 * the version. A row of {@code variables} per such snapshottable directory, written by the writer
 * of such a version (the row locked in its lock phase, raised in its execute phase): a diff report
 * of the directory from an earlier snapshot than the row's id cannot take the directories to walk
 * from its log alone, and walks them all.
 */
public final class SnapshotLogGaps {
  private static final String PREFIX = "snapshot_log_gap/";

  private SnapshotLogGaps() {}

  /** The row of snapshottable directory {@code dirId}. */
  public static Key key(long dirId) {
    return VariableRow.TABLE.key(PREFIX + dirId);
  }

  static VariableRow row(long dirId, long snapshotId) {
    return new VariableRow(PREFIX + dirId, snapshotId, null);
  }

  /** Whether the directory's log has every version below it from {@code snapshotId} on. */
  public static boolean noneFrom(VariableRow gap, long snapshotId) {
    return gap == null || gap.longValue() < snapshotId;
  }
}
