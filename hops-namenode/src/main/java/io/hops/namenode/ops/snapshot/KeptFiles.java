package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptReplicationRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The release of files kept for snapshots (docs/architecture.md, "Snapshots"): a {@code
 * snapshot_kept_files} row {@code (dir, s, file)} says that snapshots of {@code dir} up to {@code
 * s} may have the deleted file; once the directory has no snapshot with an id at most {@code s},
 * none has it, and the row becomes a {@code released_files} one, whose blocks the leader frees in
 * bounded batches ({@code ReleaseBlocks}), unless another holder's row still names the file ({@link
 * #readOtherHolders}). A due hold row ({@link SnapshotKeptFileRow#hold}) is left to {@link
 * ClearHold}, which clears the directory's hold and releases its own partition the same way. One
 * transaction takes at most {@link #batch} rows (a pruned scan of the directory's partition, in
 * snapshot order, locked exclusively so that two releases never both take a row), only up to the
 * directory's {@code snapshot_id} when the snapshot was deleted (the latest taken, deleted or not):
 * a file kept after it (by a later snapshot) is never among them. While the directory is itself
 * held (its own hold row, written when a held directory is made snapshottable, comes first in
 * snapshot order), nothing of its partition is released: the snapshots it was moved away from may
 * have any of it. A kept file that is a copy-on-truncate tail ({@link CopyOnTruncate}) loses its
 * {@code snapshot_file_tails} row in the same transaction (an index scan by its id, locked
 * exclusively), so that no tail outlives the blocks it names; but a tail whose copy is still in
 * progress (the truncate's block recovery not committed) would take the copy's row with it, and the
 * datanodes' commit of the copy would then cut the old block in place, which they kept whole. Such
 * a tail stays, marked {@link SnapshotFileTailRow#released}, and its blocks are released when the
 * copy commits ({@link CopyOnTruncate#commitCopy}) or its file is deleted.
 *
 * <p>The quota usage the deletes left charged for the same snapshots ({@link SnapshotKeptUsageRow})
 * is released by the same rule in the same transaction: each row's usage taken off its quota
 * directory's row (locked exclusively, after the usage rows and before the kept files, in the order
 * of docs/architecture.md, "Lock order"), as HDFS's deleteSnapshot takes what it destroys off the
 * directories above.
 */
final class KeptFiles {
  /**
   * What a release leaves to later transactions: the holds it found due, and whether more rows of
   * partition {@code dirId} up to {@code upTo} may be due.
   */
  record Left(long dirId, long upTo, boolean more, List<SnapshotKeptFileRow> holds) {
    static final Left NONE = new Left(0, 0, false, List.of());
  }

  private final long dirId;
  private final long upTo;
  private final List<SnapshotKeptFileRow> freed = new ArrayList<>();
  private final List<SnapshotKeptFileRow> holds = new ArrayList<>();
  private final List<SnapshotFileTailRow> tails = new ArrayList<>();
  private final List<SnapshotKeptReplicationRow> replication = new ArrayList<>();
  private final List<SnapshotKeptUsageRow> usage = new ArrayList<>();

  /** The charge of a freed detached root, which goes before its reclaim. */
  private final List<SnapshotKeptUsageRow> untilReclaimed = new ArrayList<>();

  /**
   * Rows of a directory whose holds ended, handed to their heir (past the holds) and to the
   * snapshottable directories below it whose snapshots may read them.
   */
  private final List<SnapshotKeptFileRow> moved = new ArrayList<>();

  /** Where each of {@link #moved} goes ({@link KeptBeyondHold#targets}). */
  private final List<List<SnapshotKeptFileRow>> movedTo = new ArrayList<>();

  private final List<SnapshotKeptUsageRow> movedUsage = new ArrayList<>();

  /** Where each of {@link #movedUsage} goes ({@link KeptBeyondHold#target}). */
  private final List<SnapshotKeptUsageRow> movedUsageTo = new ArrayList<>();

  /** The heir's usage rows at the moved usage rows' new keys, as locked (null: none). */
  private final List<SnapshotKeptUsageRow> movedOnto = new ArrayList<>();

  private KeptBeyondHold beyond = KeptBeyondHold.STAY;

  /** Freed files another holder still keeps ({@link #readOtherHolders}). */
  private final Set<Long> shared = new HashSet<>();

  /** The holders of the freed files and of the due usage rows' inodes. */
  private final KeptUsageHolders holders = new KeptUsageHolders();

  private AncestorQuotas quotas = AncestorQuotas.none();
  private long heldAt;
  private boolean more;

  private KeptFiles(long dirId, long upTo) {
    this.dirId = dirId;
    this.upTo = upTo;
  }

  /**
   * Rows per transaction: each is read, deleted, and turned into a released file, its tail, if it
   * is one, read and deleted, and its replication row read and deleted.
   */
  static int batch(LockPhase tx) {
    return Math.max(1, tx.maxRows() / 8);
  }

  /**
   * Reads the kept files of {@code dirId} that no snapshot in {@code remaining} may have, among
   * those kept up to snapshot {@code upTo}; with {@code ownHoldCleared}, the directory's own hold
   * row is being deleted by this transaction and holds nothing back.
   */
  static KeptFiles read(
      LockPhase tx, long dirId, List<SnapshotRow> remaining, long upTo, boolean ownHoldCleared)
      throws StorageException {
    return read(tx, dirId, remaining, upTo, ownHoldCleared, KeptBeyondHold.STAY, false);
  }

  /**
   * As above, for a directory whose holds have ended: the rows past {@code upTo} go as {@code
   * beyond} says (all due when no snapshot covers the directory any more, else moved to the
   * directory that keeps what is deleted below it now). With {@code detachedRootFreed}, the
   * directory is the root of a subtree a big delete detached below a snapshot, which no snapshot
   * has any more: what it was charged with until its reclaim ({@link
   * SnapshotKeptUsageRow#untilReclaimed}) goes now, off the quota rows, as HDFS's {@code
   * deleteSnapshot} takes it off (docs/architecture.md, "Snapshots", a big delete below a
   * snapshot).
   */
  static KeptFiles read(
      LockPhase tx,
      long dirId,
      List<SnapshotRow> remaining,
      long upTo,
      boolean ownHoldCleared,
      KeptBeyondHold beyond,
      boolean detachedRootFreed)
      throws StorageException {
    long oldest = Long.MAX_VALUE;
    for (SnapshotRow s : remaining) {
      oldest = Math.min(oldest, s.snapshotId());
    }
    long below = beyond.releases() ? Long.MAX_VALUE : Math.min(oldest, upTo + 1);
    KeptFiles k = new KeptFiles(dirId, upTo);
    k.beyond = beyond;
    int batch = batch(tx);
    // The usage snapshots kept charged first, then the quota rows it is charged to: the order of
    // docs/architecture.md, "Lock order".
    List<SnapshotKeptUsageRow> charged =
        tx.scanFrom(SnapshotKeptUsageRow.TABLE, dirId, null, batch, LockMode.EXCLUSIVE);
    List<Long> quotaIds = new ArrayList<>();
    for (SnapshotKeptUsageRow u : charged) {
      if (u.untilReclaim()) {
        if (detachedRootFreed && u.untilReclaimOf(dirId) && u.carriesReclaimUsage()) {
          k.untilReclaimed.add(u);
          quotaIds.add(u.quotaId());
        }
        continue;
      }
      boolean due = u.snapshotId() < below;
      SnapshotKeptUsageRow to = beyond.target(u, due);
      if (to != null) {
        k.movedUsage.add(u);
        k.movedUsageTo.add(to);
        k.movedOnto.add(
            tx.find(
                SnapshotKeptUsageRow.TABLE,
                SnapshotKeptUsageRow.TABLE.keyOf(to),
                LockMode.EXCLUSIVE));
      } else if (due) {
        k.usage.add(u);
        quotaIds.add(u.quotaId());
      }
    }
    k.quotas = AncestorQuotas.lockIds(tx, quotaIds.stream().distinct().toList());
    List<SnapshotKeptFileRow> rows =
        tx.scanFrom(SnapshotKeptFileRow.TABLE, dirId, null, batch, LockMode.EXCLUSIVE);
    for (SnapshotKeptFileRow r : rows) {
      if (r.isHold() && r.heldId() == dirId) {
        k.heldAt = ownHoldCleared ? 0 : r.snapshotId();
        continue;
      }
      boolean due = r.snapshotId() < below;
      List<SnapshotKeptFileRow> to = beyond.targets(r, due);
      if (!to.isEmpty()) {
        k.moved.add(r);
        k.movedTo.add(to);
      } else if (due) {
        (r.isHold() ? k.holds : k.freed).add(r);
      }
    }
    if (k.heldAt > 0) {
      k.freed.clear();
      k.holds.clear();
      k.usage.clear();
      k.moved.clear();
      k.movedTo.clear();
      k.movedUsage.clear();
      k.movedUsageTo.clear();
      k.movedOnto.clear();
      k.untilReclaimed.clear();
    }
    k.more =
        (rows.size() == batch && k.freed.size() + k.holds.size() + k.moved.size() == batch)
            || (charged.size() == batch && k.usage.size() + k.movedUsage.size() == batch);
    for (SnapshotKeptFileRow r : k.freed) {
      k.tails.addAll(
          tx.findByIndex(SnapshotFileTailRow.TABLE, "tail_id", r.inodeId(), LockMode.EXCLUSIVE));
    }
    // The replication keys of the freed files and of the inodes whose usage is due, locked (present
    // or not): two holders' releases of one inode take turns on it (KeptUsageHolders).
    Set<Long> freedIds = new HashSet<>();
    k.freed.forEach(r -> freedIds.add(r.inodeId()));
    SortedSet<Long> turns = new TreeSet<>(freedIds);
    k.usage.stream().filter(KeptUsageHolders::chargesATail).forEach(u -> turns.add(u.inodeId()));
    if (!turns.isEmpty()) {
      List<Key> keys = turns.stream().map(SnapshotKeptReplicationRow.TABLE::key).toList();
      for (SnapshotKeptReplicationRow r :
          tx.findBatch(SnapshotKeptReplicationRow.TABLE, keys, LockMode.EXCLUSIVE)) {
        if (r != null && freedIds.contains(r.inodeId())) {
          k.replication.add(r);
        }
      }
    }
    k.readOtherHolders(tx);
    k.holders.judge(tx, dirId, below, k.usage);
    k.more |= KeptUsageHolders.movedInMeanwhile(tx, k.freed, charged, batch);
    return k;
  }

  /**
   * The freed files another holder still keeps (docs/architecture.md, "Snapshots": a file renamed
   * away from entries of several directories has one kept row per directory): one read of the kept
   * rows' index by inode per freed file, after its replication row is locked, so that the releases
   * of two holders of one file take turns and the second sees the first's row gone. Such a file
   * only loses this holder's row; its blocks, replication and tails stay for the others.
   */
  private void readOtherHolders(LockPhase tx) throws StorageException {
    Set<SnapshotKeptFileRow> here = new HashSet<>(freed);
    for (SnapshotKeptFileRow r : freed) {
      for (SnapshotKeptFileRow other : holders.of(tx, r.inodeId())) {
        if (!here.contains(other)) {
          shared.add(r.inodeId());
          break;
        }
      }
    }
    replication.removeIf(r -> shared.contains(r.inodeId()));
    tails.removeIf(t -> shared.contains(t.tailId()));
  }

  /** The hold the directory still has for the snapshots it was moved away from, or 0. */
  long heldAt() {
    return heldAt;
  }

  /** Buffers the release; answers what is left to later transactions. */
  Left release(ExecutePhase tx) throws StorageException {
    Set<Long> copying = new HashSet<>();
    for (SnapshotFileTailRow t : tails) {
      tx.delete(SnapshotFileTailRow.TABLE, t);
      if (t.copyId() != 0) {
        copying.add(t.tailId());
        tx.insert(SnapshotFileTailRow.TABLE, t.released());
      }
    }
    for (SnapshotKeptUsageRow u : usage) {
      if (!holders.moves(u)) {
        tx.delete(SnapshotKeptUsageRow.TABLE, u);
        quotas.addTo(u.quotaId(), -u.ns(), -u.ds());
      }
    }
    for (SnapshotKeptUsageRow u : untilReclaimed) {
      tx.delete(SnapshotKeptUsageRow.TABLE, u);
      quotas.addTo(u.quotaId(), -u.ns(), -u.ds());
    }
    quotas.flush(tx);
    holders.move(tx);
    for (SnapshotKeptReplicationRow r : replication) {
      tx.delete(SnapshotKeptReplicationRow.TABLE, r);
    }
    moveToHeir(tx);
    Set<Long> released = new HashSet<>();
    for (SnapshotKeptFileRow r : freed) {
      tx.delete(SnapshotKeptFileRow.TABLE, r);
      if (!copying.contains(r.inodeId())
          && !shared.contains(r.inodeId())
          && released.add(r.inodeId())) {
        tx.insert(ReleasedFileRow.TABLE, new ReleasedFileRow(r.inodeId()));
      }
    }
    return new Left(dirId, upTo, more, List.copyOf(holds));
  }

  private static SnapshotKeptUsageRow keyOnly(SnapshotKeptUsageRow u) {
    return new SnapshotKeptUsageRow(u.dirId(), u.snapshotId(), u.inodeId(), u.quotaId(), 0, 0);
  }

  /**
   * The rows handed on at the end of the holds: each in the heir's partition at its id or the
   * heir's latest snapshot, and in those of the snapshottable directories below that may read it
   * ({@link KeptBeyondHold#targets}); a usage row adds to one there at the same key.
   */
  private void moveToHeir(ExecutePhase tx) throws StorageException {
    for (int i = 0; i < moved.size(); i++) {
      tx.delete(SnapshotKeptFileRow.TABLE, moved.get(i));
      for (SnapshotKeptFileRow to : movedTo.get(i)) {
        tx.insertIfAbsent(SnapshotKeptFileRow.TABLE, to);
      }
    }
    // Rows of one inode and quota directory at several ids past the holds may meet at the cap.
    Map<SnapshotKeptUsageRow, SnapshotKeptUsageRow> onto = new LinkedHashMap<>();
    Set<SnapshotKeptUsageRow> existing = new HashSet<>();
    for (int i = 0; i < movedUsage.size(); i++) {
      SnapshotKeptUsageRow u = movedUsage.get(i);
      SnapshotKeptUsageRow to = movedUsageTo.get(i);
      SnapshotKeptUsageRow key = keyOnly(to);
      SnapshotKeptUsageRow there = onto.get(key);
      if (there == null && movedOnto.get(i) != null) {
        there = movedOnto.get(i);
        existing.add(key);
      }
      tx.delete(SnapshotKeptUsageRow.TABLE, u);
      onto.put(
          key,
          there == null
              ? to
              : new SnapshotKeptUsageRow(
                  there.dirId(),
                  there.snapshotId(),
                  there.inodeId(),
                  there.quotaId(),
                  there.ns() + u.ns(),
                  there.ds() + u.ds()));
    }
    for (Map.Entry<SnapshotKeptUsageRow, SnapshotKeptUsageRow> e : onto.entrySet()) {
      if (existing.contains(e.getKey())) {
        tx.update(SnapshotKeptUsageRow.TABLE, e.getValue());
      } else {
        tx.insert(SnapshotKeptUsageRow.TABLE, e.getValue());
      }
    }
  }
}
