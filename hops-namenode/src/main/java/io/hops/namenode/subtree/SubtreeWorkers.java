package io.hops.namenode.subtree;

import io.hops.dal.rows.InodeRow;
import io.hops.election.ClusterClock;
import io.hops.namenode.config.Limits;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.OwnMark;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What every subtree operation of one namenode shares (docs/architecture.md, "Subtree operations"):
 * the runner and the marks, what the operations they run take (the limits, the cluster's clock, the
 * snapshot reads), the pool that reads and deletes levels, the thread that retries unmarks and runs
 * reclaims, the bound of one transaction, and the stop that ends operations between two of their
 * transactions.
 */
final class SubtreeWorkers {
  /** How many times an operation goes back to its one-transaction form before giving up. */
  static final int ROUNDS = 8;

  /** How long a failed unmark waits before it is tried again. */
  private static final long UNMARK_RETRY_MS = 500;

  final TransactionRunner runner;
  final SubtreeMarks marks;
  private final Faults faults;

  /** The namespace limits the operations check; {@code inodesInOneTx} is {@link #bound}. */
  final Limits limits;

  final ClusterClock clock;
  final SnapshotSettings snapshotSettings;

  /** The most inodes one transaction takes ({@code hops.namenode.subtree.max-inodes-in-one-tx}). */
  final int bound;

  /** Reads the runs of a level and deletes its batches; {@link #threads} of them. */
  final ExecutorService pool;

  final int threads;

  /** Retries unmarks and runs reclaims, one at a time. */
  final ScheduledExecutorService background;

  private volatile boolean stopped;

  SubtreeWorkers(
      TransactionRunner runner,
      SubtreeMarks marks,
      Faults faults,
      Limits limits,
      ClusterClock clock,
      SnapshotSettings snapshotSettings,
      int threads) {
    this.runner = runner;
    this.marks = marks;
    this.faults = faults;
    this.limits = limits;
    this.clock = clock;
    this.snapshotSettings = snapshotSettings;
    this.bound = limits.inodesInOneTx();
    this.threads = threads;
    this.background =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "subtree-reclaim");
              t.setDaemon(true);
              return t;
            });
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "subtree");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The namenode stops: operations in progress end between two of their transactions, leaving their
   * marks to be cleared by whoever meets them once this namenode has left the membership.
   */
  void stop() {
    stopped = true;
    background.shutdownNow();
    pool.shutdownNow();
  }

  boolean stopped() {
    return stopped;
  }

  /** Called between two transactions of an operation: throws once the namenode is stopping. */
  void step() throws IOException {
    if (stopped) {
      throw new IOException("the namenode is stopping");
    }
    faults.at(Faults.Point.SUBTREE_STEP); // a test may stop the namenode in the middle here
    if (stopped) {
      throw new IOException("the namenode is stopping");
    }
  }

  /**
   * Clears this namenode's mark on {@code root}; if that fails, again in the background until it is
   * cleared: a live namenode's mark is cleared by no one else, and would make every operation on
   * the subtree, its ancestors and its descendants back off for as long as this namenode lives.
   */
  void unmarkUnlessStopped(InodeRow root) {
    if (stopped || marks.unmark(root)) {
      return;
    }
    try {
      background.schedule(() -> unmarkUnlessStopped(root), UNMARK_RETRY_MS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Stopping: the mark is cleared by whoever meets it once this namenode has left.
    }
  }

  /**
   * This namenode's mark on {@code root}, which every batch transaction under it checks: the mark
   * carries this process's incarnation, whether this process set it or took it over.
   */
  OwnMark ownMark(InodeRow root) throws IOException {
    return OwnMark.of(root, marks.myId());
  }

  static boolean nonEmptyDir(ResolvedPath p) {
    InodeRow t = p.target();
    return t != null && t.isDir() && t.childrenCount() > 0;
  }

  static String pathOf(String src) {
    String[] c = PathNames.components(src);
    return PathNames.prefix(c, c.length);
  }
}
