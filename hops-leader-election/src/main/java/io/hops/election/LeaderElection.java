package io.hops.election;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeDescriptorRow;
import io.hops.dal.rows.VariableRow;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election and membership with the database as shared memory (DAIS'15; docs/architecture.md,
 * "Leader election").
 *
 * <p>Every contender owns a row of {@code le_descriptors} and advances its counter once a period in
 * a short transaction. A contender is alive while its counter was seen to advance within the last
 * {@code missedHeartbeats} periods; the leader is the alive contender with the smallest id. Ids
 * come from a database counter and are never reused: a contender whose row was evicted joins again
 * with a new id. The id of its first join is its process's incarnation, kept in every row it writes
 * while it lives: what outlives a rejoin (subtree marks) belongs to the incarnation, not to an id.
 *
 * <p>Leadership is a lease that starts when a successful round starts and lasts a little less than
 * the time after which the others declare a silent contender dead: a contender that stalls (GC,
 * slow database, a round longer than the period) stops leading before anyone else can be elected,
 * since others only count a counter as silent from the end of the round in which they read it. The
 * same bound is every contender's heartbeat deadline: a round that commits after the previous
 * round's lease would have ended may come after another contender declared this one dead and took
 * the lead on that, so the contender does not lead on it but joins again under a new id, as if
 * evicted. Each leadership has an epoch, bumped in the database by the new leader; leader-only
 * transactions call {@link #checkLeader(Transaction)}, which reads the epoch with a shared lock, so
 * a former leader that resumes after a pause cannot commit once another has taken over.
 *
 * <p>Why this is safe: the period in {@code variables} only grows, and a contender counts another
 * as dead after {@code missedHeartbeats} periods at the value it reads in that round, never less
 * than the value the other read before its last commit. So a round that started at {@code s} and
 * read period {@code p} cannot be followed by a declaration of death before {@code s + } {@link
 * ElectionSettings#leaseNanos(long) lease(p)} on the counter it wrote; and a declaration on the
 * counter of an earlier round is ruled out by the heartbeat deadline.
 */
public final class LeaderElection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  /** The {@code variables} row of the current leadership: epoch, and the leader's id as text. */
  public static final String EPOCH_ROW = "leader_epoch";

  /**
   * The {@code variables} row of the period in force, raised by a contender whose rounds run slow.
   */
  static final String PERIOD_ROW = "le_period_ms";

  private static final String ID_COUNTER = "le_id";

  /**
   * The prefix of the {@code variables} row in which a leader publishes the cluster's time, one row
   * per contender id so that a paused former leader's lock on its row never delays its successor.
   */
  static final String CLOCK_ROW_PREFIX = "le_clock:";

  /** Called after a round in which this contender gained or lost the leadership. */
  public interface Listener {
    void leadershipChanged(boolean leader, long epoch);
  }

  /**
   * Sees each lease this contender takes: it may act as leader from {@code start} to {@code end}.
   */
  public interface LeaseRecorder {
    void leased(long id, long epoch, long startNanos, long endNanos);
  }

  private final Storage storage;
  private final ElectionSettings settings;
  private final String rpcAddress;
  private final ClusterClock clock;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private volatile LeaseRecorder leaseRecorder = (id, epoch, start, end) -> {};
  private final ContenderCensus census;
  private final ElectionRows rows;
  private final ContenderEvictions evictions;
  private final Incarnations incarnations = new Incarnations();
  private final Thread thread;

  private volatile long id = -1;

  /**
   * This process's incarnation: the first id it took, kept across joins (a round that overran its
   * deadline joins again under a new id, but the process and its subtree operations live on).
   */
  private volatile long incarnation = -1;

  private volatile boolean leading;
  private volatile long leaseEndNanos;
  private volatile long epoch;
  private volatile Membership membership = Membership.EMPTY;
  private volatile boolean leaderAlive;
  private volatile boolean stopped;
  private volatile long injectedDelayMillis;
  private volatile long rounds;
  private long periodMillis;
  private long lastRoundNanos;

  /**
   * When the next round must have committed by: the start of the last committed round (or of the
   * join) plus the lease at the period it read. A round that commits later joins again.
   */
  private long heartbeatDeadlineNanos;

  /** The id given up after a missed heartbeat deadline, whose row the next join removes. */
  private long rejoinFrom = -1;

  private long nextDeadlineNanos = Long.MAX_VALUE;

  public LeaderElection(
      Storage storage,
      ElectionSettings settings,
      String hostname,
      String rpcAddress,
      String httpAddress)
      throws StorageException {
    this(storage, settings, hostname, rpcAddress, httpAddress, new ClusterClock(storage));
  }

  /** As above, keeping {@code clock} in step with the database once a round. */
  public LeaderElection(
      Storage storage,
      ElectionSettings settings,
      String hostname,
      String rpcAddress,
      String httpAddress,
      ClusterClock clock) {
    this.storage = storage;
    this.settings = settings;
    this.rpcAddress = rpcAddress;
    this.clock = clock;
    this.periodMillis = settings.period().toMillis();
    this.census = new ContenderCensus(settings);
    this.rows = new ElectionRows(clock, hostname, rpcAddress, httpAddress);
    this.evictions = new ContenderEvictions(storage, rows);
    this.thread = new Thread(this::loop, "leader-election");
    thread.setDaemon(true);
  }

  /**
   * Joins: takes an id, writes this contender's row and runs the first round here, so that a
   * contender alone in an empty database leads as soon as this returns; then rounds run every
   * period on a thread of their own.
   */
  public void start() throws StorageException {
    join();
    round();
    thread.start();
  }

  /**
   * Takes a new id and writes its row, removing in the same transaction the row of the id this
   * contender gave up ({@link #rejoinFrom}), if any, so that the others do not wait for it to die.
   */
  private void join() throws StorageException {
    long start = System.nanoTime();
    long newId = storage.allocateIds(ID_COUNTER, 1).first();
    long oldId = rejoinFrom;
    if (incarnation < 0) {
      incarnation = newId;
    }
    try (Transaction tx = storage.begin()) {
      rows.join(tx, oldId, newId, incarnation);
      tx.commit();
    }
    // Others count the new row as alive from when they first read it, after this commit.
    heartbeatDeadlineNanos = start + settings.leaseNanos(periodMillis);
    rejoinFrom = -1;
    id = newId;
    census.clear();
    LOG.info("namenode {} joined the leader election as id {}", rpcAddress, newId);
  }

  /**
   * Gives up this contender's id after a round that missed its heartbeat deadline: another
   * contender may have declared it dead meanwhile and be leading on that, so it must not lead under
   * this id. The next round joins again under a new id (a larger one: it leads only once the others
   * are dead).
   */
  private void missedDeadline(long me, long lateNanos) {
    LOG.warn(
        "namenode {} (id {}) missed its heartbeat deadline by {} ms (a stall or a slow database);"
            + " it joins the leader election again under a new id",
        rpcAddress,
        me,
        lateNanos / 1_000_000L);
    leading = false;
    rejoinFrom = me;
    id = -1;
    notifyIfChanged();
  }

  private void loop() {
    while (!stopped) {
      long start = System.nanoTime();
      try {
        if (id < 0) {
          join();
        }
        round();
      } catch (StorageException | RuntimeException e) {
        LOG.warn("leader election round of id {} failed: {}", id, e.toString());
        notifyIfChanged();
      }
      // Also wake when a namenode ahead of this one in line would count as dead, so that a new
      // leader is elected within period x (missed heartbeats + 1) of the old one's death.
      long sleepNanos = start + periodMillis * 1_000_000L - System.nanoTime();
      if (nextDeadlineNanos != Long.MAX_VALUE) {
        sleepNanos = Math.min(sleepNanos, nextDeadlineNanos + 1_000_000L - System.nanoTime());
      }
      long sleep = sleepNanos / 1_000_000L;
      if (sleep > 0) {
        try {
          Thread.sleep(sleep);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** One round: advance my counter, see who is alive, and lead if mine is the smallest id. */
  private void round() throws StorageException {
    long start = System.nanoTime();
    long me = id;
    if (start - heartbeatDeadlineNanos >= 0) {
      missedDeadline(me, start - heartbeatDeadlineNanos);
      return;
    }
    ContenderCensus.Census view;
    ElectionRows.Leadership leadership;
    ElectionRows.ClockRead clockRead;
    try (Transaction tx = storage.begin()) {
      view = census.take(tx, me, start);
      nextDeadlineNanos = view.nextDeadlineNanos();
      if (!view.present().contains(me)) {
        evicted();
        return;
      }
      boolean continuing = leading && start - leaseEndNanos < 0;
      leadership = rows.epochStep(tx, me, view.alive(), continuing);
      if (!rows.advanceCounter(tx, me, incarnation)) {
        evicted();
        return;
      }
      clockRead = clockStep(tx, me, leadership);
      if (leadership.lead()) {
        evictions.evict(me, view.dead());
      }
      raisePeriodIfSlow(tx, me, view.period(), view.periodRow());
      sleep(injectedDelayMillis);
      if (stopped) {
        return; // crashed or closed meanwhile: a dead process commits nothing
      }
      tx.commit();
      long committed = System.nanoTime();
      if (committed - heartbeatDeadlineNanos >= 0) {
        missedDeadline(me, committed - heartbeatDeadlineNanos);
        return;
      }
      periodMillis = view.period();
      heartbeatDeadlineNanos = start + settings.leaseNanos(view.period());
    }
    clock.afterRound(storage, leadership.lead(), clockRead.published(), clockRead.readNanos());
    lastRoundNanos = System.nanoTime() - start;
    publishRound(me, start, view.alive(), leadership);
  }

  /**
   * The clock step, when the cluster's clock follows the leader's: a leader publishes its time, a
   * follower takes the leader's.
   */
  private ElectionRows.ClockRead clockStep(
      Transaction tx, long me, ElectionRows.Leadership leadership) throws StorageException {
    if (clock.followsLeader()) {
      if (leadership.lead()) {
        rows.publishTime(tx, me);
      } else if (leadership.leaderId() >= 0) {
        return rows.readLeaderTime(tx, leadership.leaderId());
      }
    }
    return ElectionRows.ClockRead.NONE;
  }

  /**
   * Raises the period in force when this contender's rounds run slow. Any contender does, not only
   * the leader: a slow one would otherwise miss its deadlines and join again, round after round.
   */
  private void raisePeriodIfSlow(Transaction tx, long me, long period, VariableRow periodRow)
      throws StorageException {
    long raised = raisedPeriod(period);
    if (raised > period) {
      rows.writePeriod(tx, raised, periodRow);
      LOG.warn(
          "leader election rounds of id {} run slow ({} ms): period raised from {} to {} ms",
          me,
          lastRoundNanos / 1_000_000L,
          period,
          raised);
    }
  }

  /**
   * After a committed round: the membership, the live incarnations and whether the leader is alive
   * as this round saw them; a leader's lease; the listeners told of a change.
   */
  private void publishRound(
      long me, long start, List<LeDescriptorRow> alive, ElectionRows.Leadership leadership) {
    boolean lead = leadership.lead();
    long leaderEpoch = leadership.leaderEpoch();
    final long leaderNow = leadership.leaderId();
    membership =
        new Membership(
            alive.stream()
                .sorted((a, b) -> Long.compare(a.id(), b.id()))
                .map(
                    r ->
                        new Member(
                            r.id(),
                            r.hostname(),
                            r.rpcAddress(),
                            r.httpAddress(),
                            r.startTime(),
                            r.id() == leaderNow))
                .toList(),
            leaderNow,
            leaderEpoch);
    incarnations.afterRound(alive, start);
    leaderAlive = lead || census.advanced(leaderNow);
    if (lead) {
      epoch = leaderEpoch;
      leaseEndNanos = heartbeatDeadlineNanos;
      long now = System.nanoTime();
      if (leaseEndNanos - now > 0) { // a round that stalled past its lease grants nothing
        leaseRecorder.leased(me, leaderEpoch, now, leaseEndNanos);
      }
    }
    leading = lead;
    rounds++;
    notifyIfChanged();
  }

  /** When a round takes over half the period, the period goes up by the configured period. */
  private long raisedPeriod(long period) {
    if (lastRoundNanos * 2 <= period * 1_000_000L) {
      return period;
    }
    return Math.min(settings.maxPeriod().toMillis(), period + settings.period().toMillis());
  }

  private void evicted() {
    LOG.warn("namenode {} (id {}) was evicted from the election; it joins again", rpcAddress, id);
    leading = false;
    id = -1;
    notifyIfChanged();
  }

  private boolean notifiedLeader;

  private synchronized void notifyIfChanged() {
    boolean now = isLeader();
    if (now != notifiedLeader) {
      notifiedLeader = now;
      LOG.info(
          now ? "namenode {} (id {}) is the leader, epoch {}" : "namenode {} (id {}) stops leading",
          rpcAddress,
          id,
          epoch);
      for (Listener l : listeners) {
        l.leadershipChanged(now, epoch);
      }
    }
  }

  /** Whether this contender leads now: elected in its last round, and that round's lease holds. */
  public boolean isLeader() {
    return leading && System.nanoTime() - leaseEndNanos < 0;
  }

  /**
   * The end of the current lease on the monotonic clock ({@link System#nanoTime}); meaningful only
   * while {@link #isLeader()}. Tests record lease intervals with it.
   */
  public long leaseEndNanos() {
    return leaseEndNanos;
  }

  /**
   * The epoch of this contender's leadership (the last one it held): it grows with every change of
   * leader, so datanodes can tell a newer leader from an older one.
   */
  public long epoch() {
    return epoch;
  }

  /**
   * Whether the leader of {@link #membership()} is known to be alive: this contender leads, or it
   * has seen the leader's counter advance. A contender that has just joined counts every row it
   * reads as alive until it has watched it for a while, so a leader named by the epoch row may be
   * one that died (all the namenodes of a cluster were restarted) until this says otherwise.
   */
  public boolean leaderAlive() {
    return leaderAlive;
  }

  /** This contender's id, or -1 between an eviction and its next join. */
  public long id() {
    return id;
  }

  /**
   * This process's incarnation (docs/architecture.md, "Subtree operations"): the id of its first
   * join, kept when it joins again under a new id; -1 before the first join.
   */
  public long incarnation() {
    return incarnation;
  }

  /**
   * The incarnations of the live namenodes as of this contender's last round: a process whose id
   * was declared dead and that joined again under a new id is still among them.
   */
  public Set<Long> liveIncarnations() {
    return incarnations.live();
  }

  /**
   * Since when (on {@link System#nanoTime}) the incarnation {@code incarnation}, once live in this
   * contender's view, has been missing from it: the start of the first round without it. Empty if
   * it is live, or was never live in a round this contender ran (or went missing over an hour ago).
   * Taken every round, unlike a caller's own samples, which may fall on two short gaps and take
   * them for one long absence.
   */
  public java.util.OptionalLong goneSince(long incarnation) {
    return incarnations.goneSince(incarnation);
  }

  /** The live namenodes as of this contender's last round. */
  public Membership membership() {
    return membership;
  }

  /** Completed rounds (tests wait on it). */
  public long rounds() {
    return rounds;
  }

  /** The period in force, in milliseconds. */
  public long periodMillis() {
    return periodMillis;
  }

  public ClusterClock clock() {
    return clock;
  }

  public void recordLeases(LeaseRecorder recorder) {
    this.leaseRecorder = recorder;
  }

  public void addListener(Listener l) {
    listeners.add(l);
  }

  /**
   * Fences a leader-only transaction: fails unless this contender leads now and the database still
   * names it leader at its epoch. The epoch row is read with a shared lock, so a new leader's
   * takeover, which writes that row, waits for this transaction to end, and vice versa.
   */
  public void checkLeader(Transaction tx) throws StorageException {
    long myEpoch = epoch;
    long me = id;
    if (!isLeader()) {
      throw new NotLeaderException("namenode id " + me + " is not the leader (lease not held)");
    }
    VariableRow row = tx.find(VariableRow.TABLE, key(EPOCH_ROW), LockMode.SHARED);
    if (row == null || row.longValue() != myEpoch || ElectionRows.leaderOf(row) != me) {
      throw new NotLeaderException(
          "namenode id "
              + me
              + " lost the leadership of epoch "
              + myEpoch
              + (row == null
                  ? ""
                  : " to id " + ElectionRows.leaderOf(row) + " at epoch " + row.longValue()));
    }
  }

  /**
   * Fault injection for tests: every round from now on sleeps this long between its reads and its
   * commit, as a slow database or a pause of the process would make it.
   */
  public void injectRoundDelay(Duration delay) {
    injectedDelayMillis = delay.toMillis();
  }

  /**
   * Fault injection for tests: the leader's evictions wait this long before they start, as a slow
   * database would make them, so a contender it found dead may commit a round before its row goes.
   */
  public void injectEvictionDelay(Duration delay) {
    evictions.injectDelay(delay);
  }

  static void sleep(long millis) {
    if (millis > 0) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Fault injection for tests: stops the rounds without leaving, as a crash of the process would.
   */
  public void crash() {
    stopped = true;
    leading = false;
    thread.interrupt();
  }

  /** Stops the rounds and leaves: the row goes, so the others need not wait for it to die. */
  @Override
  public void close() {
    stopped = true;
    leading = false;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    notifyIfChanged();
    long me = id;
    if (me < 0) {
      return;
    }
    try (Transaction tx = storage.begin()) {
      tx.delete(LeDescriptorRow.TABLE, LeDescriptorRow.TABLE.key(me));
      tx.commit();
    } catch (StorageException e) {
      LOG.warn("namenode id {} could not remove its election row; it will be evicted", me, e);
    }
  }

  /** Reads the membership straight from the database, as any client or tool may. */
  public static List<LeDescriptorRow> descriptors(Storage storage) throws StorageException {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(LeDescriptorRow.TABLE, LockMode.READ_COMMITTED);
    }
  }

  static io.hops.dal.schema.Key key(String name) {
    return VariableRow.TABLE.key(name);
  }
}
