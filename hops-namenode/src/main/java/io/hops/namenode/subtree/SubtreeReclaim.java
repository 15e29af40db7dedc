package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.ops.DropDetachedRoot;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees the rows of subtrees a delete unlinked ({@link io.hops.namenode.ops.Delete#detaching},
 * docs/architecture.md, "Subtree operations"), on this namenode's background thread, and lets the
 * leader take over those whose reclaiming namenode died. A subtree unlinked below a snapshot waits,
 * unmarked, until its hold ends; the leader's sweep then takes it.
 */
final class SubtreeReclaim {
  private static final Logger LOG = LoggerFactory.getLogger(SubtreeReclaim.class);

  private final SubtreeWorkers w;
  private final Quiesce quiesce;
  private final LevelDelete levels;
  private final Set<Long> reclaiming = ConcurrentHashMap.newKeySet();

  SubtreeReclaim(SubtreeWorkers w, Quiesce quiesce, LevelDelete levels) {
    this.w = w;
    this.quiesce = quiesce;
    this.levels = levels;
  }

  /** Reclaims the detached subtree {@code id} on this namenode's reclaim thread, once at a time. */
  void later(long id, long delayMillis) {
    if (w.stopped() || !reclaiming.add(id)) {
      return;
    }
    try {
      w.background.schedule(
          () -> {
            boolean done = false;
            try {
              reclaim(id);
              done = true;
            } catch (IOException | RuntimeException e) {
              LOG.warn("reclaiming deleted subtree {} failed; retrying in 5 s", id, e);
            } finally {
              reclaiming.remove(id);
            }
            if (!done) {
              later(id, 5_000);
            }
          },
          delayMillis,
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      reclaiming.remove(id); // stopping: the leader takes it over once this namenode is gone
    }
  }

  /**
   * Frees every row of the detached subtree {@code id} (see {@link
   * io.hops.namenode.ops.Delete#detaching}) as a delete in place does: quiesce, then the levels
   * from the deepest, leaves first, in parallel batches that release blocks and leases, then the
   * root. A transaction that resolved its path before the subtree was marked may still add below
   * it; the pass repeats until the root is empty.
   */
  void reclaim(long id) throws IOException {
    long start = System.nanoTime();
    long inodes = 0;
    while (true) {
      InodeRow top = w.runner.run(() -> new ReadDetached(id));
      if (top == null || held(top)) {
        return;
      }
      Quiesce.Found found = quiesce.levels(top, "/", null);
      inodes += found.inodes();
      levels.detachHeld(top, found.held(), null);
      levels.reclaimLevels(top, found.levels(), w.runner.run(() -> new ChargedDirs(id)));
      if (w.runner.run(() -> new DropDetachedRoot(id))) {
        LOG.info(
            "deleted subtree {} reclaimed: {} inodes in {} ms",
            id,
            inodes + 1,
            (System.nanoTime() - start) / 1_000_000);
        return;
      }
    }
  }

  /**
   * The leader's sweep: reclaims the detached subtrees whose reclaiming namenode is dead (taking
   * over its mark first) or that this namenode should be reclaiming and is not. Returns how many it
   * started.
   */
  int resume() throws IOException {
    long me = w.marks.myId();
    int started = 0;
    for (InodeRow r : w.runner.run(ListDetached::new)) {
      if (reclaiming.contains(r.id()) || held(r)) {
        continue;
      }
      long owner = r.subtreeLocked() ? r.subtreeLockOwner() : 0;
      if (owner != me) {
        if (owner != 0 && !w.marks.isDead(owner)) {
          continue;
        }
        if (!w.runner.run(() -> new TakeOver(r.id(), owner, me))) {
          continue;
        }
        LOG.info("taking over the reclaim of deleted subtree {} from namenode {}", r.id(), owner);
      }
      later(r.id(), 0);
      started++;
    }
    return started;
  }

  /** The detached root {@code id} now (read committed), or null. */
  InodeRow detached(long id) throws IOException {
    return w.runner.run(() -> new ReadDetached(id));
  }

  /**
   * Whether {@code now}, a detached root or null, carries the mark {@code root} had: what a delete
   * that meant to unlink it checks after its transaction, which may have found the path gone or led
   * elsewhere and unlinked nothing.
   */
  static boolean underMark(InodeRow now, InodeRow root) {
    return now != null && now.subtreeLocked() && now.subtreeLockOwner() == root.subtreeLockOwner();
  }

  /**
   * Whether the detached root {@code r} is held for snapshots (docs/architecture.md, "Snapshots"):
   * its rows are theirs until the hold ends ({@code ClearHold} sets its {@code snapshot_id} to 0).
   */
  static boolean held(InodeRow r) {
    return r.snapshotId() > 0;
  }

  /** Whether this namenode has a reclaim queued or running. */
  boolean reclaiming() {
    return !reclaiming.isEmpty();
  }

  /** The root of a detached subtree, read committed; null once reclaimed. */
  private static final class ReadDetached extends Operation<InodeRow> {
    private final long id;
    private InodeRow row;

    ReadDetached(long id) {
      this.id = id;
    }

    @Override
    public String name() {
      return "subtreeReclaimRead";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      row = tx.find(InodeRow.TABLE, Inodes.detachedKey(id), LockMode.READ_COMMITTED);
    }

    @Override
    protected InodeRow execute(ExecutePhase tx) {
      return row;
    }
  }

  /**
   * The directories a subtree detached below a snapshot stays charged to until reclaimed ({@link
   * SnapshotKeptUsageRow#untilReclaimed}; one pruned scan, read committed): each batch of the
   * reclaim reads them again under lock and takes what it frees off them, as a delete in place does
   * off the quotas above.
   */
  private static final class ChargedDirs extends Operation<List<Long>> {
    private final long id;
    private List<Long> ids;

    ChargedDirs(long id) {
      this.id = id;
    }

    @Override
    public String name() {
      return "subtreeReclaimQuotas";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      ids =
          tx.findByPartition(SnapshotKeptUsageRow.TABLE, id, LockMode.READ_COMMITTED).stream()
              .filter(u -> u.untilReclaimOf(id))
              .map(SnapshotKeptUsageRow::quotaId)
              .toList();
    }

    @Override
    protected List<Long> execute(ExecutePhase tx) {
      return ids;
    }
  }

  /** The roots of detached subtrees (one partition), read committed. */
  private static final class ListDetached extends Operation<List<InodeRow>> {
    private List<InodeRow> rows;

    @Override
    public String name() {
      return "subtreeReclaimList";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      rows = tx.findByPartition(InodeRow.TABLE, Inodes.DETACHED, LockMode.READ_COMMITTED);
    }

    @Override
    protected List<InodeRow> execute(ExecutePhase tx) {
      return rows;
    }
  }

  /** Moves the mark of a detached root from a dead (or no) owner to this namenode. */
  private static final class TakeOver extends Operation<Boolean> {
    private final long id;
    private final long from;
    private final long to;
    private InodeRow row;

    TakeOver(long id, long from, long to) {
      this.id = id;
      this.from = from;
      this.to = to;
    }

    @Override
    public String name() {
      return "subtreeReclaimTakeOver";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      row = tx.find(InodeRow.TABLE, Inodes.detachedKey(id), LockMode.EXCLUSIVE);
    }

    @Override
    protected Boolean execute(ExecutePhase tx) throws IOException {
      long owner = row == null || !row.subtreeLocked() ? 0 : row.subtreeLockOwner();
      if (row == null || owner != from) {
        return false;
      }
      MutableInode m = MutableInode.of(row);
      m.subtreeLocked = true;
      m.subtreeLockOwner = to;
      tx.update(InodeRow.TABLE, m.toRow());
      return true;
    }
  }
}
