package io.hops.election;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeDescriptorRow;
import java.time.Duration;
import java.util.List;
import java.util.Set;
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
 * <p>Leadership is a lease that ends before anyone else can be elected, with an epoch that fences
 * leader-only transactions ({@link #checkLeader(Transaction)}): {@link LeaderLease} says how, and
 * why it is safe.
 */
public final class LeaderElection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  /** The {@code variables} row of the current leadership: epoch, and the leader's id as text. */
  public static final String EPOCH_ROW = "leader_epoch";

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
  private final ContenderCensus census;
  private final ElectionRows rows;
  private final ContenderEvictions evictions;
  private final Incarnations incarnations = new Incarnations();
  private final LeaderLease lease;
  private final RoundPeriod period;
  private final RoundLoop loop;

  private volatile long id = -1;

  /**
   * This process's incarnation: the first id it took, kept across joins (a round that overran its
   * deadline joins again under a new id, but the process and its subtree operations live on).
   */
  private volatile long incarnation = -1;

  private volatile Membership membership = Membership.EMPTY;
  private volatile boolean leaderAlive;
  private volatile long injectedDelayMillis;
  private volatile long rounds;

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
    this.census = new ContenderCensus(settings);
    this.rows = new ElectionRows(clock, hostname, rpcAddress, httpAddress);
    this.lease = new LeaderLease(rpcAddress);
    this.period = new RoundPeriod(settings, rows);
    this.evictions = new ContenderEvictions(storage, rows);
    this.loop = new RoundLoop(this::nextRound, period::millis, () -> nextDeadlineNanos);
  }

  /**
   * Joins: takes an id, writes this contender's row and runs the first round here, so that a
   * contender alone in an empty database leads as soon as this returns; then rounds run every
   * period on a thread of their own.
   */
  public void start() throws StorageException {
    join();
    round();
    loop.start();
  }

  /**
   * Takes a new id and writes its row, removing in the same transaction the row of the id this
   * contender gave up ({@link #rejoinFrom}), if any, so that the others do not wait for it to die.
   */
  private void join() throws StorageException {
    long start = System.nanoTime();
    long newId = storage.allocateIds(ElectionRows.ID_COUNTER, 1).first();
    long oldId = rejoinFrom;
    if (incarnation < 0) {
      incarnation = newId;
    }
    try (Transaction tx = storage.begin()) {
      rows.join(tx, oldId, newId, incarnation);
      tx.commit();
    }
    // Others count the new row as alive from when they first read it, after this commit.
    heartbeatDeadlineNanos = start + settings.leaseNanos(period.millis());
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
    lease.drop();
    rejoinFrom = me;
    id = -1;
    notifyIfChanged();
  }

  /** A round of the loop, joining again first if this contender gave up its id. */
  private void nextRound() {
    try {
      if (id < 0) {
        join();
      }
      round();
    } catch (StorageException | RuntimeException e) {
      LOG.warn("leader election round of id {} failed: {}", id, e.toString());
      notifyIfChanged();
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
    Round round;
    try (Transaction tx = storage.begin()) {
      round = beat(tx, me, start);
      if (round == null || !commit(tx, me, start, round.census().period())) {
        return;
      }
    }
    ElectionRows.ClockRead clockRead = round.clockRead();
    clock.afterRound(storage, round.lead(), clockRead.published(), clockRead.readNanos());
    period.roundTook(System.nanoTime() - start);
    publishRound(me, start, round.census().alive(), round.leadership());
  }

  /** What a round read and decided, once its transaction committed. */
  private record Round(
      ContenderCensus.Census census,
      ElectionRows.Leadership leadership,
      ElectionRows.ClockRead clockRead) {
    boolean lead() {
      return leadership.lead();
    }
  }

  /**
   * The round's reads and writes, in its transaction: the census, the epoch step, my counter, the
   * clock step, a leader's evictions and the period; null if this contender was evicted.
   */
  private Round beat(Transaction tx, long me, long start) throws StorageException {
    ContenderCensus.Census view = census.take(tx, me, start);
    nextDeadlineNanos = view.nextDeadlineNanos();
    if (!view.present().contains(me)) {
      evicted();
      return null;
    }
    boolean continuing = lease.heldAt(start);
    ElectionRows.Leadership leadership = rows.epochStep(tx, me, view.alive(), continuing);
    if (!rows.advanceCounter(tx, me, incarnation)) {
      evicted();
      return null;
    }
    ElectionRows.ClockRead clockRead = clockStep(tx, me, leadership);
    if (leadership.lead()) {
      evictions.evict(me, view.dead());
    }
    period.raiseIfSlow(tx, me, view.period(), view.periodRow());
    return new Round(view, leadership, clockRead);
  }

  /**
   * Commits the round, unless this process stopped meanwhile; true if it committed before its
   * heartbeat deadline, which then moves on by the lease at {@code readPeriod}, the period the
   * round read.
   */
  private boolean commit(Transaction tx, long me, long start, long readPeriod)
      throws StorageException {
    sleep(injectedDelayMillis);
    if (loop.stopped()) {
      return false; // crashed or closed meanwhile: a dead process commits nothing
    }
    tx.commit();
    long committed = System.nanoTime();
    if (committed - heartbeatDeadlineNanos >= 0) {
      missedDeadline(me, committed - heartbeatDeadlineNanos);
      return false;
    }
    period.committed(readPeriod);
    heartbeatDeadlineNanos = start + settings.leaseNanos(readPeriod);
    return true;
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
   * After a committed round: the membership, the live incarnations and whether the leader is alive
   * as this round saw them; a leader's lease; the listeners told of a change.
   */
  private void publishRound(
      long me, long start, List<LeDescriptorRow> alive, ElectionRows.Leadership leadership) {
    long leaderNow = leadership.leaderId();
    membership = Membership.of(alive, leaderNow, leadership.leaderEpoch());
    incarnations.afterRound(alive, start);
    leaderAlive = leadership.lead() || census.advanced(leaderNow);
    lease.afterRound(me, leadership.lead(), leadership.leaderEpoch(), heartbeatDeadlineNanos);
    rounds++;
    notifyIfChanged();
  }

  private void evicted() {
    LOG.warn("namenode {} (id {}) was evicted from the election; it joins again", rpcAddress, id);
    lease.drop();
    id = -1;
    notifyIfChanged();
  }

  private void notifyIfChanged() {
    lease.notifyIfChanged(id);
  }

  /** Whether this contender leads now: elected in its last round, and that round's lease holds. */
  public boolean isLeader() {
    return lease.held();
  }

  /**
   * The end of the current lease on the monotonic clock ({@link System#nanoTime}); meaningful only
   * while {@link #isLeader()}. Tests record lease intervals with it.
   */
  public long leaseEndNanos() {
    return lease.endNanos();
  }

  /**
   * The epoch of this contender's leadership (the last one it held): it grows with every change of
   * leader, so datanodes can tell a newer leader from an older one.
   */
  public long epoch() {
    return lease.epoch();
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
    return period.millis();
  }

  public ClusterClock clock() {
    return clock;
  }

  public void recordLeases(LeaseRecorder recorder) {
    lease.record(recorder);
  }

  public void addListener(Listener l) {
    lease.addListener(l);
  }

  /**
   * Fences a leader-only transaction: fails unless this contender leads now and the database still
   * names it leader at its epoch. The epoch row is read with a shared lock, so a new leader's
   * takeover, which writes that row, waits for this transaction to end, and vice versa.
   */
  public void checkLeader(Transaction tx) throws StorageException {
    long myEpoch = lease.epoch();
    long me = id;
    if (!isLeader()) {
      throw new NotLeaderException("namenode id " + me + " is not the leader (lease not held)");
    }
    ElectionRows.checkStillLeader(tx, me, myEpoch);
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
    loop.stop();
    lease.drop();
    loop.interrupt();
  }

  /** Stops the rounds and leaves: the row goes, so the others need not wait for it to die. */
  @Override
  public void close() {
    loop.stop();
    lease.drop();
    loop.interrupt();
    try {
      loop.join(TimeUnit.SECONDS.toMillis(10));
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
}
