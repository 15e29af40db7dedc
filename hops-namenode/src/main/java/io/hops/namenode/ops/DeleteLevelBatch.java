package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One transaction of a subtree delete (docs/architecture.md, "Subtree operations", phase 3): inodes
 * of one level of a marked, quiesced subtree whose deeper levels are already gone, so they are
 * leaves. Their parents are locked first, then they, exclusively, in a batched read each; they are
 * deleted with what goes with them ({@link DeletedInodes}: leases, blocks to invalidate, small-file
 * data, quotas) and their parents' children counts go down. A namenode that dies between two
 * batches leaves a smaller tree that is consistent in every row.
 *
 * <p>An inode that is no longer where the walk saw it is skipped; a directory that has children
 * again (a transaction that resolved its path before the mark and committed after the quiesce) is
 * left, and counted: the caller reads the subtree again.
 *
 * <p>Bounded in rows as well as inodes ({@link io.hops.namenode.tx.LockPhase#maxRows()}): files are
 * taken while their blocks' rows fit what the inode rows leave; the others come back as {@link
 * Outcome#deferred()} for the caller's next transaction.
 */
public final class DeleteLevelBatch extends Operation<DeleteLevelBatch.Outcome> {
  /**
   * What a batch did: directories left because they have children again, inodes deleted, and the
   * entries whose rows did not fit, for another transaction.
   */
  public record Outcome(int refilled, int deleted, List<Entry> deferred) {}

  /** An inode of the subtree by its primary key and id. */
  public record Entry(long id, long parentId, String name, boolean isDir) {
    Key key() {
      return id == Inodes.ROOT_ID ? Inodes.rootKey() : Inodes.key(parentId, name);
    }
  }

  private static final Comparator<Entry> BY_PARENT_THEN_NAME =
      Comparator.comparingLong(Entry::parentId).thenComparing(Entry::name);

  private final List<Entry> parents;
  private final List<Entry> doomed;
  private final Map<Long, InodeRow> lockedParents = new HashMap<>();
  private final List<InodeRow> leaves = new ArrayList<>();
  private final List<Entry> deferred = new ArrayList<>();
  private int left;
  private DeletedInodes related;
  private List<Long> quotaDirs = List.of();
  private long detachedRoot;
  private List<SnapshotKeptUsageRow> charges = List.of();
  private AncestorQuotas quotas = AncestorQuotas.none();
  private io.hops.namenode.tx.OwnMark mark;

  /** {@code doomed}'s parents must all be in {@code parents}. */
  public DeleteLevelBatch(List<Entry> parents, List<Entry> doomed) {
    this.parents = new ArrayList<>(parents);
    this.parents.sort(Comparator.comparingLong(Entry::id));
    this.doomed = new ArrayList<>(doomed);
    this.doomed.sort(BY_PARENT_THEN_NAME);
  }

  /**
   * The directories above the deleted subtree (its root included) that have a quota: each batch
   * takes what it deletes off their usage, so a delete that stops half-way leaves them exact.
   */
  public DeleteLevelBatch countedIn(List<Long> quotaDirs) {
    this.quotaDirs = quotaDirs;
    return this;
  }

  /**
   * The reclaim of a subtree detached below a snapshot ({@code rootId}): the directories its {@link
   * SnapshotKeptUsageRow#untilReclaimed} rows name ({@code chargedDirs}, as read before the
   * reclaim, for the batch's budget) are read again under lock, so that a rename or a quota set
   * meanwhile is seen, and each batch takes what it frees off their rows and their quota rows.
   */
  public DeleteLevelBatch chargedUntilReclaimOf(long rootId, List<Long> chargedDirs) {
    this.detachedRoot = rootId;
    this.quotaDirs = chargedDirs;
    return this;
  }

  /**
   * The mark this batch works under: its transaction locks the marked root's row first and stops
   * ({@link io.hops.namenode.resolve.SubtreeMarkLostException}) unless the mark is still its own.
   */
  public DeleteLevelBatch underMark(io.hops.namenode.tx.OwnMark mark) {
    this.mark = mark;
    return this;
  }

  @Override
  public String name() {
    return "subtreeDeleteBatch";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    if (mark != null) {
      // The root is an ancestor of every row here, so it comes first in the lock order; the last
      // level's batches change its children count, so they take it exclusively at once.
      boolean rootIsParent = parents.stream().anyMatch(p -> p.id() == mark.rootId());
      mark.check(tx, rootIsParent ? LockMode.EXCLUSIVE : LockMode.SHARED);
    }
    List<InodeRow> ps =
        tx.findBatch(InodeRow.TABLE, parents.stream().map(Entry::key).toList(), LockMode.EXCLUSIVE);
    for (int i = 0; i < ps.size(); i++) {
      InodeRow p = ps.get(i);
      if (p != null && p.id() == parents.get(i).id()) {
        lockedParents.put(p.id(), p);
      }
    }
    List<Entry> wanted =
        doomed.stream().filter(e -> lockedParents.containsKey(e.parentId())).toList();
    if (wanted.isEmpty()) {
      return;
    }
    List<InodeRow> rows =
        tx.findBatch(InodeRow.TABLE, wanted.stream().map(Entry::key).toList(), LockMode.EXCLUSIVE);
    for (int i = 0; i < rows.size(); i++) {
      InodeRow r = rows.get(i);
      if (r == null || r.id() != wanted.get(i).id()) {
        continue;
      }
      if (r.isDir() && r.childrenCount() > 0) {
        left++;
      } else {
        leaves.add(r);
      }
    }
    // The rows read so far and the parents' and quotas' writes come off the budget first.
    int own = 1 + 2 * lockedParents.size() + rows.size() + 2 * quotaDirs.size();
    related = DeletedInodes.readWithin(tx, leaves, tx.maxRows() - own);
    if (!related.deferred().isEmpty()) {
      java.util.Set<Long> later = new java.util.HashSet<>();
      related.deferred().forEach(r -> later.add(r.id()));
      leaves.removeIf(r -> later.contains(r.id()));
      for (Entry e : wanted) {
        if (later.contains(e.id())) {
          deferred.add(e);
        }
      }
    }
    if (!leaves.isEmpty() && detachedRoot != 0) {
      // The usage rows, then the quota rows they name: docs/architecture.md, "Lock order".
      charges =
          tx.findByPartition(SnapshotKeptUsageRow.TABLE, detachedRoot, LockMode.EXCLUSIVE).stream()
              .filter(u -> u.untilReclaimOf(detachedRoot))
              .toList();
      quotas =
          AncestorQuotas.lockIds(tx, charges.stream().map(SnapshotKeptUsageRow::quotaId).toList());
    } else if (!leaves.isEmpty()) {
      quotas = AncestorQuotas.lockIds(tx, quotaDirs);
    }
  }

  @Override
  protected Outcome execute(ExecutePhase tx) throws IOException {
    Map<Long, Integer> gone = new HashMap<>();
    for (InodeRow r : leaves) {
      tx.delete(InodeRow.TABLE, r);
      tx.hintRemoved(r.parentId(), r.name());
      gone.merge(r.parentId(), 1, Integer::sum);
    }
    for (Map.Entry<Long, Integer> g : gone.entrySet()) {
      MutableInode p = MutableInode.of(lockedParents.get(g.getKey()));
      p.childrenCount -= g.getValue();
      tx.update(InodeRow.TABLE, p.toRow());
    }
    if (related != null) {
      related.delete(tx);
      long space = related.space(leaves);
      quotas.add(-leaves.size(), -space);
      quotas.flush(tx);
      for (SnapshotKeptUsageRow u : charges) {
        if (u.carriesReclaimUsage()) {
          tx.update(
              SnapshotKeptUsageRow.TABLE, u.withUsage(u.ns() - leaves.size(), u.ds() - space));
        }
      }
    }
    return new Outcome(left, leaves.size(), deferred);
  }
}
