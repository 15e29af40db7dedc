package io.hops.namenode.rpc;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.election.LeaderElection;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.ChangedStorages;
import io.hops.namenode.blocks.DeferredChecks;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Safe mode as HDFS has it, for a cluster of namenodes (docs/architecture.md, "Safe mode"): manual
 * safe mode, one flag for the whole cluster, and startup safe mode.
 *
 * <p><b>Manual.</b> The flag is the {@code safe_mode} row of {@code variables}. {@code dfsadmin
 * -safemode enter/leave} writes it, and the namenode that did it applies it at once; the others
 * follow within {@value #REFRESH_MILLIS} ms, as write operations check a copy of the row re-read at
 * most that often (outside the operation's transaction, so operations cost no more).
 *
 * <p><b>Startup.</b> A namenode starts in safe mode, as HDFS's does, and refuses writes with HDFS's
 * answer for an active namenode in startup safe mode, a {@code RetriableException} wrapping the
 * {@code SafeModeException}, which a client retries. The {@code startup_safe_mode} row holds the
 * election epoch of the leader under which the cluster last left startup safe mode. A namenode that
 * joins a cluster whose leader is alive and has left it (the row holds the leader's epoch) leaves
 * at once. A leader that is itself starting means the whole cluster is: it judges HDFS's thresholds
 * over the cluster ({@link StartupSafeMode}) and, once they are met, writes its epoch into the row,
 * which lets every namenode out. A leader that serves and takes over writes its epoch too, so that
 * namenodes joining later find the cluster serving.
 */
public final class SafeMode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SafeMode.class);
  static final String ROW = "safe_mode";
  static final String STARTUP_ROW = "startup_safe_mode";

  /** How stale a namenode's copy of the flags may be when a write operation checks it. */
  public static final long REFRESH_MILLIS = 1000;

  private static final long MONITOR_MILLIS = 500;

  /** How often a starting leader publishes its tip for the other namenodes' messages. */
  private static final long TIP_MILLIS = 5000;

  private final TransactionRunner runner;
  private final BlockManager blocks;
  private final Configuration conf;
  private final Storage storage;
  private final String hostName;
  private final StartupSafeMode thresholds;
  private volatile boolean on;
  private volatile boolean starting = true;
  private volatile long leftAtEpoch = -1;
  private volatile boolean startupRowExists = true;
  private volatile String leaderTip = "";
  private volatile long readAt = Long.MIN_VALUE;
  private volatile boolean closed;
  private Thread monitor;

  /**
   * The reports applied since the monitor's tick began, each asking for a judgement now ({@link
   * #judgeSoon}): permits, not a thread's wake-up, which the tick's own waits (a transaction's
   * commit) would take, leaving the judgement that follows a cluster's last report up to a period
   * late.
   */
  private final Semaphore judgeRequests = new Semaphore(0);

  // The monitor's own state.
  private long judgedEpoch = -1;
  private long tipDueAt = Long.MIN_VALUE;
  private long deferredAtEpoch = -1;

  public SafeMode(
      TransactionRunner runner,
      Storage storage,
      BlockManager blocks,
      Configuration conf,
      String hostName) {
    this.runner = runner;
    this.blocks = blocks;
    this.conf = conf;
    this.storage = storage;
    this.hostName = hostName;
    this.thresholds = new StartupSafeMode(storage, blocks, conf);
  }

  /**
   * Starts following the cluster's startup safe mode, once the election runs; returns when this
   * namenode has left it, when it leads a cluster that is starting (which takes longer), or after
   * {@code waitMillis}.
   */
  public void start(long waitMillis) {
    ensureRow();
    long deadline = Time.monotonicNow() + waitMillis;
    while (starting && !closed) {
      tickQuietly();
      LeaderElection e = blocks.election();
      if (!starting || (e != null && e.isLeader()) || Time.monotonicNow() >= deadline) {
        break; // serving, or leading a cluster that starts: its datanodes come after
      }
      sleep(100);
    }
    monitor = new Thread(this::monitor, "startup-safe-mode");
    monitor.setDaemon(true);
    monitor.start();
    // A report applied here may be the one the thresholds wait for: judge again now, not up to a
    // period later (a starting leader's judgement reads what the reports recorded, so a wake-up
    // with nothing new costs one judgement and changes nothing).
    blocks.datanodes().afterFullReport(this::judgeSoon);
  }

  private void judgeSoon() {
    if (starting && monitor != null) {
      judgeRequests.release();
    }
  }

  @Override
  public void close() {
    closed = true;
    if (monitor != null) {
      monitor.interrupt();
    }
  }

  /** The cluster's mode as stored now: on if entered manually or while this namenode starts. */
  public boolean get() throws StorageException {
    refresh();
    return on || starting;
  }

  /**
   * Whether an operator put the cluster in safe mode ({@code dfsadmin -safemode enter}), read from
   * the database: what a tool outside the namenodes asks.
   */
  public static boolean enteredManually(Storage storage) throws StorageException {
    try (Transaction tx = storage.begin()) {
      VariableRow row =
          tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.READ_COMMITTED);
      tx.commit();
      return row != null && row.longValue() != 0;
    }
  }

  /** Whether this namenode is still in startup safe mode. */
  public boolean inStartupSafeMode() {
    return starting;
  }

  /**
   * Enters ({@code true}) or leaves safe mode for every namenode; returns the new mode. Leaving
   * ends startup safe mode too, for the whole cluster, as {@code dfsadmin -safemode leave} does in
   * HDFS.
   */
  public boolean set(boolean enter) throws StorageException {
    write(ROW, enter ? 1 : 0, null);
    on = enter;
    readAt = Time.monotonicNow();
    if (!enter && starting) {
      long epoch = currentEpoch();
      write(STARTUP_ROW, epoch, null);
      leftAtEpoch = epoch;
      starting = false;
      LOG.info("STATE* Safe mode is OFF: startup safe mode left manually (epoch {})", epoch);
    }
    LOG.info(enter ? "safe mode is ON (entered manually)" : "safe mode is OFF");
    return enter;
  }

  /** Whether write operations are refused now, from a copy at most {@link #REFRESH_MILLIS} old. */
  public boolean isOn() throws StorageException {
    if (Time.monotonicNow() - readAt > REFRESH_MILLIS) {
      refresh();
    }
    return on || starting;
  }

  /** Refuses a write operation in safe mode, as HDFS's FSNamesystem.checkNameNodeSafeMode. */
  public void check(String errorMsg) throws IOException {
    check(() -> errorMsg);
  }

  /**
   * As {@link #check(String)}, making the message only when it is needed. In startup safe mode the
   * refusal is retriable, as an HDFS namenode that is active in an HA nameservice answers.
   */
  public void check(Supplier<String> errorMsg) throws IOException {
    if (!isOn()) {
      return;
    }
    if (on) {
      throw new SafeModeException(
          errorMsg.get()
              + ". Name node is in safe mode.\n"
              + "It was turned on manually. Use \"hdfs dfsadmin -safemode leave\" to turn safe"
              + " mode off. NamenodeHostName:"
              + hostName);
    }
    throw new RetriableException(
        new SafeModeException(
            errorMsg.get()
                + ". Name node is in safe mode.\n"
                + startupTip()
                + " NamenodeHostName:"
                + hostName));
  }

  /**
   * The exact check of a write, inside its transaction at the end of its lock phase: the {@code
   * safe_mode} row read with a shared lock, held to the commit. Entering safe mode writes the row
   * under an exclusive lock, so it waits for the writes that passed this check, and every write
   * after it sees it on: once {@code dfsadmin -safemode enter} returns, no write commits on any
   * namenode, as in HDFS, where the check is made under the namesystem lock.
   */
  void checkStored(Transaction tx, Supplier<String> errorMsg) throws IOException {
    VariableRow row = tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.SHARED);
    if (row != null && row.longValue() != 0) {
      on = true;
      readAt = Time.monotonicNow();
      check(errorMsg);
    }
  }

  /** HDFS's tip for startup safe mode: the leader's count, as this namenode knows it. */
  public String startupTip() {
    LeaderElection e = blocks.election();
    if (e != null && e.isLeader()) {
      return thresholds.tip();
    }
    if (!leaderTip.isEmpty()) {
      return leaderTip;
    }
    return "The namenode has just started. Safe mode will be turned off automatically once it has"
        + " heard from the leader of the cluster.";
  }

  private void refresh() throws StorageException {
    try (Transaction tx = storage.begin()) {
      List<VariableRow> rows =
          tx.findBatch(
              VariableRow.TABLE,
              List.of(VariableRow.TABLE.key(ROW), VariableRow.TABLE.key(STARTUP_ROW)),
              LockMode.READ_COMMITTED);
      on = rows.get(0) != null && rows.get(0).longValue() != 0;
      VariableRow startup = rows.get(1);
      startupRowExists = startup != null;
      leftAtEpoch = startup == null ? -1 : startup.longValue();
      byte[] tip = startup == null ? null : startup.bytesValue();
      leaderTip = tip == null ? "" : new String(tip, StandardCharsets.UTF_8);
      readAt = Time.monotonicNow();
    }
    followLeader();
  }

  /** A namenode that does not lead leaves once the live leader serves (it left startup). */
  private void followLeader() {
    LeaderElection e = blocks.election();
    if (!starting || e == null || e.isLeader() || !e.leaderAlive()) {
      return;
    }
    long epoch = e.membership().epoch();
    // No row at all: the live leader runs a release that does not write it (a rolling upgrade),
    // and serves. (A new cluster's first namenode leads at once and writes the row itself.)
    if (leftAtEpoch == epoch || !startupRowExists) {
      starting = false;
      LOG.info("STATE* Safe mode is OFF: the cluster's leader (epoch {}) serves", epoch);
    }
  }

  private void monitor() {
    while (!closed) {
      judgeRequests.drainPermits(); // a report applied from now on is judged by this tick or next
      tickQuietly();
      try {
        // Until the period ends, or a report applied meanwhile asks.
        judgeRequests.tryAcquire(MONITOR_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return; // closed
      }
    }
  }

  private void tickQuietly() {
    try {
      tick();
    } catch (IOException | RuntimeException e) {
      LOG.info("startup safe mode not judged this time: {}", e.toString());
    }
  }

  private void tick() throws IOException {
    LeaderElection e = blocks.election();
    if (e == null) {
      return;
    }
    if (!e.isLeader()) {
      if (starting) {
        refresh();
      }
      return;
    }
    long epoch = e.epoch();
    if (epoch != judgedEpoch) {
      thresholds.reset();
      judgedEpoch = epoch;
      tipDueAt = Long.MIN_VALUE;
    }
    if (!starting) {
      if (leftAtEpoch != epoch) {
        // A leader that serves took over: namenodes that join from now on find the cluster serving.
        publish(epoch, null);
      }
      return;
    }
    refresh();
    if (leftAtEpoch == epoch) {
      starting = false; // left manually meanwhile
      return;
    }
    boolean met = thresholds.evaluate();
    forgetChangesSeen();
    if (met) {
      publish(epoch, null);
      starting = false;
      LOG.info("STATE* Safe mode is OFF: {}", thresholds.tip());
      thresholds.dropReplicaIds();
      return;
    }
    if (deferredAtEpoch != epoch) {
      // The cluster starts: its first full reports queue no checks, judged once it serves.
      runner.run(DeferredChecks::startDeferring, blocks.leaderFence());
      deferredAtEpoch = epoch;
    }
    if (Time.monotonicNow() >= tipDueAt) {
      String tip = thresholds.tip();
      publish(leftAtEpoch, tip);
      tipDueAt = Time.monotonicNow() + TIP_MILLIS;
      LOG.info("STATE* Safe mode ON. {}", tip);
    }
  }

  /**
   * Deletes the notes of changed storages the judgement read (fenced: a former leader's delete
   * would hide a change from the new leader). Notes not deleted are read again next time.
   */
  private void forgetChangesSeen() {
    List<Key> rows = thresholds.takeChangesSeen();
    if (rows.isEmpty()) {
      return;
    }
    try {
      runner.run(() -> ChangedStorages.forget(rows), blocks.leaderFence());
    } catch (IOException e) {
      LOG.info("notes of changed storages kept: {}", e.toString());
    }
  }

  /** Writes the startup row as the leader (fenced: a former leader commits nothing). */
  private void publish(long epoch, String tip) throws IOException {
    byte[] bytes = tip == null ? null : tip.getBytes(StandardCharsets.UTF_8);
    runner.run(() -> new WriteStartupRow(epoch, bytes), blocks.leaderFence());
    leftAtEpoch = epoch;
  }

  private long currentEpoch() {
    LeaderElection e = blocks.election();
    return e == null ? 0 : Math.max(e.epoch(), e.membership().epoch());
  }

  /**
   * Makes sure the {@code safe_mode} row exists (off), so that a write's shared lock on it has a
   * row to lock: a locking read of a missing row locks nothing at READ COMMITTED, and entering safe
   * mode for the first time would not wait for the writes in flight.
   */
  private void ensureRow() {
    try (Transaction tx = storage.begin()) {
      if (tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.READ_COMMITTED) == null) {
        tx.insert(VariableRow.TABLE, new VariableRow(ROW, 0, null));
      }
      tx.commit();
    } catch (StorageException e) {
      // another namenode made it first, or the database is away: the first entry into safe mode
      // makes it then
      LOG.debug("safe_mode row not made: {}", e.getMessage());
    }
  }

  private void write(String name, long value, byte[] bytes) throws StorageException {
    for (int attempt = 0; ; attempt++) {
      try (Transaction tx = storage.begin()) {
        VariableRow old =
            tx.find(VariableRow.TABLE, VariableRow.TABLE.key(name), LockMode.EXCLUSIVE);
        VariableRow row = new VariableRow(name, value, bytes);
        if (old == null) {
          tx.insert(VariableRow.TABLE, row);
        } else {
          tx.update(VariableRow.TABLE, row);
        }
        tx.commit();
        return;
      } catch (DuplicateKeyException e) {
        if (attempt > 0) {
          throw e; // two namenodes raced to create the row once; the second attempt updates it
        }
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The leader's write of the startup row. */
  private static final class WriteStartupRow extends Operation<Void> {
    private final long epoch;
    private final byte[] tip;
    private VariableRow found;

    WriteStartupRow(long epoch, byte[] tip) {
      this.epoch = epoch;
      this.tip = tip;
    }

    @Override
    public String name() {
      return "startupSafeMode";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      found = tx.find(VariableRow.TABLE, VariableRow.TABLE.key(STARTUP_ROW), LockMode.EXCLUSIVE);
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      VariableRow row = new VariableRow(STARTUP_ROW, epoch, tip);
      if (found == null) {
        tx.insert(VariableRow.TABLE, row);
      } else {
        tx.update(VariableRow.TABLE, row);
      }
      return null;
    }
  }
}
