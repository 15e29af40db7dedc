package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The quota usage of a tail that several holders keep (docs/architecture.md, "Snapshots", several
 * holders): a truncate (or a change of a file stored in the database) of a file the snapshots of
 * several directories have keeps its cut bytes in one tail with a kept row per holder, but charges
 * them to one holder only (the {@code (dir, snapshot)} of its {@code snapshot_kept_usage} rows),
 * while HDFS keeps them charged until the last snapshot that has them goes (its file diffs' blocks
 * count in the live file's usage while any diff remains). So a due usage row of a tail that another
 * holder still keeps (a {@code snapshot_kept_files} row outside the partition being released, or
 * not due in it) moves to that holder's directory and snapshot, where its release comes to it in
 * turn; the last holder's release takes it off the quotas. A deleted file's usage is not moved: it
 * is charged where the snapshot of its entry has it, and a directory it was renamed away from has
 * its own charge (the rename's, under the negated file id), as HDFS counts a {@code WithName} and
 * its {@code DstReference} apart.
 *
 * <p>Two holders' releases of one tail take turns on its {@code snapshot_kept_replication} key
 * (locked whether or not the row exists), which {@link KeptFiles} locks for the due tails' usage as
 * for its freed files before this reads the holders. The second may have scanned its usage rows
 * before the first moved some to it: every release of a kept row therefore looks, read committed,
 * for usage rows at that row's key that its scan did not see ({@link #movedInMeanwhile}), and
 * leaves a further batch to judge them.
 */
final class KeptUsageHolders {
  /** The kept rows of each inode asked about, by the index on {@code inode_id}. */
  private final Map<Long, List<SnapshotKeptFileRow>> holders = new HashMap<>();

  /** The due usage rows that move, with the holder they move to. */
  private final Map<SnapshotKeptUsageRow, SnapshotKeptFileRow> moves = new LinkedHashMap<>();

  /** The kept rows of {@code inodeId}, read once (read committed) by the rows' index. */
  List<SnapshotKeptFileRow> of(LockPhase tx, long inodeId) throws StorageException {
    List<SnapshotKeptFileRow> rows = holders.get(inodeId);
    if (rows == null) {
      rows =
          tx.findByIndex(SnapshotKeptFileRow.TABLE, "inode_id", inodeId, LockMode.READ_COMMITTED);
      holders.put(inodeId, rows);
    }
    return rows;
  }

  /**
   * Judges the usage rows {@code due} of partition {@code dirId} (snapshot ids below {@code
   * below}): those of an inode another holder keeps move to it; the others are released.
   */
  void judge(LockPhase tx, long dirId, long below, List<SnapshotKeptUsageRow> due)
      throws StorageException {
    for (SnapshotKeptUsageRow u : due) {
      if (!chargesATail(u)) {
        continue;
      }
      for (SnapshotKeptFileRow r : of(tx, u.inodeId())) {
        if (r.dirId() != dirId || r.snapshotId() >= below) {
          moves.put(u, r);
          break;
        }
      }
    }
  }

  /**
   * Whether {@code u} charges a tail's bytes: a delete's row counts at least its inode, a rename's
   * has the negated file id, and a tail's counts bytes only ({@link CopyOnTruncate#chargeKept},
   * {@link SmallFileTails#charge}).
   */
  static boolean chargesATail(SnapshotKeptUsageRow u) {
    return u.inodeId() > 0 && u.ns() == 0 && !u.untilReclaim();
  }

  /** Whether {@code u} moves to another holder rather than being released. */
  boolean moves(SnapshotKeptUsageRow u) {
    return moves.containsKey(u);
  }

  /** Buffers the moves: each row deleted and written again under its next holder. */
  void move(ExecutePhase tx) throws StorageException {
    for (Map.Entry<SnapshotKeptUsageRow, SnapshotKeptFileRow> m : moves.entrySet()) {
      SnapshotKeptUsageRow u = m.getKey();
      SnapshotKeptFileRow to = m.getValue();
      tx.delete(SnapshotKeptUsageRow.TABLE, u);
      tx.insertIfAbsent(
          SnapshotKeptUsageRow.TABLE,
          new SnapshotKeptUsageRow(
              to.dirId(), to.snapshotId(), u.inodeId(), u.quotaId(), u.ns(), u.ds()));
    }
  }

  /**
   * Whether another holder's release moved usage rows of one of the {@code freed} rows' inodes to
   * it after {@code seen} was scanned: a pruned scan, read committed, from each freed row's key.
   */
  static boolean movedInMeanwhile(
      LockPhase tx, List<SnapshotKeptFileRow> freed, List<SnapshotKeptUsageRow> seen, int batch)
      throws StorageException {
    Set<SnapshotKeptUsageRow> known = new HashSet<>(seen);
    for (SnapshotKeptFileRow r : freed) {
      Key from =
          SnapshotKeptUsageRow.TABLE.key(r.dirId(), r.snapshotId(), r.inodeId(), Long.MIN_VALUE);
      for (SnapshotKeptUsageRow u :
          tx.scanFrom(
              SnapshotKeptUsageRow.TABLE, r.dirId(), from, batch, LockMode.READ_COMMITTED)) {
        if (u.snapshotId() != r.snapshotId() || u.inodeId() != r.inodeId()) {
          break;
        }
        if (!known.contains(u)) {
          return true;
        }
      }
    }
    return false;
  }
}
