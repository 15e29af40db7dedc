package io.hops.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The election's promises, with five contenders in one JVM over one database: at no instant do two
 * contenders hold the lease, whatever stalls and slow rounds are injected; after the leader dies a
 * new one acts within period x (missed heartbeats + 1); slow rounds raise the period for everyone;
 * ids are never reused; a paused former leader cannot pass the fence.
 */
abstract class LeaderElectionTestBase {
  static final Duration PERIOD = Duration.ofMillis(300);
  static final int MISSED = 2;
  static final ElectionSettings SETTINGS =
      new ElectionSettings(PERIOD, MISSED, Duration.ofMillis(3000));

  /** One lease a contender took: it could act as leader from start to end (monotonic nanos). */
  record Lease(long id, long epoch, long start, long end) {}

  private final List<LeaderElection> contenders = new ArrayList<>();
  private final List<Lease> leases = Collections.synchronizedList(new ArrayList<>());
  private Storage storage;

  /** A fresh, empty, formatted database. */
  abstract Storage openEmpty() throws Exception;

  @BeforeEach
  void open() throws Exception {
    storage = openEmpty();
  }

  @AfterEach
  void close() {
    contenders.forEach(LeaderElection::close);
    if (storage != null) {
      storage.close();
    }
  }

  private LeaderElection contender(int n) throws StorageException {
    LeaderElection e =
        new LeaderElection(
            storage, SETTINGS, "host" + n, "127.0.0.1:" + (9000 + n), "127.0.0.1:" + (9100 + n));
    e.recordLeases((id, epoch, start, end) -> leases.add(new Lease(id, epoch, start, end)));
    e.start();
    contenders.add(e);
    return e;
  }

  @Test
  void aloneInAnEmptyDatabaseLeadsAtOnce() throws Exception {
    LeaderElection first = contender(0);
    assertThat(first.isLeader()).isTrue();
    assertThat(first.epoch()).isEqualTo(1);
    assertThat(first.membership().members()).hasSize(1);
    assertThat(first.membership().leader().rpcAddress()).isEqualTo("127.0.0.1:9000");
  }

  @Test
  void theSmallestLiveIdLeadsAndEveryoneSeesTheSameMembers() throws Exception {
    for (int i = 0; i < 5; i++) {
      contender(i);
    }
    waitRounds(3);
    LeaderElection leader = contenders.get(0);
    assertThat(leader.isLeader()).isTrue();
    for (LeaderElection c : contenders.subList(1, 5)) {
      assertThat(c.isLeader()).isFalse();
      assertThat(c.membership().ids()).isEqualTo(leader.membership().ids());
      assertThat(c.membership().leaderId()).isEqualTo(leader.id());
    }
    assertThat(leader.membership().ids()).hasSize(5).isSorted();
  }

  @Test
  void stallsAndSlowRoundsNeverGiveTwoLeasesAtOnce() throws Exception {
    for (int i = 0; i < 5; i++) {
      contender(i);
    }
    Random random = new Random(42);
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
    int stalls = 0;
    while (System.nanoTime() < end) {
      LeaderElection victim = leaderNow();
      if (victim == null || random.nextBoolean()) {
        victim = contenders.get(random.nextInt(contenders.size()));
      }
      // A stall longer than the period (a GC pause, a slow database), or a merely slow round.
      long stallMillis =
          random.nextInt(3) == 0
              ? PERIOD.toMillis() * 2 / 3
              : PERIOD.toMillis() * (2 + random.nextInt(4));
      victim.injectRoundDelay(Duration.ofMillis(stallMillis));
      Thread.sleep(stallMillis + random.nextInt((int) PERIOD.toMillis()));
      victim.injectRoundDelay(Duration.ZERO);
      stalls++;
      Thread.sleep(random.nextInt((int) PERIOD.toMillis() * 3));
    }
    assertThat(stalls).isGreaterThan(5);
    List<Lease> all = leasesSoFar();
    assertThat(all.stream().map(Lease::id).distinct().count())
        .as("leadership moved at least once")
        .isGreaterThan(1);
    assertNoTwoAtOnce(all);
    // Epochs only grow with time.
    all.sort((x, y) -> Long.compare(x.start(), y.start()));
    for (int i = 1; i < all.size(); i++) {
      assertThat(all.get(i).epoch()).isGreaterThanOrEqualTo(all.get(i - 1).epoch());
    }
  }

  /**
   * The leader stalls in a round long enough for the other to declare it dead and take over; when
   * its round commits at last, before the new leader's eviction of its row (slow here), it must not
   * lead again under its old, smallest id while the other's lease runs: it joins again under a new
   * id and the other keeps leading.
   */
  @Test
  void aLeaderWhoseRoundCommitsAfterItsDeadlineJoinsAgainInsteadOfLeading() throws Exception {
    LeaderElection a = contender(0);
    LeaderElection b = contender(1);
    b.injectEvictionDelay(Duration.ofSeconds(30));
    waitRounds(2);
    long oldId = a.id();
    assertThat(a.isLeader()).isTrue();
    a.injectRoundDelay(Duration.ofMillis(PERIOD.toMillis() * 5));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!b.isLeader() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(b.isLeader()).isTrue();
    a.injectRoundDelay(Duration.ZERO);
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (a.id() == oldId && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    waitRounds(3);
    assertThat(a.id()).isGreaterThan(b.id());
    assertThat(b.isLeader()).isTrue();
    assertThat(a.isLeader()).isFalse();
    assertThat(b.membership().ids()).containsExactly(b.id(), a.id());
    assertNoTwoAtOnce(leasesSoFar());
  }

  @Test
  void aNewLeaderActsWithinPeriodTimesMissedPlusOneAfterTheLeaderDies() throws Exception {
    for (int i = 0; i < 3; i++) {
      contender(i);
    }
    for (int run = 0; run < 3; run++) {
      waitRounds(3);
      LeaderElection old = leaderNow();
      assertThat(old).isNotNull();
      long oldEpoch = old.epoch();
      long died = System.nanoTime();
      old.crash();
      LeaderElection next = null;
      while (next == null && System.nanoTime() - died < TimeUnit.SECONDS.toNanos(10)) {
        next = leaderNow();
        Thread.sleep(5);
      }
      long tookMillis = (System.nanoTime() - died) / 1_000_000L;
      assertThat(next).isNotNull();
      assertThat(next.epoch()).isGreaterThan(oldEpoch);
      // The bound of the issue, with the period in force (slow rounds on a busy machine raise it
      // for everyone), plus a little for thread scheduling (150 ms was once not enough at a load
      // average of 20 on 2 cores: 1,087 ms against 1,050).
      long period = Math.max(PERIOD.toMillis(), next.periodMillis());
      assertThat(tookMillis).isLessThanOrEqualTo(period * (MISSED + 1) + 300);
      contenders.remove(old);
      contender(10 + run);
    }
  }

  @Test
  void slowRoundsRaiseThePeriodForEveryone() throws Exception {
    LeaderElection leader = contender(0);
    LeaderElection other = contender(1);
    leader.injectRoundDelay(Duration.ofMillis(PERIOD.toMillis() * 2 / 3));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (other.periodMillis() <= PERIOD.toMillis() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(other.periodMillis()).isGreaterThan(PERIOD.toMillis());
    assertThat(leader.isLeader() || other.isLeader()).isTrue();
  }

  @Test
  void anEvictedContenderJoinsAgainWithANewIdAndIdsAreNeverReused() throws Exception {
    LeaderElection a = contender(0);
    LeaderElection b = contender(1);
    long oldId = b.id();
    b.injectRoundDelay(Duration.ofMillis(PERIOD.toMillis() * 4));
    // Under load every round is slow and the period grows for everyone: the eviction can take a
    // few periods more than on an idle machine (once, at load 20, more than 10 s).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while ((b.id() == oldId || b.id() < 0) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    b.injectRoundDelay(Duration.ZERO);
    assertThat(b.id()).isGreaterThan(oldId);
    waitRounds(3);
    assertThat(a.membership().ids()).containsExactly(a.id(), b.id());
  }

  /**
   * A dead contender's incarnation is missing from the others' views from the first round that no
   * longer counts it alive, and that time stays put round after round: callers judge an absence by
   * it rather than by their own samples. A live incarnation and one never seen have no such time.
   */
  @Test
  void theOthersRecordWhenADeadContendersIncarnationWentMissing() throws Exception {
    LeaderElection a = contender(0);
    LeaderElection b = contender(1);
    waitRounds(2);
    long gone = b.incarnation();
    assertThat(a.liveIncarnations()).contains(gone);
    assertThat(a.goneSince(gone)).isEmpty();
    long crashed = System.nanoTime();
    b.crash();
    contenders.remove(b);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (a.liveIncarnations().contains(gone) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(a.liveIncarnations()).doesNotContain(gone);
    long since = a.goneSince(gone).orElseThrow();
    assertThat(since).isGreaterThan(crashed);
    waitRounds(3);
    assertThat(a.goneSince(gone)).hasValue(since);
    assertThat(a.goneSince(a.incarnation())).isEmpty();
    assertThat(a.goneSince(gone + 1_000)).isEmpty();
  }

  @Test
  void aFormerLeaderCannotPassTheFenceAfterAnotherTookOver() throws Exception {
    LeaderElection a = contender(0);
    LeaderElection b = contender(1);
    waitRounds(2);
    try (Transaction tx = storage.begin()) {
      a.checkLeader(tx); // leads now
      tx.commit();
    }
    // a pauses for longer than its lease; b takes over.
    a.injectRoundDelay(Duration.ofMillis(PERIOD.toMillis() * 5));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!b.isLeader() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(b.isLeader()).isTrue();
    try (Transaction tx = storage.begin()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.checkLeader(tx))
          .isInstanceOf(NotLeaderException.class);
    }
    try (Transaction tx = storage.begin()) {
      b.checkLeader(tx);
    }
  }

  private List<Lease> leasesSoFar() {
    synchronized (leases) {
      return new ArrayList<>(leases);
    }
  }

  private static void assertNoTwoAtOnce(List<Lease> all) {
    for (Lease a : all) {
      for (Lease b : all) {
        if (a.id() != b.id()) {
          assertThat(a.end() <= b.start() || b.end() <= a.start())
              .as("leases of %s and %s overlap", a, b)
              .isTrue();
        }
      }
    }
  }

  private LeaderElection leaderNow() {
    for (LeaderElection c : contenders) {
      if (c.isLeader()) {
        return c;
      }
    }
    return null;
  }

  private void waitRounds(int n) throws InterruptedException {
    for (LeaderElection c : new ArrayList<>(contenders)) {
      long target = c.rounds() + n;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (c.rounds() < target && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }
  }
}
