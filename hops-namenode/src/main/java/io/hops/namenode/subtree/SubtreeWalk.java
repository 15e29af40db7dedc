package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.ChildrenCount;
import io.hops.namenode.ops.snapshot.SnapshotContent;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.OwnMark;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;

/**
 * Reads a subtree level by level in many short transactions (docs/architecture.md, "Subtree
 * operations", phase 2): each takes a run of directories of one level whose children together stay
 * near the bound of one transaction and reads their children with one partition-pruned scan per
 * directory. With {@link LockMode#EXCLUSIVE} this is the quiesce: every child row is locked and
 * released, so every transaction that was writing inside the subtree when it was marked has
 * finished; a child marked by another live subtree operation stops it (a {@link
 * io.hops.namenode.resolve.SubtreeMarkedException}, retried; a dead owner's mark is cleared).
 *
 * <p>The runs of one level are read in parallel (a few at a time, so that at most that many runs of
 * rows are held): the caller's thread reads each run that the pool has not started, the pool reads
 * the next few meanwhile. A subtree of one run a level (a big directory of files) is read on the
 * caller's thread alone, so many such walks at once wait for no pool thread. Only the directories
 * of the level being read and of the next one are held, with their paths; what the visitor keeps is
 * its own business.
 */
final class SubtreeWalk {
  /**
   * A directory of the subtree and its path; for a count, the snapshottable directory with
   * snapshots that covers it, or minus a held directory's id ({@code cover}, 0 for none; {@link
   * LockPhase#summaryCover}).
   */
  record Dir(InodeRow row, String path, long cover) {
    Dir(InodeRow row, String path) {
      this(row, path, 0);
    }
  }

  /** Sees each non-empty directory's children once their transaction committed. */
  @FunctionalInterface
  interface Visitor {
    void children(Dir dir, int level, List<InodeRow> children) throws IOException;
  }

  /** Sees each non-empty directory's children counted, once their transaction committed. */
  @FunctionalInterface
  interface CountVisitor {
    void counted(Dir dir, int level, ChildrenCount children) throws IOException;
  }

  private SubtreeWalk() {}

  /**
   * Walks the subtree below {@code top}, marked by {@code ownMark}, in transactions of {@code
   * runner} of about {@code bound} inodes: each first checks that the mark is still its own ({@link
   * OwnMark#check}). The runs of a level are read up to {@code parallel} at a time, by the caller's
   * thread and {@code pool}; the visitor sees them in order, on the caller's thread.
   */
  static void walk(
      TransactionRunner runner,
      int bound,
      Dir top,
      LockMode mode,
      OwnMark ownMark,
      Visitor visitor,
      ExecutorService pool,
      int parallel)
      throws IOException {
    walk(runner, bound, top, mode, ownMark, visitor, null, null, pool, parallel);
  }

  /**
   * As {@link #walk}, read committed and not marked, each directory's children counted ({@link
   * ChildrenCount}: the subdirectories' rows and the files' totals) rather than read: what a
   * content summary needs, which the store may keep for a directory that did not change. Each
   * transaction also reads what the snapshots alone hold below the directories of its run that a
   * snapshot covers (from {@code top}'s {@link Dir#cover} down) and below their empty
   * subdirectories, and the tails of the marked files ({@link SnapshotContent#readPart}), which
   * {@code held} sees once per transaction, on the caller's thread; nothing more is read where no
   * snapshot covers a directory.
   */
  static void count(
      TransactionRunner runner,
      int bound,
      Dir top,
      CountVisitor visitor,
      Consumer<SnapshotContent.Part> held,
      ExecutorService pool,
      int parallel)
      throws IOException {
    walk(runner, bound, top, LockMode.READ_COMMITTED, null, null, visitor, held, pool, parallel);
  }

  private static void walk(
      TransactionRunner runner,
      int bound,
      Dir top,
      LockMode mode,
      OwnMark ownMark,
      Visitor visitor,
      CountVisitor counter,
      Consumer<SnapshotContent.Part> held,
      ExecutorService pool,
      int parallel)
      throws IOException {
    // A covered empty top is read too: its snapshots may hold what a count must read below it.
    List<Dir> level = top.row().childrenCount() > 0 || top.cover() != 0 ? List.of(top) : List.of();
    for (int depth = 1; !level.isEmpty(); depth++) {
      List<List<Dir>> runs = runs(level, bound);
      List<Dir> next = new ArrayList<>();
      List<FutureTask<Read>> reads = new ArrayList<>(runs.size());
      for (List<Dir> run : runs) {
        reads.add(new FutureTask<>(() -> read(runner, run, mode, ownMark, counter != null, bound)));
      }
      int handedOut = 1; // run 0 is the caller's
      for (int i = 0; i < runs.size(); i++) {
        // The runs after this one, up to parallel - 1 of them, read meanwhile in the pool.
        while (handedOut < runs.size() && handedOut - i < Math.max(1, parallel)) {
          pool.execute(reads.get(handedOut++));
        }
        FutureTask<Read> own = reads.get(i);
        own.run(); // on this thread, unless the pool has started it (then a no-op)
        Read read = await(own, reads.subList(i + 1, handedOut));
        for (Dir d : runs.get(i)) {
          List<InodeRow> rows = read.children().getOrDefault(d.row().id(), List.of());
          // The visitor's permission checks see the ACLs the run's transaction read.
          Map<Long, InodeAcl> outer = LoadedAcls.begin();
          try {
            read.acls().forEach(LoadedAcls::put);
            if (counter != null) {
              counter.counted(d, depth, read.counts().get(d.row().id()));
            } else {
              visitor.children(d, depth, rows);
            }
          } finally {
            LoadedAcls.end(outer);
          }
          for (InodeRow c : rows) {
            if (c.isDir() && c.childrenCount() > 0) {
              next.add(
                  new Dir(
                      c, childPath(d.path(), c.name()), read.covers().getOrDefault(c.id(), 0L)));
            }
          }
        }
        if (held != null) {
          held.accept(read.held());
        }
      }
      level = next;
    }
  }

  /**
   * Reads a run in one transaction; a run of one directory with more children than the bound, to be
   * locked ({@link LockMode#EXCLUSIVE}, the quiesce), in pages of the bound, one transaction each,
   * so that no transaction locks more rows than the bound ({@code
   * hops.namenode.transaction.max-rows}). Locking and releasing each child once is all the quiesce
   * needs; a child added behind the cursor is met as one added after the quiesce is.
   */
  private static Read read(
      TransactionRunner runner,
      List<Dir> run,
      LockMode mode,
      OwnMark ownMark,
      boolean count,
      int bound)
      throws IOException {
    InodeRow only = run.get(0).row();
    if (count
        || mode != LockMode.EXCLUSIVE
        || run.size() > 1
        || only.id() == Inodes.ROOT_ID
        || only.childrenCount() <= bound) {
      return runner.run(() -> new ReadChildren(run, mode, ownMark, count));
    }
    List<InodeRow> children = new ArrayList<>();
    Map<Long, InodeAcl> acls = new HashMap<>();
    io.hops.dal.schema.Key after = null;
    while (true) {
      io.hops.dal.schema.Key from = after;
      Read page = runner.run(() -> new ReadChildren(run, mode, ownMark, false).page(from, bound));
      List<InodeRow> rows = page.children().getOrDefault(only.id(), List.of());
      children.addAll(rows);
      acls.putAll(page.acls());
      if (rows.size() < bound) {
        return new Read(Map.of(only.id(), children), Map.of(), acls, Map.of(), null);
      }
      after = InodeRow.TABLE.keyOf(rows.get(rows.size() - 1));
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

  private static <T> T await(Future<T> f, List<? extends Future<?>> others) throws IOException {
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

  /**
   * What one transaction of the walk read: children by directory (if counted, the subdirectories
   * only, and the counts by directory), and their ACLs by inode; if counted, the covers of the
   * subdirectories a snapshot covers and what the snapshots alone hold below the run.
   */
  private record Read(
      Map<Long, List<InodeRow>> children,
      Map<Long, ChildrenCount> counts,
      Map<Long, InodeAcl> acls,
      Map<Long, Long> covers,
      SnapshotContent.Part held) {}

  /**
   * One transaction of the walk: the children of a run of directories, and the ACLs of those of
   * them (and of the directories) that have one, for the visitor's permission checks.
   */
  private static final class ReadChildren extends Operation<Read> {
    private final List<Dir> dirs;
    private final LockMode mode;
    private final OwnMark ownMark;
    private final boolean count;
    private final Map<Long, List<InodeRow>> children = new HashMap<>();
    private final Map<Long, ChildrenCount> counts = new HashMap<>();
    private final Map<Long, InodeAcl> acls = new HashMap<>();
    private final Map<Long, Long> covers = new HashMap<>();
    private SnapshotContent.Part held = SnapshotContent.Part.NONE;
    private io.hops.dal.schema.Key after;
    private int limit;

    /** Reads one page of the one directory's children: {@code limit} after {@code after}. */
    ReadChildren page(io.hops.dal.schema.Key after, int limit) {
      this.after = after;
      this.limit = limit;
      return this;
    }

    ReadChildren(List<Dir> dirs, LockMode mode, OwnMark ownMark, boolean count) {
      this.dirs = dirs;
      this.mode = mode;
      this.ownMark = ownMark;
      this.count = count;
    }

    @Override
    public String name() {
      if (count) {
        return "subtreeCount";
      }
      return mode == LockMode.EXCLUSIVE ? "subtreeQuiesce" : "subtreeRead";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      if (ownMark != null) {
        ownMark.check(tx, LockMode.SHARED);
      }
      Map<Long, Long> covered = new HashMap<>();
      List<InodeRow> marked = new ArrayList<>();
      for (Dir d : dirs) {
        long id = d.row().id();
        if (count) {
          ChildrenCount c = ChildrenCount.read(tx, id);
          counts.put(id, c);
          children.put(id, c.dirs());
          coverBelow(tx, d, c.dirs(), covered);
          marked.addAll(c.marked());
          continue;
        }
        List<InodeRow> rows =
            id == Inodes.ROOT_ID
                ? tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, mode)
                : limit > 0
                    ? tx.scanFrom(InodeRow.TABLE, id, after, limit, mode)
                    : tx.findByPartition(InodeRow.TABLE, id, mode);
        if (mode == LockMode.EXCLUSIVE) {
          PathResolver.checkMarks(rows, ownMark == null ? PathResolver.NO_MARK : ownMark.rootId());
        }
        children.put(id, rows);
      }
      if (count) {
        held = SnapshotContent.readPart(tx, covered, marked);
      }
      tx.loadAcls(withChildren());
    }

    /**
     * Notes {@code d} as covered, and the covers of its subdirectories: their own snapshots, else
     * {@code d}'s (as {@link LockPhase#coveringDirectory} finds them, so nothing when snapshots are
     * off). An empty one is never a run's of its own: it is counted with {@code d}.
     */
    private void coverBelow(LockPhase tx, Dir d, List<InodeRow> subdirs, Map<Long, Long> covered) {
      if (d.cover() != 0) {
        covered.put(d.row().id(), d.cover());
      }
      for (InodeRow sub : subdirs) {
        long cover = SnapshotContent.coverBelow(d.cover(), tx.summaryCover(List.of(sub)));
        if (cover != 0) {
          covers.put(sub.id(), cover);
          if (sub.childrenCount() == 0) {
            covered.put(sub.id(), cover);
          }
        }
      }
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
      return new Read(children, counts, acls, covers, held);
    }
  }
}
