package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.Namesystem;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Reads a subtree level by level in many short transactions (DESIGN.md §8, phase 2): each takes a
 * run of directories of one level whose children together stay near the bound of one transaction
 * and reads their children with one partition-pruned scan per directory. With {@link
 * LockMode#EXCLUSIVE} this is the quiesce: every child row is locked and released, so every
 * transaction that was writing inside the subtree when it was marked has finished; a child marked
 * by another live subtree operation stops it (a {@link
 * io.hops.namenode.resolve.SubtreeMarkedException}, retried; a dead owner's mark is cleared).
 *
 * <p>The runs of one level are read in parallel (a few at a time, so that at most that many runs of
 * rows are held). Only the directories of the level being read and of the next one are held, with
 * their paths; what the visitor keeps is its own business.
 */
final class SubtreeWalk {
  /** A directory of the subtree and its path. */
  record Dir(InodeRow row, String path) {}

  /** Sees each non-empty directory's children once their transaction committed. */
  @FunctionalInterface
  interface Visitor {
    void children(Dir dir, int level, List<InodeRow> children) throws IOException;
  }

  private SubtreeWalk() {}

  /**
   * Walks the subtree below {@code top} (marked by {@code ownMark}, or not marked). The runs of a
   * level go to {@code pool}, up to {@code parallel} at a time; the visitor sees them in order, on
   * the caller's thread.
   */
  static void walk(
      Namesystem ns,
      Dir top,
      LockMode mode,
      long ownMark,
      Visitor visitor,
      ExecutorService pool,
      int parallel)
      throws IOException {
    int bound =
        ns.conf()
            .getInt(NamenodeConfig.MAX_SUBTREE_INODES, NamenodeConfig.MAX_SUBTREE_INODES_DEFAULT);
    List<Dir> level = top.row().childrenCount() > 0 ? List.of(top) : List.of();
    for (int depth = 1; !level.isEmpty(); depth++) {
      List<List<Dir>> runs = runs(level, bound);
      List<Dir> next = new ArrayList<>();
      Deque<Future<Map<Long, List<InodeRow>>>> inFlight = new ArrayDeque<>();
      int submitted = 0;
      for (List<Dir> run : runs) {
        while (submitted < runs.size() && inFlight.size() < Math.max(1, parallel)) {
          List<Dir> r = runs.get(submitted++);
          inFlight.add(pool.submit(() -> ns.run(() -> new ReadChildren(r, mode, ownMark))));
        }
        Map<Long, List<InodeRow>> read = await(inFlight.poll(), inFlight);
        for (Dir d : run) {
          List<InodeRow> rows = read.getOrDefault(d.row().id(), List.of());
          visitor.children(d, depth, rows);
          for (InodeRow c : rows) {
            if (c.isDir() && c.childrenCount() > 0) {
              next.add(new Dir(c, childPath(d.path(), c.name())));
            }
          }
        }
      }
      level = next;
    }
  }

  /** Runs of directories whose children together stay near the bound (at least one each). */
  private static List<List<Dir>> runs(List<Dir> level, int bound) {
    List<List<Dir>> runs = new ArrayList<>();
    int i = 0;
    while (i < level.size()) {
      int j = i;
      long children = 0;
      while (j < level.size()
          && (j == i || children + level.get(j).row().childrenCount() <= bound)) {
        children += level.get(j).row().childrenCount();
        j++;
      }
      runs.add(level.subList(i, j));
      i = j;
    }
    return runs;
  }

  private static <T> T await(Future<T> f, Deque<? extends Future<?>> others) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      others.forEach(o -> o.cancel(true));
      throw new InterruptedIOException("interrupted while reading a subtree");
    } catch (ExecutionException e) {
      others.forEach(o -> o.cancel(true));
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      if (c instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(c);
    }
  }

  static String childPath(String dir, String name) {
    return dir.endsWith("/") ? dir + name : dir + "/" + name;
  }

  /** One transaction of the walk: the children of a run of directories. */
  private static final class ReadChildren extends Operation<Map<Long, List<InodeRow>>> {
    private final List<Dir> dirs;
    private final LockMode mode;
    private final long ownMark;
    private final Map<Long, List<InodeRow>> children = new HashMap<>();

    ReadChildren(List<Dir> dirs, LockMode mode, long ownMark) {
      this.dirs = dirs;
      this.mode = mode;
      this.ownMark = ownMark;
    }

    @Override
    public String name() {
      return mode == LockMode.EXCLUSIVE ? "subtreeQuiesce" : "subtreeRead";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      for (Dir d : dirs) {
        long id = d.row().id();
        List<InodeRow> rows =
            id == Inodes.ROOT_ID
                ? tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, mode)
                : tx.findByPartition(InodeRow.TABLE, id, mode);
        if (mode == LockMode.EXCLUSIVE) {
          PathResolver.checkMarks(rows, ownMark);
        }
        children.put(id, rows);
      }
    }

    @Override
    protected Map<Long, List<InodeRow>> execute(ExecutePhase tx) {
      return children;
    }
  }
}
