package io.hops.namenode.housekeeping;

import io.hops.dal.Storage;
import io.hops.election.ClusterClock;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.Limits;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.DelegationTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.subtree.SubtreeOperations;
import io.hops.namenode.tx.TransactionRunner;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's housekeeping (docs/architecture.md, "Wire compatibility"): one daemon thread that
 * runs every task each interval while this namenode is the leader. Tasks are driven by the tables
 * of docs/architecture.md, "Metadata schema", so a new leader picks up where the old one stopped.
 */
public final class Housekeeping implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Housekeeping.class);

  private final Configuration conf;
  private final BlockManager blockManager;
  private final List<HousekeepingTask> tasks = new ArrayList<>();
  private final ScheduledExecutorService thread;
  private ScheduledFuture<?> rounds;
  private long epoch;
  private volatile java.util.function.BooleanSupplier inSafeMode = () -> false;
  private boolean pausedForSafeMode;
  private volatile long lastRoundMillis;
  private final java.util.concurrent.atomic.LongAdder roundsRun =
      new java.util.concurrent.atomic.LongAdder();

  /**
   * The chores over the collaborators they work with. {@code self}, this namenode's URI, is for the
   * chores that work through a client of it (the trash emptier); without it they do not run.
   */
  public Housekeeping(
      Configuration conf,
      Storage storage,
      TransactionRunner runner,
      BlockManager blockManager,
      LeaseManager leases,
      SubtreeOperations subtrees,
      BlockTokens blockTokens,
      DelegationTokens delegationTokens,
      PermissionCheckers checkers,
      Limits limits,
      SnapshotSettings snapshots,
      URI self) {
    this.conf = conf;
    this.blockManager = blockManager;
    LeaderRunner leader = new LeaderRunner(runner, blockManager);
    ClusterClock clock = blockManager.clock();
    // The order they run each round: dead datanodes and failed storages first (their replicas stop
    // counting), then decommissioning ones (their blocks are queued), then the re-check of every
    // block that a second rack makes due, then copies that timed out, then re-replication, then
    // deleted subtrees whose namenode died, then the blocks of large deleted files, then the
    // deletions they and the others queued, so that one round sends them.
    tasks.add(new LeaseExpiry(leases));
    tasks.add(new DeadDatanodeMonitor(storage, leader, blockManager, conf));
    tasks.add(new FailedStorageMonitor(storage, leader, blockManager, conf));
    tasks.add(new DatanodeAdminMonitor(storage, leader, blockManager, conf));
    tasks.add(new MultiRackRecheck(storage, leader, blockManager, conf));
    tasks.add(new DeferredCheckWalk(storage, leader, blockManager, conf));
    tasks.add(new PendingReplicationMonitor(storage, leader, blockManager, conf));
    tasks.add(new ReplicationMonitor(storage, leader, blockManager, conf));
    tasks.add(new DetachedSubtrees(subtrees));
    if (snapshots.enabled()) {
      tasks.add(new SnapshotVersionReclaims(runner));
    }
    tasks.add(new BlockReleaseMonitor(storage, leader, conf));
    tasks.add(new InvalidationMonitor(storage, leader, blockManager, conf));
    tasks.add(new RetryCacheExpiry(storage, leader, blockManager, conf));
    tasks.add(new BlockHealthCensus(storage, leader, blockManager, conf));
    tasks.add(new NamespaceCensus(storage, leader, clock, conf));
    tasks.add(
        new SmallFileMoveLeftovers(
            storage, runner, leader, clock, checkers, limits, snapshots, conf));
    if (blockTokens.enabled()) {
      tasks.add(new BlockKeyRoll(leader, blockTokens));
    }
    if (delegationTokens.isRunning()) {
      tasks.add(new DelegationKeyRoll(leader, delegationTokens));
      tasks.add(new ExpiredDelegationTokens(storage, leader, delegationTokens, conf));
    }
    TrashEmptier trash = TrashEmptier.of(conf, clock, self);
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
   * How the rounds learn whether the cluster is in safe mode (manual or startup): then the tasks
   * that do not run in safe mode ({@link HousekeepingTask#runsInSafeMode}) wait.
   */
  public void whileInSafeMode(java.util.function.BooleanSupplier inSafeMode) {
    this.inSafeMode = inSafeMode;
  }

  public void start() {
    long interval =
        conf.getLong(
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
    } catch (Throwable t) {
      // One that escaped would cancel every later round of the scheduler, with nothing logged.
      LOG.error("housekeeping round failed; the next one runs as scheduled", t);
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
    io.hops.election.LeaderElection election = blockManager.election();
    if (election != null && election.isLeader() && election.epoch() != epoch) {
      epoch = election.epoch();
      LOG.info("housekeeping starts as leader of epoch {}", epoch);
    }
    boolean safe = inSafeMode.getAsBoolean();
    if (safe != pausedForSafeMode && blockManager.isLeader()) {
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
      if (!blockManager.isLeader()) {
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
      } catch (Error e) {
        // A class that failed to load, a stack overflow: the other tasks still run.
        LOG.error("housekeeping task {} failed; it runs again next round", task.name(), e);
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
