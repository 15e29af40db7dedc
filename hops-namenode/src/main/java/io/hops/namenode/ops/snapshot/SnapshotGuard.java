package io.hops.namenode.ops.snapshot;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshottableDirRow;
import io.hops.namenode.Namesystem;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * What a delete or a rename must know about the snapshottable directories at or below a directory
 * it removes or moves (HDFS FSDirSnapshotOp.checkSnapshot, FSDirRenameOp.validateNestSnapshot): one
 * with snapshots refuses it; those without are dropped from the list with the directory. Read only
 * when snapshots are enabled, so a namenode without them pays nothing.
 */
public final class SnapshotGuard {
  private static final SnapshotGuard NONE = new SnapshotGuard(List.of());

  private final List<SnapshottableDirs.Dir> dirs;

  private SnapshotGuard(List<SnapshottableDirs.Dir> dirs) {
    this.dirs = dirs;
  }

  /** The snapshottable directories at or below {@code dir}, if snapshots are on and it is one. */
  public static SnapshotGuard read(Namesystem ns, LockPhase tx, InodeRow dir)
      throws StorageException {
    if (!ns.snapshots().enabled() || dir == null || !dir.isDir()) {
      return NONE;
    }
    return new SnapshotGuard(SnapshottableDirs.atOrBelow(SnapshottableDirs.read(tx), dir.id()));
  }

  /** Whether any snapshottable directory lies at or below the directory. */
  public boolean any() {
    return !dirs.isEmpty();
  }

  /** HDFS's refusal to delete, or rename, a directory holding one with snapshots. */
  public void refuseSnapshotted() throws SnapshotException {
    for (SnapshottableDirs.Dir d : dirs) {
      if (d.hasSnapshots()) {
        throw new SnapshotException(
            "The directory "
                + d.path()
                + " cannot be deleted since "
                + d.path()
                + " is snapshottable and already has snapshots");
      }
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

  /** Drops the removed directories from the list of snapshottable ones. */
  public void dropRemoved(ExecutePhase tx) throws StorageException {
    for (SnapshottableDirs.Dir d : dirs) {
      tx.delete(SnapshottableDirRow.TABLE, new SnapshottableDirRow(d.row().id()));
    }
  }
}
