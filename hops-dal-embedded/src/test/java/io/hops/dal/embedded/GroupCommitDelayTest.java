package io.hops.dal.embedded;

import static io.hops.dal.embedded.WalSyncTest.insertDeferred;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.VariableRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group sync's delay: before a sync it waits for transactions that hold an exclusive lock to
 * commit too, at most the delay, and not at all when no other writer runs; under load it first
 * waits for commits on their way.
 */
class GroupCommitDelayTest {
  @TempDir Path dir;

  private final AtomicInteger syncs = new AtomicInteger();

  @AfterEach
  void clear() {
    WalSyncFaults.clear();
  }

  /** While set, each sync of the store waits for a permit of {@link #held} once it has begun. */
  private volatile boolean holding;

  private final Semaphore held = new Semaphore(0);
  private final Semaphore begun = new Semaphore(0);

  private Storage open(long delayMicros) throws Exception {
    return open(delayMicros, 0);
  }

  private Storage open(long delayMicros, long waitMicros) throws Exception {
    Storage s =
        Storages.open(
            DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString()))
                .with(HopsConfig.EMBEDDED_GROUP_COMMIT_DELAY_MICROS, delayMicros)
                .with(HopsConfig.EMBEDDED_GROUP_COMMIT_WAIT_MICROS, waitMicros)
                .with(HopsConfig.LOCK_WAIT_TIMEOUT_MS, 500));
    s.schema().createOrUpgrade();
    String store = dir.toAbsolutePath().normalize().toString();
    WalSyncFaults.inject(
        name -> {
          if (name.equals(store)) {
            syncs.incrementAndGet();
            if (holding) {
              begun.release();
              held.acquireUninterruptibly();
            }
          }
        });
    return s;
  }

  /**
   * Syncs of {@code commits} commits each, {@code groups} times over: each group's commits wait
   * while the sync before them is held. Ten groups of four are load: the recent syncs covered more
   * than {@link WalSync#LOADED_GROUP} commits each.
   */
  private void syncsOf(Storage s, int groups, int commits) throws Exception {
    holding = true;
    List<CompletableFuture<Void>> all = new ArrayList<>();
    all.add(insertDeferred(s, "before"));
    assertThat(begun.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
    for (int group = 0; group < groups; group++) {
      for (int i = 0; i < commits; i++) {
        all.add(insertDeferred(s, "group-" + group + "-" + i));
      }
      held.release(); // the held sync ends; the next one takes this group
      assertThat(begun.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
    }
    holding = false;
    held.release();
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
  }

  private void load(Storage s) throws Exception {
    syncsOf(s, 10, 4);
  }

  /** A transaction that holds an exclusive lock on a row of its own: a writer that runs. */
  private static Transaction runningWriter(Storage s, String row) throws StorageException {
    Transaction tx = s.begin();
    tx.find(VariableRow.TABLE, VariableRow.TABLE.key(row), LockMode.EXCLUSIVE);
    return tx;
  }

  private static WalSync walSync(Storage s) {
    return ((EmbeddedStorage) s).store().walSync();
  }

  @Test
  void aSyncWaitsForARunningWriterSoThatOneSyncCoversBoth() throws Exception {
    try (Storage s = open(TimeUnit.SECONDS.toMicros(30))) {
      Transaction writer = runningWriter(s, "writer");
      syncs.set(0);
      CompletableFuture<Void> first = insertDeferred(s, "first");
      Thread.sleep(300);
      assertThat(first).as("waits for the running writer").isNotDone();
      writer.insert(VariableRow.TABLE, new VariableRow("writer", 2, null));
      CompletableFuture<Void> second = writer.commitDeferred().toCompletableFuture();
      CompletableFuture.allOf(first, second).get(10, TimeUnit.SECONDS);
      assertThat(syncs.get()).as("one sync for both commits").isEqualTo(1);
      assertThat(walSync(s).delayedSyncs()).isEqualTo(1);
    }
  }

  @Test
  void aWriterThatRollsBackEndsTheWait() throws Exception {
    try (Storage s = open(TimeUnit.SECONDS.toMicros(30))) {
      Transaction writer = runningWriter(s, "writer");
      CompletableFuture<Void> first = insertDeferred(s, "first");
      Thread.sleep(200);
      assertThat(first).isNotDone();
      writer.close();
      first.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCommitWithNoOtherWriterRunningIsSyncedAtOnce() throws Exception {
    try (Storage s = open(TimeUnit.SECONDS.toMicros(30))) {
      // A reader runs meanwhile: it holds shared locks only, and no commit of it is waited for.
      try (Transaction reader = s.begin()) {
        reader.find(VariableRow.TABLE, VariableRow.TABLE.key("first"), LockMode.SHARED);
        long start = System.nanoTime();
        for (int i = 0; i < 20; i++) {
          insertDeferred(s, "lone-" + i).get(10, TimeUnit.SECONDS);
        }
        // Twenty commits one after the other, far from twenty delays of 30 s; and no sync waited,
        // not even for the committing transaction itself.
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(8));
        assertThat(walSync(s).delayedSyncs()).isZero();
      }
    }
  }

  @Test
  void theWaitForAWriterThatDoesNotCommitEndsAfterTheDelay() throws Exception {
    try (Storage s = open(TimeUnit.MILLISECONDS.toMicros(400))) {
      try (Transaction writer = runningWriter(s, "writer")) {
        long start = System.nanoTime();
        CompletableFuture<Void> first = insertDeferred(s, "first");
        first.get(10, TimeUnit.SECONDS);
        assertThat(System.nanoTime() - start).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(350));
        assertThat(writer.find(VariableRow.TABLE, VariableRow.TABLE.key("first"), LockMode.SHARED))
            .isNotNull();
      }
    }
  }

  @Test
  void underLoadASyncFirstWaitsForCommitsOnTheirWay() throws Exception {
    try (Storage s = open(TimeUnit.SECONDS.toMicros(30), TimeUnit.SECONDS.toMicros(1))) {
      load(s);
      int before = syncs.get();
      long start = System.nanoTime();
      // No writer runs when the first commit waits: only the load makes its sync wait.
      CompletableFuture<Void> first = insertDeferred(s, "first");
      Thread.sleep(100);
      CompletableFuture<Void> second = insertDeferred(s, "second");
      CompletableFuture.allOf(first, second).get(10, TimeUnit.SECONDS);
      assertThat(syncs.get() - before).as("one sync for both commits").isEqualTo(1);
      assertThat(System.nanoTime() - start).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(900));
    }
  }

  @Test
  void theWaitStopsOnceTheLoadIsGone() throws Exception {
    try (Storage s = open(TimeUnit.SECONDS.toMicros(30), TimeUnit.MILLISECONDS.toMicros(50))) {
      load(s);
      long waitedBefore = walSync(s).delayedSyncs();
      for (int i = 0; i < 15; i++) {
        insertDeferred(s, "alone-" + i).get(10, TimeUnit.SECONDS);
      }
      long waitedAlone = walSync(s).delayedSyncs() - waitedBefore;
      assertThat(waitedAlone).as("the first lone commits still see the load").isPositive();
      assertThat(waitedAlone).as("then they no longer wait").isLessThan(15);
      long settled = walSync(s).delayedSyncs();
      for (int i = 0; i < 5; i++) {
        insertDeferred(s, "settled-" + i).get(10, TimeUnit.SECONDS);
      }
      assertThat(walSync(s).delayedSyncs()).isEqualTo(settled);
    }
  }

  @Test
  void twoClientsAreNeverKeptWaiting() throws Exception {
    try (Storage s = open(TimeUnit.SECONDS.toMicros(30), TimeUnit.SECONDS.toMicros(2))) {
      // Two clients' commits: at most two per sync, with no writer running when a sync begins.
      syncsOf(s, 20, 2);
      assertThat(walSync(s).delayedSyncs()).isZero();
    }
  }

  @Test
  void noDelayWhenItIsOff() throws Exception {
    try (Storage s = open(0)) {
      try (Transaction writer = runningWriter(s, "writer")) {
        insertDeferred(s, "first").get(2, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void everyWriterIsCountedOutWhateverEndsIt() throws Exception {
    try (Storage s = open(TimeUnit.MILLISECONDS.toMicros(50))) {
      insertDeferred(s, "committed").get(10, TimeUnit.SECONDS);
      try (Transaction tx = s.begin()) {
        tx.insert(VariableRow.TABLE, new VariableRow("blocking", 1, null));
        tx.commit();
      }
      try (Transaction rolledBack = runningWriter(s, "rolled-back")) {
        assertThat(walSync(s).writers()).isEqualTo(1);
      }
      try (Transaction holder = runningWriter(s, "held");
          Transaction waiter = s.begin()) {
        assertThatThrownBy(
                () ->
                    waiter.find(
                        VariableRow.TABLE, VariableRow.TABLE.key("held"), LockMode.EXCLUSIVE))
            .isInstanceOf(TransientStorageException.class);
        // The second writer's lock wait timed out, which rolled it back: only the holder runs.
        assertThat(walSync(s).writers()).isEqualTo(1);
      }
      try (Transaction reader = s.begin()) {
        reader.find(VariableRow.TABLE, VariableRow.TABLE.key("committed"), LockMode.SHARED);
        assertThat(walSync(s).writers()).isZero();
      }
      assertThat(walSync(s).writers()).isZero();
    }
  }
}
