package io.hops.election;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leadership one contender holds: won in its last round, for as long as that round's lease
 * lasts (docs/architecture.md, "Leader election"), with the epoch it leads in. The lease recorder
 * sees each lease taken; the listeners are told when the leadership is gained or lost.
 *
 * <p>Leadership is a lease that starts when a successful round starts and lasts a little less than
 * the time after which the others declare a silent contender dead: a contender that stalls (GC,
 * slow database, a round longer than the period) stops leading before anyone else can be elected,
 * since others only count a counter as silent from the end of the round in which they read it. The
 * same bound is every contender's heartbeat deadline: a round that commits after the previous
 * round's lease would have ended may come after another contender declared this one dead and took
 * the lead on that, so the contender does not lead on it but joins again under a new id, as if
 * evicted. Each leadership has an epoch, bumped in the database by the new leader; leader-only
 * transactions call {@link LeaderElection#checkLeader}, which reads the epoch with a shared lock,
 * so a former leader that resumes after a pause cannot commit once another has taken over.
 *
 * <p>Why this is safe: the period in {@code variables} only grows, and a contender counts another
 * as dead after {@code missedHeartbeats} periods at the value it reads in that round, never less
 * than the value the other read before its last commit. So a round that started at {@code s} and
 * read period {@code p} cannot be followed by a declaration of death before {@code s + } {@link
 * ElectionSettings#leaseNanos(long) lease(p)} on the counter it wrote; and a declaration on the
 * counter of an earlier round is ruled out by the heartbeat deadline.
 */
final class LeaderLease {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final String rpcAddress;
  private final List<LeaderElection.Listener> listeners = new CopyOnWriteArrayList<>();
  private volatile LeaderElection.LeaseRecorder recorder = (id, epoch, start, end) -> {};
  private volatile boolean leading;
  private volatile long endNanos;
  private volatile long epoch;
  private boolean notifiedLeader;

  LeaderLease(String rpcAddress) {
    this.rpcAddress = rpcAddress;
  }

  /** Whether the leadership is held now: won in the last round, and that round's lease holds. */
  boolean held() {
    return leading && System.nanoTime() - endNanos < 0;
  }

  /** Whether a round started at {@code startNanos} continues a leadership whose lease held then. */
  boolean heldAt(long startNanos) {
    return leading && startNanos - endNanos < 0;
  }

  long endNanos() {
    return endNanos;
  }

  long epoch() {
    return epoch;
  }

  /**
   * After a committed round: led in epoch {@code leaderEpoch} until {@code leaseEndNanos} if {@code
   * lead}, else not leading.
   */
  void afterRound(long me, boolean lead, long leaderEpoch, long leaseEndNanos) {
    if (lead) {
      epoch = leaderEpoch;
      endNanos = leaseEndNanos;
      long now = System.nanoTime();
      if (endNanos - now > 0) { // a round that stalled past its lease grants nothing
        recorder.leased(me, leaderEpoch, now, endNanos);
      }
    }
    leading = lead;
  }

  /** Stops leading at once: evicted, a missed deadline, a crash or a close. */
  void drop() {
    leading = false;
  }

  void record(LeaderElection.LeaseRecorder recorder) {
    this.recorder = recorder;
  }

  void addListener(LeaderElection.Listener l) {
    listeners.add(l);
  }

  /** Tells the listeners if the leadership changed since they were last told; {@code id} logs. */
  synchronized void notifyIfChanged(long id) {
    boolean now = held();
    if (now != notifiedLeader) {
      notifiedLeader = now;
      LOG.info(
          now ? "namenode {} (id {}) is the leader, epoch {}" : "namenode {} (id {}) stops leading",
          rpcAddress,
          id,
          epoch);
      for (LeaderElection.Listener l : listeners) {
        l.leadershipChanged(now, epoch);
      }
    }
  }
}
