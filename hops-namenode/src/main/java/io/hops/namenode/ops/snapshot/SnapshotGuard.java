package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshottableDirRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * What a delete or a rename must know about the snapshottable directories at or below a directory
 * it removes or moves (HDFS FSDirSnapshotOp.checkSnapshot, FSDirRenameOp.validateNestSnapshot): one
 * with snapshots refuses it; those without are dropped from the list with the directory. Read only
 * when snapshots are enabled, so a namenode without them pays nothing.
 */
public final class SnapshotGuard {
  private static final SnapshotGuard NONE = new SnapshotGuard(List.of(), List.of(), List.of());

  private final List<SnapshottableDirs.Dir> dirs;

  /** Those of {@link #dirs} with snapshots of their own. */
  private final List<SnapshottableDirs.Dir> snapshotted;

  /**
   * The own hold rows of those of {@link #dirs} that are held and have no snapshots of their own.
   */
  private final List<SnapshotKeptFileRow> ownHolds;

  private SnapshotGuard(
      List<SnapshottableDirs.Dir> dirs,
      List<SnapshottableDirs.Dir> snapshotted,
      List<SnapshotKeptFileRow> ownHolds) {
    this.dirs = dirs;
    this.snapshotted = snapshotted;
    this.ownHolds = ownHolds;
  }

  /** The snapshottable directories at or below {@code dir}, if snapshots are on and it is one. */
  public static SnapshotGuard read(SnapshotSettings settings, LockPhase tx, InodeRow dir)
      throws StorageException {
    if (!settings.enabled() || dir == null || !dir.isDir()) {
      return NONE;
    }
    List<SnapshottableDirs.Dir> dirs =
        SnapshottableDirs.atOrBelow(SnapshottableDirs.read(tx), dir.id());
    List<SnapshottableDirs.Dir> snapshotted = new ArrayList<>();
    List<SnapshotKeptFileRow> ownHolds = new ArrayList<>();
    for (SnapshottableDirs.Dir d : dirs) {
      InodeRow row = d.row();
      if (hasOwnSnapshots(tx, row)) {
        snapshotted.add(d);
      } else if (row.snapshotId() > 0) {
        SnapshotKeptFileRow hold =
            tx.find(
                SnapshotKeptFileRow.TABLE,
                SnapshotKeptFileRow.TABLE.keyOf(
                    SnapshotKeptFileRow.hold(row.id(), row.snapshotId(), row.id())),
                LockMode.EXCLUSIVE);
        if (hold != null) {
          ownHolds.add(hold);
        }
      }
    }
    return new SnapshotGuard(dirs, snapshotted, ownHolds);
  }

  /**
   * Whether snapshottable directory {@code dir} has snapshots of its own: its {@code snapshot_id}
   * names its latest one, or, for a held directory made snapshottable and without snapshots of its
   * own, the hold, a snapshot of another directory (one primary-key read tells them apart).
   */
  private static boolean hasOwnSnapshots(LockPhase tx, InodeRow dir) throws StorageException {
    return dir.snapshotId() > 0
        && tx.find(
                SnapshotRow.TABLE,
                SnapshotRow.TABLE.key(dir.id(), dir.snapshotId()),
                LockMode.READ_COMMITTED)
            != null;
  }

  /** Whether any snapshottable directory lies at or below the directory. */
  public boolean any() {
    return !dirs.isEmpty();
  }

  /** HDFS's refusal to delete, or rename, a directory holding one with snapshots. */
  public void refuseSnapshotted() throws SnapshotException {
    if (!snapshotted.isEmpty()) {
      String path = snapshotted.get(0).path();
      throw new SnapshotException(
          "The directory "
              + path
              + " cannot be deleted since "
              + path
              + " is snapshottable and already has snapshots");
    }
  }

  /**
   * HDFS's refusal to move snapshottable directories below a snapshottable one, {@code
   * dstAncestors} being the target's existing ancestors from the root down to its parent. HDFS's
   * root always has the snapshottable feature, so a move straight into the root is refused too.
   */
  public void refuseNested(String src, List<InodeRow> dstAncestors, String dstParentPath)
      throws SnapshotException {
    if (dirs.isEmpty() || dstAncestors.isEmpty()) {
      return;
    }
    boolean underRoot = dstAncestors.size() == 1;
    if (underRoot || dstAncestors.stream().anyMatch(InodeRow::snapshottable)) {
      throw new SnapshotException(
          "Unable to rename because "
              + src
              + " has snapshottable descendant directories and "
              + dstParentPath
              + " is a descent of a snapshottable directory, and HDFS does not support nested"
              + " snapshottable directory.");
    }
  }

  /**
   * Drops the removed directories from the list of snapshottable ones, and the own hold rows of
   * those that were held (as disallowSnapshot does): the hold row in their holder's partition ends
   * the hold when the holder's snapshots go.
   */
  public void dropRemoved(ExecutePhase tx) throws StorageException {
    for (SnapshottableDirs.Dir d : dirs) {
      tx.delete(SnapshottableDirRow.TABLE, new SnapshottableDirRow(d.row().id()));
    }
    for (SnapshotKeptFileRow hold : ownHolds) {
      tx.delete(SnapshotKeptFileRow.TABLE, hold);
    }
  }
}
