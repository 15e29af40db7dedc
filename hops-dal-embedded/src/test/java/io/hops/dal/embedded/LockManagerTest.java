package io.hops.dal.embedded;

import static io.hops.dal.LockMode.EXCLUSIVE;
import static io.hops.dal.LockMode.READ_COMMITTED;
import static io.hops.dal.LockMode.SHARED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LockManagerTest {
  /** Long enough that no test below times out by accident. */
  private static final long LONG_TIMEOUT_MILLIS = 10_000;

  private final LockManager locks = new LockManager(LONG_TIMEOUT_MILLIS);
  private final List<Attempt> attempts = new ArrayList<>();

  @AfterEach
  void stopStragglers() throws InterruptedException {
    for (Attempt attempt : attempts) {
      attempt.thread.interrupt();
      attempt.thread.join(2_000);
    }
  }

  @Test
  void sharedLocksAreGrantedTogether() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    locks.acquire(a, "k", SHARED);
    locks.acquire(b, "k", SHARED);

    assertThat(locks.heldCount(a)).isEqualTo(1);
    assertThat(locks.heldCount(b)).isEqualTo(1);
    assertThat(locks.lockedKeyCount()).isEqualTo(1);
  }

  @Test
  void aLockIsHeldUnderTheKeyItsFirstRequesterPassed() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    String first = new String("k");
    String equal = new String("k");
    assertThat(locks.acquire(a, first, SHARED)).isSameAs(first);
    assertThat(locks.acquire(b, equal, SHARED)).isSameAs(first);
    assertThat(locks.acquire(a, equal, SHARED)).isSameAs(first);
    assertThat(locks.acquire(a, equal, READ_COMMITTED)).isSameAs(equal); // no lock: no entry
    locks.releaseAll(a);
    locks.releaseAll(b);
    assertThat(locks.acquire(b, equal, EXCLUSIVE)).isSameAs(equal); // a new entry
  }

  @Test
  void sharedLockBlocksExclusiveUntilReleased() throws Exception {
    Object reader = owner("reader");
    Object writer = owner("writer");
    locks.acquire(reader, "k", SHARED);

    Attempt write = start(writer, "k", EXCLUSIVE).awaitBlocked();
    locks.releaseAll(reader);

    write.awaitGranted();
    assertThat(locks.heldCount(writer)).isEqualTo(1);
  }

  @Test
  void exclusiveLockBlocksSharedAndExclusive() throws Exception {
    Object writer = owner("writer");
    locks.acquire(writer, "k", EXCLUSIVE);

    Attempt read = start(owner("reader"), "k", SHARED).awaitBlocked();
    locks.releaseAll(writer);
    read.awaitGranted();

    Attempt write = start(owner("writer2"), "k", EXCLUSIVE).awaitBlocked();
    locks.releaseAll(read.owner);
    write.awaitGranted();
  }

  @Test
  void holderAskingForTheSameOrAWeakerModeReturnsAtOnce() throws Exception {
    Object a = owner("a");
    locks.acquire(a, "s", SHARED);
    locks.acquire(a, "s", SHARED);
    locks.acquire(a, "x", EXCLUSIVE);
    locks.acquire(a, "x", EXCLUSIVE);
    locks.acquire(a, "x", SHARED);
    locks.acquire(a, "x", READ_COMMITTED);

    assertThat(locks.heldCount(a)).isEqualTo(2);
    locks.releaseAll(a);
    assertThat(locks.lockedKeyCount()).isZero();
  }

  @Test
  void readCommittedTakesNoLockAndNeverBlocks() throws Exception {
    locks.acquire(owner("writer"), "k", EXCLUSIVE);
    Object reader = owner("reader");

    locks.acquire(reader, "k", READ_COMMITTED);

    assertThat(locks.heldCount(reader)).isZero();
  }

  @Test
  void soleSharedHolderUpgradesAtOnce() throws Exception {
    Object a = owner("a");
    locks.acquire(a, "k", SHARED);
    locks.acquire(a, "k", EXCLUSIVE);

    assertThat(locks.heldCount(a)).isEqualTo(1);
    start(owner("reader"), "k", SHARED).awaitBlocked();
  }

  @Test
  void upgradeWaitsForOtherSharersAndGoesAheadOfQueuedWriters() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    locks.acquire(a, "k", SHARED);
    locks.acquire(b, "k", SHARED);
    Attempt writer = start(owner("writer"), "k", EXCLUSIVE).awaitBlocked();

    // Queued behind the writer, the upgrade would deadlock with it; ahead of it, it just waits.
    Attempt upgrade = start(a, "k", EXCLUSIVE).awaitBlocked();
    locks.releaseAll(b);
    upgrade.awaitGranted();
    assertThat(writer.isDone()).isFalse();

    locks.releaseAll(a);
    writer.awaitGranted();
  }

  @Test
  void twoSharersUpgradingIsADeadlock() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    locks.acquire(a, "k", SHARED);
    locks.acquire(b, "k", SHARED);
    Attempt upgrade = start(a, "k", EXCLUSIVE).awaitBlocked();

    assertThatThrownBy(() -> locks.acquire(b, "k", EXCLUSIVE))
        .isInstanceOf(TransientStorageException.class)
        .hasMessageContaining("deadlock");
    assertThat(locks.heldCount(b)).isEqualTo(1);

    locks.releaseAll(b);
    upgrade.awaitGranted();
  }

  @Test
  void queuedExclusiveIsNotOvertakenByLaterShared() throws Exception {
    Object reader = owner("reader");
    locks.acquire(reader, "k", SHARED);
    Attempt writer = start(owner("writer"), "k", EXCLUSIVE).awaitBlocked();

    // Compatible with the holder, but a writer is queued first.
    Attempt lateReader = start(owner("late reader"), "k", SHARED).awaitBlocked();
    locks.releaseAll(reader);
    writer.awaitGranted();
    assertThat(lateReader.isDone()).isFalse();

    locks.releaseAll(writer.owner);
    lateReader.awaitGranted();
  }

  @Test
  void releaseGrantsTheCompatiblePrefixOfTheQueue() throws Exception {
    Object writer = owner("writer");
    locks.acquire(writer, "k", EXCLUSIVE);
    Attempt read1 = start(owner("r1"), "k", SHARED).awaitBlocked();
    Attempt read2 = start(owner("r2"), "k", SHARED).awaitBlocked();
    Attempt write = start(owner("w"), "k", EXCLUSIVE).awaitBlocked();
    Attempt read3 = start(owner("r3"), "k", SHARED).awaitBlocked();

    locks.releaseAll(writer);
    read1.awaitGranted();
    read2.awaitGranted();
    assertThat(write.isDone()).isFalse();
    assertThat(read3.isDone()).isFalse();

    locks.releaseAll(read1.owner);
    locks.releaseAll(read2.owner);
    write.awaitGranted();
    locks.releaseAll(write.owner);
    read3.awaitGranted();
    locks.releaseAll(read3.owner);
    assertThat(locks.lockedKeyCount()).isZero();
  }

  @Test
  void lockWaitTimesOutWithinBoundAndLeavesTheQueueClean() throws Exception {
    LockManager shortWait = new LockManager(1_000);
    Object reader = owner("reader");
    shortWait.acquire(reader, "k", SHARED);
    Attempt writer = start(shortWait, owner("writer"), "k", EXCLUSIVE).awaitBlocked();
    // Queued behind the writer; free to go once the writer gives up.
    Thread.sleep(300);
    Attempt lateReader = start(shortWait, owner("late reader"), "k", SHARED).awaitBlocked();

    Throwable failure = writer.awaitFailure();
    assertThat(failure)
        .isInstanceOf(TransientStorageException.class)
        .hasMessageContaining("lock wait timeout")
        .hasMessageContaining("on k");
    assertThat(writer.elapsedMillis()).isBetween(1_000L, 3_000L);
    lateReader.awaitGranted();

    shortWait.releaseAll(reader);
    shortWait.releaseAll(lateReader.owner);
    assertThat(shortWait.lockedKeyCount()).isZero();
    Object later = owner("later");
    shortWait.acquire(later, "k", EXCLUSIVE);
    shortWait.releaseAll(later);
    shortWait.releaseAll(writer.owner);
    assertThat(shortWait.lockedKeyCount()).isZero();
  }

  @Test
  void interruptedWaiterLeavesTheQueueAndKeepsTheFlag() throws Exception {
    Object reader = owner("reader");
    locks.acquire(reader, "k", SHARED);
    Attempt writer = start(owner("writer"), "k", EXCLUSIVE).awaitBlocked();
    Attempt lateReader = start(owner("late reader"), "k", SHARED).awaitBlocked();

    writer.thread.interrupt();

    assertThat(writer.awaitFailure()).isInstanceOf(TransientStorageException.class);
    assertThat(writer.interruptedAfterwards).isTrue();
    lateReader.awaitGranted();
    locks.releaseAll(reader);
    locks.releaseAll(lateReader.owner);
    assertThat(locks.lockedKeyCount()).isZero();
  }

  @Test
  void twoOwnerDeadlockFailsOneQuicklyAndLetsTheOtherThrough() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    CyclicBarrier bothHoldOneKey = new CyclicBarrier(2);
    CompletableFuture<Throwable> resultA = crossOver(a, "k1", "k2", bothHoldOneKey);
    CompletableFuture<Throwable> resultB = crossOver(b, "k2", "k1", bothHoldOneKey);
    long start = System.nanoTime();

    Throwable outcomeA = resultA.get(5, TimeUnit.SECONDS);
    Throwable outcomeB = resultB.get(5, TimeUnit.SECONDS);

    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);
    assertThat(outcomeA == null).isNotEqualTo(outcomeB == null); // exactly one victim
    Throwable victim = outcomeA != null ? outcomeA : outcomeB;
    assertThat(victim)
        .isInstanceOf(TransientStorageException.class)
        .hasMessageContaining("deadlock");
    Object winner = outcomeA == null ? a : b;
    assertThat(locks.heldCount(winner)).isEqualTo(2);
    locks.releaseAll(winner);
    assertThat(locks.lockedKeyCount()).isZero();
  }

  @Test
  void threeOwnerCycleIsDetected() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    Object c = owner("c");
    locks.acquire(a, "k1", EXCLUSIVE);
    locks.acquire(b, "k2", EXCLUSIVE);
    locks.acquire(c, "k3", SHARED);
    Attempt aWaits = start(a, "k2", SHARED).awaitBlocked();
    Attempt bWaits = start(b, "k3", EXCLUSIVE).awaitBlocked();

    long start = System.nanoTime();
    assertThatThrownBy(() -> locks.acquire(c, "k1", SHARED))
        .isInstanceOf(TransientStorageException.class)
        .hasMessageContaining("deadlock");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1_000);

    assertThat(locks.heldCount(c)).isEqualTo(1);
    locks.releaseAll(c);
    bWaits.awaitGranted();
    locks.releaseAll(b);
    aWaits.awaitGranted();
    locks.releaseAll(a);
    assertThat(locks.lockedKeyCount()).isZero();
  }

  @Test
  void waitingForAnEarlierQueuedWriterCountsInDeadlockDetection() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    locks.acquire(a, "k1", SHARED);
    locks.acquire(b, "k2", EXCLUSIVE);
    Attempt writer = start(owner("writer"), "k1", EXCLUSIVE).awaitBlocked();
    Attempt aWaits = start(a, "k2", SHARED).awaitBlocked();

    // b is compatible with a's shared lock on k1 but queues behind the writer, who waits for a.
    assertThatThrownBy(() -> locks.acquire(b, "k1", SHARED))
        .isInstanceOf(TransientStorageException.class)
        .hasMessageContaining("deadlock");

    locks.releaseAll(b);
    aWaits.awaitGranted();
    locks.releaseAll(a);
    writer.awaitGranted();
  }

  @Test
  void releaseAllIsIdempotent() throws Exception {
    Object a = owner("a");
    locks.acquire(a, "k1", SHARED);
    locks.acquire(a, "k2", EXCLUSIVE);

    locks.releaseAll(a);
    locks.releaseAll(a);
    locks.releaseAll(owner("never locked"));

    assertThat(locks.heldCount(a)).isZero();
    assertThat(locks.lockedKeyCount()).isZero();
  }

  @Test
  void releaseAllLeavesAPendingRequestOfTheOwnerWaiting() throws Exception {
    Object a = owner("a");
    Object b = owner("b");
    locks.acquire(a, "k1", SHARED);
    locks.acquire(b, "k2", EXCLUSIVE);
    Attempt aWaits = start(a, "k2", SHARED).awaitBlocked();

    locks.releaseAll(a);
    assertThat(locks.heldCount(a)).isZero();
    assertThat(aWaits.isDone()).isFalse();

    locks.releaseAll(b);
    aWaits.awaitGranted();
    assertThat(locks.heldCount(a)).isEqualTo(1);
    locks.releaseAll(a);
    assertThat(locks.lockedKeyCount()).isZero();
  }

  @Test
  void ownersAreComparedByIdentity() throws Exception {
    Transaction a = new Transaction("tx");
    Transaction b = new Transaction("tx");
    locks.acquire(a, "k", EXCLUSIVE);

    start(b, "k", SHARED).awaitBlocked();
  }

  /**
   * Random transactions over few keys, so deadlocks are frequent: every one must be detected (no
   * timeouts), exclusion must hold, and nothing may leak.
   */
  @Test
  void randomTransactionsKeepExclusionAndLeakNothing() throws Exception {
    int threads = 8;
    int acquiresPerThread = 2_000;
    int keys = 20;
    LockManager stressed = new LockManager(3_000);
    AtomicIntegerArray exclusiveHolders = new AtomicIntegerArray(keys);
    AtomicIntegerArray sharedHolders = new AtomicIntegerArray(keys);
    AtomicInteger violations = new AtomicInteger();
    AtomicInteger deadlocks = new AtomicInteger();
    ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();

    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker =
          new Thread(
              () -> {
                try {
                  int done = 0;
                  while (done < acquiresPerThread) {
                    done +=
                        runRandomTransaction(
                            stressed, keys, exclusiveHolders, sharedHolders, violations, deadlocks);
                  }
                } catch (Throwable e) {
                  unexpected.add(e);
                }
              },
              "stress-" + t);
      workers.add(worker);
      worker.start();
    }
    for (Thread worker : workers) {
      worker.join(8_000);
      assertThat(worker.isAlive()).as("%s finished", worker.getName()).isFalse();
    }

    assertThat(unexpected).isEmpty();
    assertThat(violations.get()).isZero();
    assertThat(deadlocks.get()).isPositive();
    assertThat(stressed.lockedKeyCount()).isZero();
  }

  /**
   * Runs one transaction of up to five random locks, retrying it as a deadlock victim would, and
   * returns the number of acquires attempted.
   */
  private static int runRandomTransaction(
      LockManager locks,
      int keys,
      AtomicIntegerArray exclusiveHolders,
      AtomicIntegerArray sharedHolders,
      AtomicInteger violations,
      AtomicInteger deadlocks) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int[] planKeys = new int[1 + random.nextInt(5)];
    LockMode[] planModes = new LockMode[planKeys.length];
    for (int i = 0; i < planKeys.length; i++) {
      planKeys[i] = random.nextInt(keys);
      planModes[i] = random.nextInt(3) == 0 ? EXCLUSIVE : SHARED;
    }
    int attempted = 0;
    while (true) {
      Object tx = new Object();
      Map<Integer, LockMode> held = new HashMap<>();
      try {
        for (int i = 0; i < planKeys.length; i++) {
          attempted++;
          locks.acquire(tx, planKeys[i], planModes[i]);
          if (!recordGrant(planKeys[i], planModes[i], held, exclusiveHolders, sharedHolders)) {
            violations.incrementAndGet();
          }
          LockSupport.parkNanos(1_000); // hold locks a little so that transactions overlap
        }
        return attempted;
      } catch (TransientStorageException e) {
        if (!e.getMessage().contains("deadlock")) {
          throw new AssertionError("only deadlocks are expected", e);
        }
        if (locks.heldCount(tx) == 0) {
          violations.incrementAndGet(); // nobody can wait for a transaction that holds nothing
        }
        deadlocks.incrementAndGet();
      } finally {
        held.forEach(
            (key, mode) ->
                (mode == EXCLUSIVE ? exclusiveHolders : sharedHolders).decrementAndGet(key));
        locks.releaseAll(tx);
        if (locks.heldCount(tx) != 0) {
          violations.incrementAndGet();
        }
      }
    }
  }

  /** Counts a granted lock against its key; false if that breaks mutual exclusion. */
  private static boolean recordGrant(
      int key,
      LockMode mode,
      Map<Integer, LockMode> held,
      AtomicIntegerArray exclusiveHolders,
      AtomicIntegerArray sharedHolders) {
    LockMode before = held.get(key);
    if (mode == EXCLUSIVE && before != EXCLUSIVE) {
      if (before == SHARED) {
        sharedHolders.decrementAndGet(key);
      }
      held.put(key, EXCLUSIVE);
      return exclusiveHolders.incrementAndGet(key) == 1 && sharedHolders.get(key) == 0;
    }
    if (before == null) {
      held.put(key, SHARED);
      return sharedHolders.incrementAndGet(key) >= 1 && exclusiveHolders.get(key) == 0;
    }
    return true; // re-entrant: nothing changes
  }

  /**
   * Takes {@code first}, waits for the other owner to take its key, then asks for {@code second}.
   */
  private CompletableFuture<Throwable> crossOver(
      Object owner, String first, String second, CyclicBarrier bothHoldOneKey) {
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                locks.acquire(owner, first, EXCLUSIVE);
                bothHoldOneKey.await(2, TimeUnit.SECONDS);
                locks.acquire(owner, second, EXCLUSIVE);
                outcome.complete(null);
              } catch (TransientStorageException e) {
                locks.releaseAll(owner); // the victim rolls back
                outcome.complete(e);
              } catch (Exception e) {
                outcome.completeExceptionally(e);
              }
            });
    thread.setDaemon(true);
    thread.start();
    return outcome;
  }

  /** A transaction handle whose {@code equals} says nothing about identity. */
  private record Transaction(String name) {}

  private static Object owner(String name) {
    return new Object() {
      @Override
      public String toString() {
        return name;
      }
    };
  }

  private Attempt start(Object owner, Object key, LockMode mode) {
    return start(locks, owner, key, mode);
  }

  private Attempt start(LockManager manager, Object owner, Object key, LockMode mode) {
    Attempt attempt = new Attempt(manager, owner, key, mode);
    attempts.add(attempt);
    return attempt;
  }

  /** One {@code acquire} running in its own thread. */
  private static final class Attempt {
    final Object owner;
    final Thread thread;
    final CompletableFuture<Void> result = new CompletableFuture<>();
    private final long startNanos = System.nanoTime();
    private volatile long endNanos;
    volatile boolean interruptedAfterwards;

    Attempt(LockManager locks, Object owner, Object key, LockMode mode) {
      this.owner = owner;
      this.thread =
          new Thread(
              () -> {
                try {
                  locks.acquire(owner, key, mode);
                  endNanos = System.nanoTime();
                  result.complete(null);
                } catch (Throwable e) {
                  endNanos = System.nanoTime();
                  interruptedAfterwards = Thread.currentThread().isInterrupted();
                  result.completeExceptionally(e);
                }
              },
              "acquire " + owner + " " + key + " " + mode);
      thread.setDaemon(true);
      thread.start();
    }

    /** Returns once the request is parked in the lock manager's queue. */
    Attempt awaitBlocked() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      while (thread.getState() != Thread.State.TIMED_WAITING) {
        if (result.isDone()) {
          fail("expected %s to block, but it finished", thread.getName());
        }
        if (System.nanoTime() > deadline) {
          fail("%s did not block within 2 s", thread.getName());
        }
        Thread.sleep(1);
      }
      return this;
    }

    void awaitGranted() throws Exception {
      result.get(2, TimeUnit.SECONDS);
    }

    Throwable awaitFailure() throws InterruptedException, TimeoutException {
      try {
        result.get(5, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        return e.getCause();
      }
      throw new AssertionError(thread.getName() + " was granted");
    }

    boolean isDone() {
      return result.isDone();
    }

    long elapsedMillis() {
      return TimeUnit.NANOSECONDS.toMillis(endNanos - startNanos);
    }
  }
}
