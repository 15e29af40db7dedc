package io.hops.namenode.housekeeping;

import io.hops.namenode.Namesystem;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's housekeeping (docs/architecture.md, "Wire compatibility"): one daemon thread that
 * runs every task each interval while this namenode is the leader. Tasks are driven by the tables
 * of docs/architecture.md, "Metadata schema", so a new leader picks up where the old one stopped.
 */
public final class Housekeeping implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Housekeeping.class);

  private final Namesystem ns;
  private final List<HousekeepingTask> tasks;
  private final ScheduledExecutorService thread;
  private ScheduledFuture<?> rounds;
  private long epoch;
  private volatile java.util.function.BooleanSupplier inSafeMode = () -> false;
  private boolean pausedForSafeMode;
  private volatile long lastRoundMillis;
  private final java.util.concurrent.atomic.LongAdder roundsRun =
      new java.util.concurrent.atomic.LongAdder();

  public Housekeeping(Namesystem ns) {
    this(ns, null);
  }

  /** With {@code self}, this namenode's URI, for the chores that work through a client of it. */
  public Housekeeping(Namesystem ns, java.net.URI self) {
    this.ns = ns;
    this.tasks = tasks(ns);
    TrashEmptier trash = TrashEmptier.of(ns, self);
    if (trash != null) {
      tasks.add(trash);
    }
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "housekeeping");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The chores, in the order they run each round: dead datanodes and failed storages first (their
   * replicas stop counting), then decommissioning ones (their blocks are queued), then the re-check
   * of every block that a second rack makes due, then copies that timed out, then re-replication,
   * then deleted subtrees whose namenode died, then the blocks of large deleted files, then the
   * deletions they and the others queued, so that one round sends them.
   */
  private static List<HousekeepingTask> tasks(Namesystem ns) {
    List<HousekeepingTask> t = new ArrayList<>();
    t.add(new LeaseExpiry(ns));
    t.add(new DeadDatanodeMonitor(ns));
    t.add(new FailedStorageMonitor(ns));
    t.add(new DatanodeAdminMonitor(ns));
    t.add(new MultiRackRecheck(ns));
    t.add(new DeferredCheckWalk(ns));
    t.add(new PendingReplicationMonitor(ns));
    t.add(new ReplicationMonitor(ns));
    t.add(new DetachedSubtrees(ns));
    t.add(new BlockReleaseMonitor(ns));
    t.add(new InvalidationMonitor(ns));
    t.add(new RetryCacheExpiry(ns));
    t.add(new BlockHealthCensus(ns));
    t.add(new NamespaceCensus(ns));
    t.add(new SmallFileMoveLeftovers(ns));
    if (ns.blockTokens().enabled()) {
      t.add(new BlockKeyRoll(ns));
    }
    if (ns.delegationTokens().isRunning()) {
      t.add(new DelegationKeyRoll(ns));
      t.add(new ExpiredDelegationTokens(ns));
    }
    return t;
  }

  /**
   * How the rounds learn whether the cluster is in safe mode (manual or startup): then the tasks
   * that do not run in safe mode ({@link HousekeepingTask#runsInSafeMode}) wait.
   */
  public void whileInSafeMode(java.util.function.BooleanSupplier inSafeMode) {
    this.inSafeMode = inSafeMode;
  }

  public void start() {
    long interval =
        ns.conf()
            .getLong(
                NamenodeConfig.HOUSEKEEPING_INTERVAL_MS,
                NamenodeConfig.HOUSEKEEPING_INTERVAL_MS_DEFAULT);
    rounds =
        thread.scheduleWithFixedDelay(this::runOnce, interval, interval, TimeUnit.MILLISECONDS);
  }

  /**
   * One round of every task (tests call it directly to avoid waiting). Rounds never overlap: the
   * tasks keep a little state between rounds.
   */
  public synchronized void runOnce() {
    long start = System.nanoTime();
    try {
      runTasks();
    } finally {
      lastRoundMillis = (System.nanoTime() - start) / 1_000_000;
      roundsRun.increment();
    }
  }

  /** How long the last round took (tasks skipped on a namenode that does not lead). */
  public long lastRoundMillis() {
    return lastRoundMillis;
  }

  /** Rounds run since this namenode started, leader or not. */
  public long rounds() {
    return roundsRun.sum();
  }

  private void runTasks() {
    io.hops.election.LeaderElection election = ns.blocks().election();
    if (election != null && election.isLeader() && election.epoch() != epoch) {
      epoch = election.epoch();
      LOG.info("housekeeping starts as leader of epoch {}", epoch);
    }
    boolean safe = inSafeMode.getAsBoolean();
    if (safe != pausedForSafeMode && ns.blocks().isLeader()) {
      LOG.info(
          safe
              ? "safe mode: re-replication, invalidation, block release and lease expiry wait"
              : "safe mode is off: re-replication, invalidation, block release and lease expiry"
                  + " resume");
    }
    pausedForSafeMode = safe;
    for (HousekeepingTask task : tasks) {
      // Checked before every task: a namenode that lost its lease stops within one task (and its
      // transactions are fenced meanwhile).
      if (!ns.blocks().isLeader()) {
        return;
      }
      if (safe && !task.runsInSafeMode()) {
        continue;
      }
      try {
        task.runOnce();
      } catch (Exception e) {
        if (e instanceof io.hops.election.NotLeaderException) {
          LOG.info("housekeeping stops: {}", e.getMessage());
          return;
        }
        LOG.warn("housekeeping task {} failed; it runs again next round", task.name(), e);
      }
    }
  }

  /** Runs a round at once, off the caller's thread: a new leader resumes without waiting. */
  public void runSoon() {
    try {
      thread.execute(this::runOnce);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed
    }
  }

  @Override
  public void close() {
    if (rounds != null) {
      rounds.cancel(false);
    }
    thread.shutdownNow();
  }
}
