package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * What becomes of the rows a held directory's partition of {@code snapshot_kept_files} and {@code
 * snapshot_kept_usage} has once the last of its holds has ended (docs/architecture.md, "Snapshots",
 * "A hold's end"). Below a held directory every kept file goes to its partition, also while it sits
 * below a snapshottable (or another held) directory whose later snapshots may read the file; no
 * {@code deleteSnapshot} of that directory scans this partition. Its hold's end therefore hands the
 * rows past its holds to the directory a file deleted below it would be kept under now ({@link
 * LockPhase#keeperBelow}, the path read by id up to the root), at their id or that directory's
 * latest snapshot if lower (no later snapshot had a file deleted before it), or, when none covers
 * it, releases them.
 *
 * <p>A snapshottable directory with snapshots below it ({@link Inner}) may read any row of the
 * partition at an id it has a snapshot up to (a file deleted below it while the directory was held
 * was kept here, at the later of the hold and its latest snapshot), which the row does not tell
 * from the holders'. Each such row is handed to it as well, as one more holder ("Several holders":
 * the file goes with its last row), at the row's id or its latest snapshot if lower; its own {@code
 * deleteSnapshot} then releases it by the usual rule. A row none of its remaining snapshots can
 * have (all later than the row) is not handed. Conservative where several such directories lie
 * below: each gets the row, as the row does not say below which one the file was.
 */
final class KeptBeyondHold {
  /**
   * A snapshottable directory with snapshots below the held one: its id, its latest snapshot
   * ({@code snapshot_id}) and its oldest remaining one, read under its row's exclusive lock.
   */
  record Inner(long dirId, long latest, long oldest) {
    /** Whether one of its snapshots may have a row kept at {@code snapshotId}. */
    boolean reads(long snapshotId) {
      return oldest <= snapshotId;
    }
  }

  /** The rows stay: the directory is still held, snapshottable, gone, or unreachable. */
  static final KeptBeyondHold STAY = new KeptBeyondHold(0, 0, false, List.of(), List.of());

  private final long heirDir;
  private final long cap;
  private final boolean releases;

  /** The snapshottable directories below, as read before the held directory's lock. */
  private final List<InodeRow> innerSeen;

  /** The same, with their snapshots, once locked ({@link #lockInner}). */
  private List<Inner> inner = List.of();

  private KeptBeyondHold(
      long heirDir, long cap, boolean releases, List<InodeRow> innerSeen, List<Inner> inner) {
    this.heirDir = heirDir;
    this.cap = cap;
    this.releases = releases;
    this.innerSeen = innerSeen;
    this.inner = inner;
  }

  /** Whether the rows past the holds are all due (no snapshot or hold covers the directory). */
  boolean releases() {
    return releases;
  }

  /** Whether the rows past the holds move to the heir's partition. */
  boolean moves() {
    return heirDir != 0;
  }

  /**
   * The rows {@code r} becomes in other partitions: in the heir's when it is not {@code due} here
   * (past the holds), and in each inner directory's that may read it; none: it stays, or, when
   * {@code due}, is released.
   */
  List<SnapshotKeptFileRow> targets(SnapshotKeptFileRow r, boolean due) {
    List<SnapshotKeptFileRow> out = new ArrayList<>();
    if (!due && moves()) {
      out.add(new SnapshotKeptFileRow(heirDir, Math.min(r.snapshotId(), cap), r.inodeId()));
    }
    for (Inner d : inner) {
      if (d.reads(r.snapshotId())) {
        out.add(
            new SnapshotKeptFileRow(d.dirId(), Math.min(r.snapshotId(), d.latest()), r.inodeId()));
      }
    }
    return out;
  }

  /**
   * The usage row {@code u} becomes: the heir's when it is not {@code due} here, else the first
   * inner directory's that may read what it charges (the usage stays charged while a snapshot has
   * it, as HDFS's does); null: it stays, or, when {@code due}, is taken off.
   */
  SnapshotKeptUsageRow target(SnapshotKeptUsageRow u, boolean due) {
    if (!due && moves()) {
      return new SnapshotKeptUsageRow(
          heirDir, Math.min(u.snapshotId(), cap), u.inodeId(), u.quotaId(), u.ns(), u.ds());
    }
    for (Inner d : inner) {
      if (d.reads(u.snapshotId())) {
        return new SnapshotKeptUsageRow(
            d.dirId(),
            Math.min(u.snapshotId(), d.latest()),
            u.inodeId(),
            u.quotaId(),
            u.ns(),
            u.ds());
      }
    }
    return null;
  }

  /**
   * For {@code seen} (read committed; null when deleted), whose holds have all ended: the
   * directories above it by id (read committed; the path of a detached subtree ends at its root)
   * and the snapshottable directories (their list, {@link SnapshottableDirs}); the heir's row is
   * then locked exclusively, before the caller locks {@code seen}'s (path order), so that the
   * heir's {@code deleteSnapshot}, which locks it too, either sees the moved rows or has finished
   * before the heir's latest snapshot is read. The caller checks that {@code seen} did not change
   * before its lock and locks the snapshottable directories below it ({@link #lockInner}).
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
    List<InodeRow> below = new ArrayList<>();
    for (SnapshottableDirs.Dir d : SnapshottableDirs.read(tx)) {
      if (d.row().snapshotId() > 0 && d.ancestors().contains(seen.id())) {
        below.add(d.row());
      }
    }
    below.sort(Comparator.comparingLong(InodeRow::id));
    SnapshotKeptFileRow keeper = above.isEmpty() ? null : tx.keeperBelow(List.copyOf(above));
    if (keeper == null) {
      return new KeptBeyondHold(0, 0, true, below, List.of());
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
    return new KeptBeyondHold(keeper.dirId(), keeper.snapshotId(), false, below, List.of());
  }

  /**
   * Fails the attempt (to be retried) when {@code locked} is not {@code seen} as it was read; then
   * locks the snapshottable directories below it exclusively (after it: path order; they are
   * disjoint, as snapshottable directories never nest, and taken in id order) and reads their
   * snapshots, so that the {@code deleteSnapshot} of one, which locks it before its kept rows,
   * either meets the rows handed to it or has finished before its snapshots are read here.
   */
  void lockInner(LockPhase tx, InodeRow seen, InodeRow locked) throws StorageException {
    if (this == STAY) {
      return;
    }
    if (!seen.equals(locked)) {
      throw new TransientStorageException("a held directory " + seen.id() + " changed");
    }
    List<Inner> out = new ArrayList<>();
    for (InodeRow d : innerSeen) {
      InodeRow now = tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(d), LockMode.EXCLUSIVE);
      if (!d.equals(now)) {
        throw new TransientStorageException("a snapshottable directory " + d.id() + " changed");
      }
      long oldest = Long.MAX_VALUE;
      for (SnapshotRow s : tx.findByPartition(SnapshotRow.TABLE, d.id(), LockMode.READ_COMMITTED)) {
        oldest = Math.min(oldest, s.snapshotId());
      }
      if (oldest != Long.MAX_VALUE) {
        out.add(new Inner(d.id(), d.snapshotId(), oldest));
      }
    }
    inner = List.copyOf(out);
  }
}
