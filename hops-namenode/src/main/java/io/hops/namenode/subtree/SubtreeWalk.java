package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.Namesystem;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
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
      Deque<Future<Read>> inFlight = new ArrayDeque<>();
      int submitted = 0;
      for (List<Dir> run : runs) {
        while (submitted < runs.size() && inFlight.size() < Math.max(1, parallel)) {
          List<Dir> r = runs.get(submitted++);
          inFlight.add(pool.submit(() -> ns.run(() -> new ReadChildren(r, mode, ownMark))));
        }
        Read read = await(inFlight.poll(), inFlight);
        for (Dir d : run) {
          List<InodeRow> rows = read.children().getOrDefault(d.row().id(), List.of());
          // The visitor's permission checks see the ACLs the run's transaction read.
          Map<Long, InodeAcl> outer = LoadedAcls.begin();
          try {
            read.acls().forEach(LoadedAcls::put);
            visitor.children(d, depth, rows);
          } finally {
            LoadedAcls.end(outer);
          }
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

  /** What one transaction of the walk read: children by directory, and their ACLs by inode. */
  private record Read(Map<Long, List<InodeRow>> children, Map<Long, InodeAcl> acls) {}

  /**
   * One transaction of the walk: the children of a run of directories, and the ACLs of those of
   * them (and of the directories) that have one, for the visitor's permission checks.
   */
  private static final class ReadChildren extends Operation<Read> {
    private final List<Dir> dirs;
    private final LockMode mode;
    private final long ownMark;
    private final Map<Long, List<InodeRow>> children = new HashMap<>();
    private final Map<Long, InodeAcl> acls = new HashMap<>();

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
      tx.loadAcls(withChildren());
    }

    private List<InodeRow> withChildren() {
      List<InodeRow> all = new ArrayList<>();
      dirs.forEach(d -> all.add(d.row()));
      children.values().forEach(all::addAll);
      return all;
    }

    @Override
    protected Read execute(ExecutePhase tx) {
      for (InodeRow r : withChildren()) {
        InodeAcl acl = InodeFlags.hasAcl(r.permission()) ? LoadedAcls.get(r.id()) : null;
        if (acl != null) {
          acls.put(r.id(), acl);
        }
      }
      return new Read(children, acls);
    }
  }
}
