package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.ops.snapshot.ChargesWhereHeld;
import io.hops.namenode.ops.snapshot.DeletedHeldDirectory;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.OwnMark;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
 * <p>Its usage leaves the directories above, as HDFS's delete of a {@code DstReference} takes the
 * whole destination side of a renamed directory off them: the snapshots that had it count it
 * through the charge its move wrote on their side ({@code INodeReference.WithName}). So the
 * directories above a delete in place lose it as the batches' would, a subtree being reclaimed
 * takes it off its charge's rows and their quota rows, and the charges of files kept below it for
 * its hold ({@code snapshot_kept_usage} rows of its partition up to its hold), written where it was
 * when they were deleted, go with their quota rows' share.
 */
public final class DetachHeldBelow extends Operation<Boolean> {
  private final OwnMark mark;
  private final DeleteLevelBatch.Entry parent;
  private final DeleteLevelBatch.Entry held;
  private final long[] usage;
  private final Map<Long, Long> inner;
  private final List<Long> quotaDirs;
  private InodeRow parentRow;
  private InodeRow heldRow;
  private ChargesWhereHeld kept = ChargesWhereHeld.none();
  private List<SnapshotKeptUsageRow> charges = List.of();
  private AncestorQuotas quotas = AncestorQuotas.none();

  /**
   * Detaches {@code held}, a child of {@code parent} inside the subtree marked by {@code mark},
   * whose usage ({@code usage}: its namespace and storage space, itself included) leaves the quota
   * directories {@code quotaDirs} (a delete in place), or the marked detached root's charge ({@code
   * quotaDirs} null, a reclaim); {@code inner} gives the holds of the held directories below it.
   */
  public DetachHeldBelow(
      OwnMark mark,
      DeleteLevelBatch.Entry parent,
      DeleteLevelBatch.Entry held,
      long[] usage,
      Map<Long, Long> inner,
      List<Long> quotaDirs) {
    this.mark = mark;
    this.parent = parent;
    this.held = held;
    this.usage = usage.clone();
    this.inner = Map.copyOf(inner);
    this.quotaDirs = quotaDirs;
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
    // The usage rows, the reclaimed root's charge first, then the quota rows they name
    // (docs/architecture.md, "Lock order").
    List<Long> ids = new ArrayList<>(quotaDirs == null ? List.of() : quotaDirs);
    if (quotaDirs == null) {
      charges =
          tx.findByPartition(SnapshotKeptUsageRow.TABLE, mark.rootId(), LockMode.EXCLUSIVE).stream()
              .filter(u -> u.untilReclaimOf(mark.rootId()) && u.carriesReclaimUsage())
              .toList();
      charges.forEach(u -> ids.add(u.quotaId()));
    }
    kept =
        ChargesWhereHeld.read(tx, ChargesWhereHeld.upTo(heldRow.id(), heldRow.snapshotId(), inner));
    ids.addAll(kept.quotaDirs());
    quotas = AncestorQuotas.lockIds(tx, ids.stream().distinct().toList());
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
    if (quotaDirs != null) {
      quotaDirs.forEach(q -> quotas.addTo(q, -usage[0], -usage[1]));
    }
    for (SnapshotKeptUsageRow u : charges) {
      tx.update(SnapshotKeptUsageRow.TABLE, u.withUsage(u.ns() - usage[0], u.ds() - usage[1]));
      quotas.addTo(u.quotaId(), -usage[0], -usage[1]);
    }
    kept.takeOff(tx, quotas);
    quotas.flush(tx);
    return true;
  }
}
