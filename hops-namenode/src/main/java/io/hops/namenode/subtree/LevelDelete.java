package io.hops.namenode.subtree;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.DeleteLevelBatch;
import io.hops.namenode.ops.DetachHeldBelow;
import io.hops.namenode.tx.OwnMark;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a quiesced subtree's levels from the deepest up, leaves first, each level in parallel
 * batches of one transaction ({@link DeleteLevelBatch}, docs/architecture.md, "Subtree operations",
 * phase 3): for a delete in place and for the reclaim of an unlinked subtree alike.
 */
final class LevelDelete {
  private static final Logger LOG = LoggerFactory.getLogger(LevelDelete.class);

  private final SubtreeWorkers w;

  LevelDelete(SubtreeWorkers w) {
    this.w = w;
  }

  /**
   * Unlinks the held directories the quiesce kept out of the levels ({@link DetachHeldBelow}), each
   * in a transaction under this namenode's mark on {@code root}, their usage taken off {@code
   * quotaDirs} (a delete in place), or off the detached {@code root}'s charge ({@code quotaDirs}
   * null, a reclaim). Before the levels: their parents are then leaves like the others.
   */
  void detachHeld(InodeRow root, List<Quiesce.Held> held, List<Long> quotaDirs) throws IOException {
    OwnMark mark = w.ownMark(root);
    for (Quiesce.Held h : held) {
      w.step();
      boolean done =
          w.runner.run(
              () ->
                  new DetachHeldBelow(
                      mark, h.parent(), h.entry(), h.usage(), h.inner(), quotaDirs));
      LOG.info(
          "held directory {} below deleted subtree {} {}",
          h.entry().id(),
          root.id(),
          done ? "kept for its snapshots, detached" : "no longer there");
    }
  }

  /**
   * Deletes {@code levels} (as {@link Quiesce#levels} read them below {@code root}), each batch
   * under this namenode's mark and counted in the quota directories {@code quotaDirs}.
   */
  void levels(InodeRow root, List<List<DeleteLevelBatch.Entry>> levels, List<Long> quotaDirs)
      throws IOException {
    levels(root, levels, b -> b.countedIn(quotaDirs));
  }

  /**
   * As {@link #levels(InodeRow, List, List)}, for the reclaim of a subtree detached below a
   * snapshot: each batch counted in the directories its charge rows name then ({@link
   * DeleteLevelBatch#chargedUntilReclaimOf}; {@code chargedDirs} as read before).
   */
  void reclaimLevels(
      InodeRow root, List<List<DeleteLevelBatch.Entry>> levels, List<Long> chargedDirs)
      throws IOException {
    levels(
        root,
        levels,
        b -> chargedDirs.isEmpty() ? b : b.chargedUntilReclaimOf(root.id(), chargedDirs));
  }

  private void levels(
      InodeRow root,
      List<List<DeleteLevelBatch.Entry>> levels,
      java.util.function.UnaryOperator<DeleteLevelBatch> counted)
      throws IOException {
    DeleteLevelBatch.Entry rootEntry =
        new DeleteLevelBatch.Entry(root.id(), root.parentId(), root.name(), true);
    OwnMark mark = w.ownMark(root);
    for (int k = levels.size() - 1; k >= 0; k--) {
      Map<Long, DeleteLevelBatch.Entry> parents = new HashMap<>();
      if (k == 0) {
        parents.put(root.id(), rootEntry);
      } else {
        for (DeleteLevelBatch.Entry e : levels.get(k - 1)) {
          if (e.isDir()) {
            parents.put(e.id(), e);
          }
        }
      }
      List<DeleteLevelBatch.Entry> level = levels.get(k);
      level.sort(Comparator.comparingLong(DeleteLevelBatch.Entry::parentId));
      List<Future<Integer>> batches = new ArrayList<>();
      for (int i = 0; i < level.size(); i += w.bound) {
        List<DeleteLevelBatch.Entry> doomed = level.subList(i, Math.min(level.size(), i + w.bound));
        batches.add(w.pool.submit(() -> batch(doomed, parents, counted, mark)));
      }
      await(batches);
      levels.set(k, List.of()); // deleted: its memory goes
    }
  }

  /**
   * Deletes {@code doomed} (inodes of one level) in as many transactions as their rows need: each
   * takes what fits {@code hops.namenode.transaction.max-rows} and hands back the rest; the next
   * takes twice as many entries as the last one deleted, so that big files are not read again and
   * again for nothing. Answers the directories left because they have children again.
   */
  private int batch(
      List<DeleteLevelBatch.Entry> doomed,
      Map<Long, DeleteLevelBatch.Entry> parents,
      java.util.function.UnaryOperator<DeleteLevelBatch> counted,
      OwnMark mark)
      throws IOException {
    List<DeleteLevelBatch.Entry> todo = doomed;
    int take = todo.size();
    int refilled = 0;
    while (!todo.isEmpty()) {
      w.step();
      List<DeleteLevelBatch.Entry> now = todo.subList(0, Math.min(take, todo.size()));
      List<DeleteLevelBatch.Entry> after = todo.subList(now.size(), todo.size());
      Map<Long, DeleteLevelBatch.Entry> mine = new HashMap<>();
      now.forEach(e -> mine.put(e.parentId(), parents.get(e.parentId())));
      List<DeleteLevelBatch.Entry> ps = new ArrayList<>(mine.values());
      DeleteLevelBatch.Outcome out =
          w.runner.run(() -> counted.apply(new DeleteLevelBatch(ps, now)).underMark(mark));
      refilled += out.refilled();
      List<DeleteLevelBatch.Entry> rest = new ArrayList<>(out.deferred());
      rest.addAll(after);
      todo = rest;
      take = out.deferred().isEmpty() ? w.bound : Math.max(1, Math.min(w.bound, 2 * out.deleted()));
    }
    return refilled;
  }

  private static void await(List<Future<Integer>> batches) throws IOException {
    IOException failure = null;
    for (Future<Integer> f : batches) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        batches.forEach(b -> b.cancel(true));
        throw new InterruptedIOException("interrupted while deleting a subtree");
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (failure == null) {
          failure = c instanceof IOException io ? io : new IOException(c);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
