package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * When locks cannot be had: a wait longer than the configured timeout fails with a retryable error
 * within the bound, a deadlock is detected (not timed out) and costs exactly one of the two
 * transactions, and the failed transaction is rolled back with its locks released.
 */
public abstract class LockFailureKit extends DalKit {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private static final long TIMEOUT_MILLIS = 1000;

  /** MySQL rounds the timeout up to whole seconds; slow machines add some more. */
  private static final long LOWEST_MILLIS = 900;

  private static final long HIGHEST_MILLIS = 5000;

  @Test
  public void lockWaitLongerThanTheTimeoutFailsTransientlyWithinTheBound() throws Exception {
    Storage s = openStorageWithLockWaitTimeout(TIMEOUT_MILLIS);
    InodeRow x = inode(1);
    insertCommitted(s, T, x);
    TxThread holder = onThread("holder", s);
    TxThread waiter = onThread("waiter", s);
    holder.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    assertTimesOut(waiter, tx -> tx.find(T, key(x), LockMode.SHARED));
    holder.commit();
  }

  @Test
  public void batchedReadAndPartitionScanWaitingLongerThanTheTimeoutFailTransiently()
      throws Exception {
    Storage s = openStorageWithLockWaitTimeout(TIMEOUT_MILLIS);
    InodeRow x = inode(1);
    InodeRow y = inode(2);
    insertCommitted(s, T, x, y);
    TxThread holder = onThread("holder", s);
    holder.call(tx -> tx.find(T, key(y), LockMode.SHARED));
    TxThread batch = onThread("batch", s);
    assertTimesOut(batch, tx -> tx.findBatch(T, List.of(key(x), key(y)), LockMode.EXCLUSIVE));
    TxThread scan = onThread("scan", s);
    assertTimesOut(scan, tx -> tx.findByPartition(T, y.partitionId(), LockMode.EXCLUSIVE));
    holder.commit();
  }

  @Test
  public void updateWaitingLongerThanTheTimeoutFailsAtCommitAndWritesNothing() throws Exception {
    Storage s = openStorageWithLockWaitTimeout(TIMEOUT_MILLIS);
    InodeRow x = inode(1);
    insertCommitted(s, T, x);
    TxThread holder = onThread("holder", s);
    TxThread writer = onThread("writer", s);
    holder.call(tx -> tx.find(T, key(x), LockMode.SHARED));
    writer.run(tx -> tx.insert(T, inode(2)));
    writer.run(tx -> tx.update(T, changed(x)));
    assertTimesOut(
        writer,
        tx -> {
          tx.commit();
          return null;
        });
    holder.commit();
    assertThat(readAll(s, T)).containsExactly(cells(T, x));
  }

  @Test
  public void timedOutTransactionIsRolledBackAndItsLocksAreReleased() throws Exception {
    Storage s = openStorageWithLockWaitTimeout(TIMEOUT_MILLIS);
    InodeRow x = inode(1);
    InodeRow y = inode(2);
    insertCommitted(s, T, x, y);
    TxThread holder = onThread("holder", s);
    TxThread loser = onThread("loser", s);
    holder.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    loser.call(tx -> tx.find(T, key(y), LockMode.EXCLUSIVE));
    loser.run(tx -> tx.update(T, changed(y)));
    loser.run(tx -> tx.insert(T, inode(3)));
    assertTimesOut(loser, tx -> tx.find(T, key(x), LockMode.SHARED));
    assertThatThrownBy(() -> loser.call(tx -> tx.find(T, key(y), LockMode.READ_COMMITTED)))
        .as("a transaction that failed is unusable")
        .isInstanceOf(IllegalStateException.class);
    // A third transaction gets what the loser held, within less than one timeout.
    TxThread third = onThread("third", s);
    long start = System.nanoTime();
    assertThat(cells(T, third.call(tx -> tx.find(T, key(y), LockMode.EXCLUSIVE))))
        .isEqualTo(cells(T, y));
    assertThat(millisSince(start)).isLessThan(LOWEST_MILLIS);
    third.commit();
    holder.run(tx -> tx.update(T, changed(x)));
    holder.commit();
    assertThat(readAll(s, T)).isEqualTo(Cells.inKeyOrder(T, List.of(changed(x), y)));
  }

  @Test
  public void deadlockIsDetectedQuicklyAndExactlyOneOfTheTwoTransactionsCommits() throws Exception {
    Storage s = openStorageWithLockWaitTimeout(20_000);
    InodeRow a = inode(1);
    InodeRow b = inode(2);
    insertCommitted(s, T, a, b);
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(a), LockMode.EXCLUSIVE));
    t2.call(tx -> tx.find(T, key(b), LockMode.EXCLUSIVE));
    long start = System.nanoTime();
    CompletableFuture<InodeRow> first = t1.start(tx -> tx.find(T, key(b), LockMode.EXCLUSIVE));
    assertStillWaiting(first, "T1's read of the row T2 holds");
    CompletableFuture<InodeRow> second = t2.start(tx -> tx.find(T, key(a), LockMode.EXCLUSIVE));
    List<TxThread> winners = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (TxThread t : List.of(t1, t2)) {
      Throwable failure = catchThrowable(() -> awaitPromptly(t == t1 ? first : second));
      if (failure == null) {
        winners.add(t);
      } else {
        failures.add(failure);
      }
    }
    assertThat(millisSince(start)).as("detection, not the 20 s timeout").isLessThan(HIGHEST_MILLIS);
    assertThat(failures).hasSize(1);
    assertThat(failures.get(0)).isInstanceOf(TransientStorageException.class);
    assertThat(winners).hasSize(1);
    TxThread winner = winners.get(0);
    winner.run(
        tx -> {
          tx.update(T, changed(a));
          tx.update(T, changed(b));
        });
    winner.commit();
    assertThat(readAll(s, T)).isEqualTo(Cells.inKeyOrder(T, List.of(changed(a), changed(b))));
  }

  /** The call fails with a retryable error after about the configured timeout. */
  private static void assertTimesOut(TxThread t, TxThread.TxCall<?> call) {
    long start = System.nanoTime();
    CompletableFuture<?> waiting = t.start(call);
    Throwable failure = catchThrowable(() -> TxThread.await(waiting, HIGHEST_MILLIS / 1000 + 5));
    long elapsed = millisSince(start);
    assertThat(failure)
        .as("a lock wait longer than %s ms", TIMEOUT_MILLIS)
        .isInstanceOf(TransientStorageException.class);
    assertThat(elapsed)
        .as("time until the wait failed, with a %s ms timeout", TIMEOUT_MILLIS)
        .isBetween(LOWEST_MILLIS, HIGHEST_MILLIS);
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static InodeRow inode(int seed) {
    InodeRow r = SampleRows.inPartition(T, SampleRows.typical(T, seed), 5L);
    return SampleRows.with(T, r, "parent_id", 5L);
  }

  private static InodeRow changed(InodeRow r) {
    InodeRow other = SampleRows.withKeyOf(T, SampleRows.typical(T, 100 + r.id()), r);
    return SampleRows.with(T, other, "id", r.id());
  }

  private static Key key(InodeRow r) {
    return T.keyOf(r);
  }
}
