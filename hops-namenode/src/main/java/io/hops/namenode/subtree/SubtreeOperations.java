package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.Namesystem;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.ops.ContentSummaryOp;
import io.hops.namenode.ops.Delete;
import io.hops.namenode.ops.DeleteLevelBatch;
import io.hops.namenode.ops.DropDetachedRoot;
import io.hops.namenode.ops.GetQuotaUsage;
import io.hops.namenode.ops.OpenFilesSpace;
import io.hops.namenode.ops.Rename;
import io.hops.namenode.ops.SetQuota;
import io.hops.namenode.ops.SubtreeTooBigException;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.quota.QuotaDirsOnPath;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.OwnMark;
import io.hops.namenode.tx.RetryCache;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Directory operations at any size (docs/architecture.md, "Subtree operations", the HopsFS paper's
 * subtree protocol). Each first runs as one transaction; an operation whose subtree is over {@code
 * hops.namenode.subtree.max-inodes-in-one-tx} writes nothing and says so ({@link
 * SubtreeTooBigException}), and then:
 *
 * <ol>
 *   <li>one short transaction marks the subtree's root ({@link SubtreeMarks});
 *   <li>the quiesce reads the subtree level by level, locking and releasing its rows in batches
 *       ({@link SubtreeWalk}), and checks HDFS's sub-access permission on the way;
 *   <li>a delete removes it level by level from the deepest, leaves first, in parallel batches of
 *       one transaction each ({@link DeleteLevelBatch}); a rename to the trash needs nothing more;
 *   <li>the operation runs once more as one transaction under its own mark: it now finds the
 *       subtree empty (delete) or already checked (rename), clears the mark with its own write and
 *       records its outcome in the retry cache, exactly once.
 * </ol>
 *
 * <p>A content summary needs no mark: it counts level by level in short read-committed
 * transactions, as HDFS releases its lock while it counts a big directory.
 *
 * <p>Memory: the quiesce of a delete keeps one entry per inode (id, parent id, name): about 100
 * bytes with a short name, so 1 M inodes cost about 100 MB of heap until the delete ends; each
 * level is dropped once deleted. A rename or a content summary keeps only the directories of two
 * levels.
 */
public final class SubtreeOperations {
  private static final Logger LOG = LoggerFactory.getLogger(SubtreeOperations.class);

  /** How many times an operation goes back to its one-transaction form before giving up. */
  private static final int ROUNDS = 8;

  private final Namesystem ns;
  private final SubtreeMarks marks;
  private final ExecutorService deleters;
  private final int bound;
  private final int threads;
  private final boolean inBackground;
  private final ScheduledExecutorService reclaimer;
  private final Set<Long> reclaiming = ConcurrentHashMap.newKeySet();

  /** How long a failed unmark waits before it is tried again. */
  private static final long UNMARK_RETRY_MS = 500;

  private volatile boolean stopped;

  public SubtreeOperations(Namesystem ns) {
    this.ns = ns;
    this.marks = new SubtreeMarks(ns);
    this.bound = NamenodeConfig.inodesInOneTx(ns.conf());
    this.threads =
        ns.conf().getInt(NamenodeConfig.SUBTREE_THREADS, NamenodeConfig.SUBTREE_THREADS_DEFAULT);
    this.inBackground =
        ns.conf()
            .getBoolean(
                NamenodeConfig.SUBTREE_DELETE_IN_BACKGROUND,
                NamenodeConfig.SUBTREE_DELETE_IN_BACKGROUND_DEFAULT);
    this.reclaimer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "subtree-reclaim");
              t.setDaemon(true);
              return t;
            });
    this.deleters =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "subtree");
              t.setDaemon(true);
              return t;
            });
  }

  public SubtreeMarks marks() {
    return marks;
  }

  /**
   * The namenode stops: operations in progress end between two of their transactions, leaving their
   * marks to be cleared by whoever meets them once this namenode has left the membership.
   */
  public void stop() {
    stopped = true;
    reclaimer.shutdownNow();
    deleters.shutdownNow();
  }

  private void step() throws IOException {
    if (stopped) {
      throw new IOException("the namenode is stopping");
    }
    ns.faults().at(Faults.Point.SUBTREE_STEP); // a test may stop the namenode in the middle here
    if (stopped) {
      throw new IOException("the namenode is stopping");
    }
  }

  /**
   * Clears this namenode's mark on {@code root}; if that fails, again in the background until it is
   * cleared: a live namenode's mark is cleared by no one else, and would make every operation on
   * the subtree, its ancestors and its descendants back off for as long as this namenode lives.
   */
  private void unmarkUnlessStopped(InodeRow root) {
    if (stopped || marks.unmark(root)) {
      return;
    }
    try {
      reclaimer.schedule(() -> unmarkUnlessStopped(root), UNMARK_RETRY_MS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Stopping: the mark is cleared by whoever meets it once this namenode has left.
    }
  }

  // ---- delete ----

  /** {@code delete}, at any size. */
  public boolean delete(
      PermissionChecker pc, String src, boolean recursive, RetryCache.Codec<Boolean> codec)
      throws IOException {
    for (int round = 0; ; round++) {
      try {
        return ns.runAtMostOnce(codec, () -> new Delete(ns, pc, src, recursive));
      } catch (SubtreeTooBigException big) {
        if (round == ROUNDS) {
          throw new RetriableException("delete " + src + ": the subtree kept changing; retry");
        }
        Boolean done = deleteUnderMark(pc, src, recursive, codec);
        if (done != null) {
          return done;
        }
      }
    }
  }

  private Boolean deleteUnderMark(
      PermissionChecker pc, String src, boolean recursive, RetryCache.Codec<Boolean> codec)
      throws IOException {
    InodeRow root = marks.mark(src, SubtreeMarks.DELETE, pc.caller().user(), p -> nonEmptyDir(p));
    if (root == null) {
      return null; // changed meanwhile: the one-transaction delete decides
    }
    long start = System.nanoTime();
    boolean unlinked = false;
    try {
      if (inBackground) {
        Boolean out = unlink(pc, src, recursive, codec, root);
        if (out != null) {
          unlinked = true;
          return out;
        }
      }
      InodeRow top = root;
      long quiesceNanos = 0;
      long deleteNanos = 0;
      for (int pass = 0; ; pass++) {
        String path = pathOf(src);
        long q0 = System.nanoTime();
        List<List<DeleteLevelBatch.Entry>> levels = quiesce(top, path, pc, true);
        long inodes = levels.stream().mapToLong(List::size).sum();
        if (ns.snapshots().enabled()) {
          ns.run(
              () ->
                  new io.hops.namenode.ops.snapshot.RefuseSnapshottedBelow(
                      ns, path, root.id(), root.subtreeLockOwner()));
        }
        long d0 = System.nanoTime();
        deleteLevels(root, levels, ns.run(() -> new QuotaDirsOnPath(path)));
        quiesceNanos += d0 - q0;
        deleteNanos += System.nanoTime() - d0;
        try {
          boolean out =
              ns.runAtMostOnce(
                  codec,
                  () ->
                      new Delete(ns, pc, src, recursive)
                          .underOwnMark(root.id(), root.subtreeLockOwner()));
          LOG.info(
              "subtree delete of {} ({} inodes) took {} ms: quiesce {} ms, deletion {} ms",
              path,
              inodes + 1,
              (System.nanoTime() - start) / 1_000_000,
              quiesceNanos / 1_000_000,
              deleteNanos / 1_000_000);
          return out;
        } catch (SubtreeTooBigException again) {
          // Writers that resolved their paths before the mark added more: read and delete again.
          if (pass == ROUNDS) {
            throw new RetriableException("delete " + src + ": the subtree kept growing; retry");
          }
          top = again.root();
        }
      }
    } finally {
      if (!unlinked) {
        unmarkUnlessStopped(root);
      }
    }
  }

  /**
   * A big delete that answers once its marked root is unlinked ({@link Delete#detaching}): HDFS's
   * sub-access check for a caller who is not the superuser (the quiesce, reading and checking,
   * keeping nothing), then one transaction, then the rows are freed in the background ({@link
   * #reclaim}). Null if a directory above has a quota: the delete is then done in place, so that
   * the quota's usage drops before the client hears back.
   */
  private Boolean unlink(
      PermissionChecker pc,
      String src,
      boolean recursive,
      RetryCache.Codec<Boolean> codec,
      InodeRow root)
      throws IOException {
    long start = System.nanoTime();
    if (!pc.isSuperuser()) {
      quiesce(root, pathOf(src), pc, false);
    }
    boolean out;
    try {
      out =
          ns.runAtMostOnce(
              codec,
              () ->
                  new Delete(ns, pc, src, recursive)
                      .underOwnMark(root.id(), root.subtreeLockOwner())
                      .detaching());
    } catch (SubtreeTooBigException quotaAbove) {
      return null;
    }
    LOG.info(
        "subtree delete of {} unlinked inode {} in {} ms; its rows are freed in the background",
        src,
        root.id(),
        (System.nanoTime() - start) / 1_000_000);
    reclaimLater(root.id(), 0);
    return out;
  }

  // ---- reclaiming unlinked subtrees ----

  /** Reclaims the detached subtree {@code id} on this namenode's reclaim thread, once at a time. */
  private void reclaimLater(long id, long delayMillis) {
    if (stopped || !reclaiming.add(id)) {
      return;
    }
    try {
      reclaimer.schedule(
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
              reclaimLater(id, 5_000);
            }
          },
          delayMillis,
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      reclaiming.remove(id); // stopping: the leader takes it over once this namenode is gone
    }
  }

  /**
   * Frees every row of the detached subtree {@code id} (see {@link Delete#detaching}) as a delete
   * in place does: quiesce, then the levels from the deepest, leaves first, in parallel batches
   * that release blocks and leases, then the root. A transaction that resolved its path before the
   * subtree was marked may still add below it; the pass repeats until the root is empty.
   */
  public void reclaim(long id) throws IOException {
    long start = System.nanoTime();
    long inodes = 0;
    while (true) {
      InodeRow top = ns.run(() -> new ReadDetached(id));
      if (top == null) {
        return;
      }
      List<List<DeleteLevelBatch.Entry>> levels = quiesce(top, "/", null, true);
      inodes += levels.stream().mapToLong(List::size).sum();
      deleteLevels(top, levels, List.of());
      if (ns.run(() -> new DropDetachedRoot(id))) {
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
  public int resumeReclaims() throws IOException {
    long me = marks.myId();
    int started = 0;
    for (InodeRow r : ns.run(ListDetached::new)) {
      if (reclaiming.contains(r.id())) {
        continue;
      }
      long owner = r.subtreeLocked() ? r.subtreeLockOwner() : 0;
      if (owner != me) {
        if (owner != 0 && !marks.isDead(owner)) {
          continue;
        }
        if (!ns.run(() -> new TakeOver(r.id(), owner, me))) {
          continue;
        }
        LOG.info("taking over the reclaim of deleted subtree {} from namenode {}", r.id(), owner);
      }
      reclaimLater(r.id(), 0);
      started++;
    }
    return started;
  }

  /** Whether this namenode has a reclaim queued or running. */
  public boolean reclaiming() {
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

  private static boolean nonEmptyDir(io.hops.namenode.resolve.ResolvedPath p) {
    InodeRow t = p.target();
    return t != null && t.isDir() && t.childrenCount() > 0;
  }

  /**
   * The quiesce of a marked subtree: its inodes level by level (level 1: the root's children), with
   * HDFS's sub-access check of a delete if {@code checkDelete}.
   */
  private List<List<DeleteLevelBatch.Entry>> quiesce(
      InodeRow root, String path, PermissionChecker pc, boolean keep) throws IOException {
    return quiesce(root, path, pc, keep, new long[2], new ArrayList<>());
  }

  /**
   * As above, also adding the subtree's namespace and the space of its closed files to {@code
   * usage}, and collecting the files being written in {@code open}.
   */
  private List<List<DeleteLevelBatch.Entry>> quiesce(
      InodeRow root,
      String path,
      PermissionChecker pc,
      boolean keep,
      long[] usage,
      List<InodeRow> open)
      throws IOException {
    List<List<DeleteLevelBatch.Entry>> levels = new ArrayList<>();
    boolean check = pc != null && !pc.isSuperuser();
    SubtreeWalk.walk(
        ns,
        new SubtreeWalk.Dir(root, path),
        LockMode.EXCLUSIVE,
        ownMark(root),
        (dir, depth, children) -> {
          step();
          if (check && !children.isEmpty()) {
            // HDFS's checkSubAccess with empty directories ignored, level by level.
            pc.check(dir.row(), dir.path(), FsAction.ALL);
            for (InodeRow c : children) {
              pc.checkStickyBit(
                  dir.row(), dir.path(), c, SubtreeWalk.childPath(dir.path(), c.name()), root);
            }
          }
          for (InodeRow c : children) {
            usage[0]++;
            if (c.underConstruction()) {
              open.add(c);
            } else {
              usage[1] += FileSpace.of(c, null);
            }
          }
          if (keep) {
            while (levels.size() < depth) {
              levels.add(new ArrayList<>());
            }
            List<DeleteLevelBatch.Entry> level = levels.get(depth - 1);
            for (InodeRow c : children) {
              level.add(new DeleteLevelBatch.Entry(c.id(), c.parentId(), c.name(), c.isDir()));
            }
          }
        },
        deleters,
        threads);
    return levels;
  }

  /**
   * This namenode's mark on {@code root}, which every batch transaction under it checks: the mark
   * carries this process's incarnation, whether this process set it or took it over.
   */
  private OwnMark ownMark(InodeRow root) throws IOException {
    return OwnMark.of(root, marks.myId());
  }

  /** Deletes the levels from the deepest up, each in parallel batches of one transaction. */
  private void deleteLevels(
      InodeRow root, List<List<DeleteLevelBatch.Entry>> levels, List<Long> quotaDirs)
      throws IOException {
    DeleteLevelBatch.Entry rootEntry =
        new DeleteLevelBatch.Entry(root.id(), root.parentId(), root.name(), true);
    OwnMark mark = ownMark(root);
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
      for (int i = 0; i < level.size(); i += bound) {
        List<DeleteLevelBatch.Entry> doomed = level.subList(i, Math.min(level.size(), i + bound));
        batches.add(deleters.submit(() -> deleteBatch(doomed, parents, quotaDirs, mark)));
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
  private int deleteBatch(
      List<DeleteLevelBatch.Entry> doomed,
      Map<Long, DeleteLevelBatch.Entry> parents,
      List<Long> quotaDirs,
      OwnMark mark)
      throws IOException {
    List<DeleteLevelBatch.Entry> todo = doomed;
    int take = todo.size();
    int refilled = 0;
    while (!todo.isEmpty()) {
      step();
      List<DeleteLevelBatch.Entry> now = todo.subList(0, Math.min(take, todo.size()));
      List<DeleteLevelBatch.Entry> after = todo.subList(now.size(), todo.size());
      Map<Long, DeleteLevelBatch.Entry> mine = new HashMap<>();
      now.forEach(e -> mine.put(e.parentId(), parents.get(e.parentId())));
      List<DeleteLevelBatch.Entry> ps = new ArrayList<>(mine.values());
      DeleteLevelBatch.Outcome out =
          ns.run(() -> new DeleteLevelBatch(ps, now).countedIn(quotaDirs).underMark(mark));
      refilled += out.refilled();
      List<DeleteLevelBatch.Entry> rest = new ArrayList<>(out.deferred());
      rest.addAll(after);
      todo = rest;
      take = out.deferred().isEmpty() ? bound : Math.max(1, Math.min(bound, 2 * out.deleted()));
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

  // ---- rename ----

  /**
   * {@code rename} and {@code rename2} at any size: only a rename to the trash reads the subtree
   * (HDFS checks what a delete checks); a big one does it under the mark, then moves the root in
   * one transaction.
   */
  public boolean rename(
      PermissionChecker pc,
      String src,
      String dst,
      boolean oldApi,
      Options.Rename[] options,
      RetryCache.Codec<Boolean> codec)
      throws IOException {
    Supplier<Rename> plain =
        () ->
            oldApi
                ? Rename.oldApi(ns, pc, src, dst)
                : Rename.withOptions(ns, pc, src, dst, options);
    for (int round = 0; ; round++) {
      try {
        return ns.runAtMostOnce(codec, plain);
      } catch (SubtreeTooBigException big) {
        if (round == ROUNDS) {
          throw new RetriableException("rename " + src + ": the subtree kept changing; retry");
        }
        InodeRow root =
            marks.mark(src, SubtreeMarks.RENAME, pc.caller().user(), p -> nonEmptyDir(p));
        if (root == null) {
          continue;
        }
        try {
          // The quiesce counts the subtree too: a move between quota directories carries it.
          long[] usage = {1, 0};
          List<InodeRow> open = new ArrayList<>();
          quiesce(root, pathOf(src), pc, false, usage, open);
          usage[1] += ns.run(() -> new OpenFilesSpace(open));
          return ns.runAtMostOnce(
              codec,
              () ->
                  plain
                      .get()
                      .underOwnMark(root.id(), root.subtreeLockOwner())
                      .withMovedUsage(usage[0], usage[1]));
        } finally {
          unmarkUnlessStopped(root);
        }
      }
    }
  }

  // ---- quotas ----

  /**
   * {@code setQuota} at any size: a directory that gets its first quota over a subtree bigger than
   * the bound has its usage counted under a mark, after the quiesce, so that no writer below it
   * changes the usage between the count and the commit that starts counting.
   */
  public void setQuota(PermissionChecker pc, String src, long nsQuota, long dsQuota)
      throws IOException {
    for (int round = 0; ; round++) {
      try {
        ns.run(() -> new SetQuota(pc, src, nsQuota, dsQuota, bound));
        return;
      } catch (SubtreeTooBigException big) {
        if (round == ROUNDS) {
          throw new RetriableException("setQuota " + src + ": the subtree kept changing; retry");
        }
        InodeRow root =
            marks.mark(
                src,
                SubtreeMarks.QUOTA,
                pc.caller().user(),
                p -> p.target() != null && p.target().isDir() && !p.target().hasQuota());
        if (root == null) {
          continue;
        }
        try {
          long[] usage = usageUnderMark(root, pathOf(src));
          ns.run(
              () ->
                  new SetQuota(pc, src, nsQuota, dsQuota, bound)
                      .withUsage(root.id(), root.subtreeLockOwner(), usage[0], usage[1]));
          return;
        } finally {
          unmarkUnlessStopped(root);
        }
      }
    }
  }

  /** The namespace and storage space of a marked subtree, counted by its quiesce. */
  private long[] usageUnderMark(InodeRow root, String path) throws IOException {
    long[] c = {1, 0};
    List<InodeRow> open = new ArrayList<>();
    SubtreeWalk.walk(
        ns,
        new SubtreeWalk.Dir(root, path),
        LockMode.EXCLUSIVE,
        ownMark(root),
        (dir, depth, children) -> {
          step();
          for (InodeRow r : children) {
            c[0]++;
            if (r.underConstruction()) {
              open.add(r);
            } else {
              c[1] += FileSpace.of(r, null);
            }
          }
        },
        deleters,
        threads);
    c[1] += ns.run(() -> new OpenFilesSpace(open));
    return c;
  }

  /** {@code getQuotaUsage}: the quota row of a directory with a quota, else the content summary. */
  public org.apache.hadoop.fs.QuotaUsage quotaUsage(PermissionChecker pc, String src)
      throws IOException {
    org.apache.hadoop.fs.QuotaUsage usage = ns.run(() -> new GetQuotaUsage(pc, src));
    if (usage == null || !pc.isSuperuser()) {
      // HDFS checks READ_EXECUTE over the whole subtree either way: the summary does.
      ContentSummary summary = contentSummary(pc, src);
      return usage == null ? summary : usage;
    }
    return usage;
  }

  // ---- content summary ----

  /** {@code getContentSummary} at any size. */
  public ContentSummary contentSummary(PermissionChecker pc, String src) throws IOException {
    try {
      return ns.run(() -> new ContentSummaryOp(ns, pc, src));
    } catch (SubtreeTooBigException big) {
      return summarize(pc, big.root(), big.path(), big.quota());
    }
  }

  private ContentSummary summarize(PermissionChecker pc, InodeRow root, String path, QuotaRow q)
      throws IOException {
    boolean check = !pc.isSuperuser();
    long[] c = new long[4]; // length, files, directories, space
    c[2] = 1;
    SubtreeWalk.count(
        ns,
        new SubtreeWalk.Dir(root, path),
        (dir, depth, children) -> {
          if (check && depth == 1) {
            // The root first, here where the walk's first transaction has read its ACL.
            pc.check(dir.row(), dir.path(), FsAction.READ_EXECUTE);
          }
          c[0] += children.length();
          c[1] += children.files();
          c[3] += children.space();
          for (InodeRow r : children.dirs()) {
            c[2]++;
            if (check) {
              pc.check(r, SubtreeWalk.childPath(dir.path(), r.name()), FsAction.READ_EXECUTE);
            }
          }
        },
        deleters,
        threads);
    return new ContentSummary.Builder()
        .length(c[0])
        .fileCount(c[1])
        .directoryCount(c[2])
        .quota(q == null ? -1 : q.nsQuota())
        .spaceConsumed(c[3])
        .spaceQuota(q == null ? -1 : q.dsQuota())
        .erasureCodingPolicy("")
        .build();
  }

  private static String pathOf(String src) {
    String[] c = io.hops.namenode.resolve.PathNames.components(src);
    return io.hops.namenode.resolve.PathNames.prefix(c, c.length);
  }
}
