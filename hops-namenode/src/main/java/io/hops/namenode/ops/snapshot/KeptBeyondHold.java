package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * What becomes of the rows a held directory's partition of {@code snapshot_kept_files} and {@code
 * snapshot_kept_usage} has at ids above its holds once the last one has ended
 * (docs/architecture.md, "Snapshots", "A hold's end"). Below a held directory every kept file goes
 * to its partition, also while it sits below a snapshottable (or another held) directory whose
 * later snapshots may read the file; no {@code deleteSnapshot} of that directory scans this
 * partition. Its hold's end therefore hands them to the directory a file deleted below it would be
 * kept under now ({@link LockPhase#keeperBelow}, the path read by id up to the root), at their id
 * or that directory's latest snapshot if lower (no later snapshot had a file deleted before it),
 * or, when none covers it, releases them. A directory that has a snapshottable one with snapshots
 * below it keeps them: its kept files may be that directory's, which a file's row does not tell.
 */
record KeptBeyondHold(long heirDir, long cap, boolean releases) {
  /** The rows stay: the directory is still held, snapshottable, gone, or unreachable. */
  static final KeptBeyondHold STAY = new KeptBeyondHold(0, 0, false);

  /** No snapshot or hold covers the directory any more: every row is due. */
  static final KeptBeyondHold RELEASE = new KeptBeyondHold(0, 0, true);

  /** Whether the rows move to {@link #heirDir}'s partition. */
  boolean moves() {
    return heirDir != 0;
  }

  /** The row {@code r} becomes in the heir's partition. */
  SnapshotKeptFileRow moved(SnapshotKeptFileRow r) {
    return new SnapshotKeptFileRow(heirDir, Math.min(r.snapshotId(), cap), r.inodeId());
  }

  /** The usage row {@code u} becomes in the heir's partition. */
  SnapshotKeptUsageRow moved(SnapshotKeptUsageRow u) {
    return new SnapshotKeptUsageRow(
        heirDir, Math.min(u.snapshotId(), cap), u.inodeId(), u.quotaId(), u.ns(), u.ds());
  }

  /**
   * For {@code seen} (read committed; null when deleted), whose holds have all ended: the
   * directories above it by id (read committed; the path of a detached subtree ends at its root)
   * and the snapshottable directories (their list, {@link SnapshottableDirs}); the heir's row is
   * then locked exclusively, before the caller locks {@code seen}'s (path order), so that the
   * heir's {@code deleteSnapshot}, which locks it too, either sees the moved rows or has finished
   * before the heir's latest snapshot is read. The caller checks that {@code seen} did not change
   * before its lock ({@link #check}).
   */
  static KeptBeyondHold afterHolds(LockPhase tx, InodeRow seen) throws StorageException {
    if (seen == null || !seen.isDir() || seen.snapshottable()) {
      return STAY;
    }
    Deque<InodeRow> above = new ArrayDeque<>();
    InodeRow at = seen;
    while (at.id() != Inodes.ROOT_ID && at.parentId() != Inodes.DETACHED) {
      InodeRow parent = tx.inodePaths().byId(at.parentId());
      if (parent == null) {
        return STAY; // a subtree being reclaimed
      }
      above.addFirst(parent);
      at = parent;
    }
    for (SnapshottableDirs.Dir d : SnapshottableDirs.read(tx)) {
      if (d.row().snapshotId() > 0 && d.ancestors().contains(seen.id())) {
        return STAY;
      }
    }
    SnapshotKeptFileRow keeper = above.isEmpty() ? null : tx.keeperBelow(List.copyOf(above));
    if (keeper == null) {
      return RELEASE;
    }
    InodeRow heir = null;
    for (InodeRow r : above) {
      if (r.id() == keeper.dirId()) {
        heir = r;
      }
    }
    InodeRow locked = tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(heir), LockMode.EXCLUSIVE);
    if (!heir.equals(locked)) {
      throw new TransientStorageException("a hold's heir " + heir.id() + " changed");
    }
    return new KeptBeyondHold(keeper.dirId(), keeper.snapshotId(), false);
  }

  /** Fails the attempt (to be retried) when {@code locked} is not {@code seen} as it was read. */
  void check(InodeRow seen, InodeRow locked) throws TransientStorageException {
    if (!equals(STAY) && !seen.equals(locked)) {
      throw new TransientStorageException("a held directory " + seen.id() + " changed");
    }
  }
}
