package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.ops.snapshot.DeletedHeldDirectory;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.OwnMark;
import java.io.IOException;
import java.util.List;

/**
 * A held directory (moved out of its snapshots' reach, docs/architecture.md, "Snapshots") met by
 * the quiesce of a subtree that is deleted level by level: in place, or reclaimed after an unlink.
 * The levels' batches lock rows by key, with no path above them to say which snapshot reads what
 * they delete, so the held directory's subtree is kept out of them: this transaction unlinks it
 * under the subtree's own mark, as a big delete of the held directory itself would ({@link
 * Delete#detaching}), to a detached root that keeps its hold. The snapshots that had it read it
 * there by its id, its kept files stay in its partition, and the leader reclaims it once its last
 * holder's snapshot is gone, like any held detached subtree.
 *
 * <p>Its usage stays charged where the subtree's was: to the directories above a delete in place
 * (their quota rows keep it, as the batches do not take it off), or, inside a subtree being
 * reclaimed, to the directories that subtree's charge names (taken off its rows). Each gets a
 * {@link SnapshotKeptUsageRow#untilReclaimed} row of the held directory, which its own reclaim's
 * batches take off.
 */
public final class DetachHeldBelow extends Operation<Boolean> {
  private final OwnMark mark;
  private final DeleteLevelBatch.Entry parent;
  private final DeleteLevelBatch.Entry held;
  private final long[] usage;
  private final List<Long> chargedAbove;
  private InodeRow parentRow;
  private InodeRow heldRow;
  private List<SnapshotKeptUsageRow> charges = List.of();

  /**
   * Detaches {@code held}, a child of {@code parent} inside the subtree marked by {@code mark},
   * with {@code usage} (its namespace and storage space, itself included): charged to {@code
   * chargedAbove} (a delete in place), or to what the marked detached root's charge rows name (a
   * reclaim; {@code chargedAbove} null).
   */
  public DetachHeldBelow(
      OwnMark mark,
      DeleteLevelBatch.Entry parent,
      DeleteLevelBatch.Entry held,
      long[] usage,
      List<Long> chargedAbove) {
    this.mark = mark;
    this.parent = parent;
    this.held = held;
    this.usage = usage.clone();
    this.chargedAbove = chargedAbove;
  }

  @Override
  public String name() {
    return "subtreeDetachHeld";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    // The root first (path order); as the parent it is changed, so taken exclusively at once.
    boolean rootIsParent = parent.id() == mark.rootId();
    mark.check(tx, rootIsParent ? LockMode.EXCLUSIVE : LockMode.SHARED);
    parentRow = tx.find(InodeRow.TABLE, parent.key(), LockMode.EXCLUSIVE);
    if (parentRow == null || parentRow.id() != parent.id()) {
      return;
    }
    heldRow = tx.find(InodeRow.TABLE, held.key(), LockMode.EXCLUSIVE);
    if (heldRow == null || heldRow.id() != held.id() || !DeletedHeldDirectory.held(heldRow)) {
      heldRow = null;
      return;
    }
    if (chargedAbove == null) {
      charges =
          tx.findByPartition(SnapshotKeptUsageRow.TABLE, mark.rootId(), LockMode.EXCLUSIVE).stream()
              .filter(u -> u.untilReclaimOf(mark.rootId()) && u.carriesReclaimUsage())
              .toList();
    }
  }

  /** Whether it was detached: false if it is no longer where the quiesce saw it, or not held. */
  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    if (heldRow == null) {
      return false;
    }
    tx.delete(InodeRow.TABLE, heldRow);
    tx.hintRemoved(heldRow.parentId(), heldRow.name());
    MutableInode moved = MutableInode.of(heldRow);
    moved.parentId = Inodes.DETACHED;
    moved.name = Long.toString(heldRow.id());
    tx.insert(InodeRow.TABLE, moved.toRow());
    MutableInode p = MutableInode.of(parentRow);
    p.childrenCount--;
    tx.update(InodeRow.TABLE, p.toRow());
    if (chargedAbove != null) {
      for (long q : chargedAbove) {
        tx.insert(
            SnapshotKeptUsageRow.TABLE,
            SnapshotKeptUsageRow.untilReclaimed(heldRow.id(), q, usage[0], usage[1]));
      }
    }
    for (SnapshotKeptUsageRow u : charges) {
      tx.update(SnapshotKeptUsageRow.TABLE, u.withUsage(u.ns() - usage[0], u.ds() - usage[1]));
      tx.insert(
          SnapshotKeptUsageRow.TABLE,
          SnapshotKeptUsageRow.untilReclaimed(heldRow.id(), u.quotaId(), usage[0], usage[1]));
    }
    return true;
  }

  /**
   * The directories a delete in place of {@code path} leaves above it, the root excluded: what a
   * held directory detached from inside it is charged to ({@link KeptUsageDirs}). Read committed:
   * the delete's mark keeps the path from moving.
   */
  public static final class ChargedAbove extends Operation<List<Long>> {
    private final String path;
    private ResolvedPath resolved;

    public ChargedAbove(String path) {
      this.path = path;
    }

    @Override
    public String name() {
      return "subtreeChargedAbove";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
    }

    @Override
    protected List<Long> execute(ExecutePhase tx) {
      return KeptUsageDirs.of(resolved, resolved.depth());
    }
  }
}
