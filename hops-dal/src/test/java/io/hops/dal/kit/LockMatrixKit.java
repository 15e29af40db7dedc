package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The lock matrix with real concurrent transactions, each on a thread of its own: shared locks
 * coexist, exclusive locks exclude every other locking reader and writer until commit or rollback,
 * a waiter then sees the committed value, and read-committed reads never wait and never see
 * uncommitted writes. Covers primary-key reads, batched reads and partition scans.
 */
public abstract class LockMatrixKit extends DalKit {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private static final long P = 10;
  private static final long Q = 20;

  private Storage s;
  private InodeRow x;
  private InodeRow y;
  private InodeRow z;

  @BeforeEach
  public void populate() throws Exception {
    s = openStorageWithLockWaitTimeout(10_000);
    x = inode(P, "x", 1);
    y = inode(P, "y", 2);
    z = inode(Q, "z", 3);
    insertCommitted(s, T, x, y, z);
  }

  @Test
  public void sharedLocksOfTwoTransactionsProceedTogether() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.SHARED));
    t1.call(tx -> tx.findByPartition(T, P, LockMode.SHARED));
    assertThat(cells(T, t2.call(tx -> tx.find(T, key(x), LockMode.SHARED)))).isEqualTo(cells(T, x));
    assertThat(
            Cells.ofAll(
                T, t2.call(tx -> tx.findBatch(T, List.of(key(x), key(y)), LockMode.SHARED))))
        .containsExactly(cells(T, x), cells(T, y));
    assertThat(Cells.ofAll(T, t2.call(tx -> tx.findByPartition(T, P, LockMode.SHARED))))
        .containsExactly(cells(T, x), cells(T, y));
    t1.commit();
    t2.commit();
  }

  @Test
  public void exclusiveLocksOfDifferentRowsProceedTogether() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    t1.call(tx -> tx.findByPartition(T, P, LockMode.EXCLUSIVE));
    assertThat(cells(T, t2.call(tx -> tx.find(T, key(z), LockMode.EXCLUSIVE))))
        .isEqualTo(cells(T, z));
    assertThat(Cells.ofAll(T, t2.call(tx -> tx.findByPartition(T, Q, LockMode.EXCLUSIVE))))
        .containsExactly(cells(T, z));
    assertThat(Cells.ofAll(T, t2.call(tx -> tx.findBatch(T, List.of(key(z)), LockMode.EXCLUSIVE))))
        .containsExactly(cells(T, z));
    t2.run(tx -> tx.update(T, changed(z)));
    t2.commit();
    t1.commit();
    assertThat(cells(T, readCommitted(s, T, key(z)))).isEqualTo(cells(T, changed(z)));
  }

  @Test
  public void sharedLockBlocksAnExclusiveReaderUntilCommit() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.SHARED));
    CompletableFuture<InodeRow> read = t2.start(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    assertStillWaiting(read, "T2's exclusive read of a row T1 holds shared");
    t1.commit();
    assertThat(cells(T, awaitPromptly(read))).isEqualTo(cells(T, x));
    t2.commit();
  }

  @ParameterizedTest
  @EnumSource(
      value = LockMode.class,
      names = {"SHARED", "EXCLUSIVE"})
  public void exclusiveLockBlocksALockingReaderUntilCommitThenItSeesTheCommittedValue(LockMode mode)
      throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    t1.run(tx -> tx.update(T, changed(x)));
    CompletableFuture<InodeRow> read = t2.start(tx -> tx.find(T, key(x), mode));
    assertStillWaiting(read, "T2's " + mode + " read of a row T1 holds exclusive");
    t1.commit();
    assertThat(cells(T, awaitPromptly(read))).isEqualTo(cells(T, changed(x)));
    t2.commit();
  }

  @ParameterizedTest
  @EnumSource(
      value = LockMode.class,
      names = {"SHARED", "EXCLUSIVE"})
  public void exclusiveLockBlocksABatchedLockingReadUntilCommit(LockMode mode) throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(y), LockMode.EXCLUSIVE));
    t1.run(tx -> tx.update(T, changed(y)));
    CompletableFuture<List<InodeRow>> batch =
        t2.start(tx -> tx.findBatch(T, List.of(key(x), key(y), key(z)), mode));
    assertStillWaiting(batch, "T2's batched " + mode + " read including a row T1 holds");
    t1.commit();
    assertThat(Cells.ofAll(T, awaitPromptly(batch)))
        .containsExactly(cells(T, x), cells(T, changed(y)), cells(T, z));
    t2.commit();
  }

  /**
   * The namenode's create rule: whoever adds a row under a directory holds the directory's lock. A
   * locked batch of [directory, new name] that waited for that lock must see the new row, even
   * where the database looked for the name (which sorts first) before it waited.
   */
  @Test
  public void aLockedBatchSeesARowCreatedUnderALockItWaitedFor() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    InodeRow created = inode(P, "a", 4);
    t1.call(tx -> tx.find(T, key(y), LockMode.EXCLUSIVE));
    t1.run(tx -> tx.insert(T, created));
    CompletableFuture<List<InodeRow>> batch =
        t2.start(tx -> tx.findBatch(T, List.of(key(y), key(created)), LockMode.EXCLUSIVE));
    assertStillWaiting(batch, "T2's locked batch including the row T1 holds");
    t1.commit();
    assertThat(Cells.ofAll(T, awaitPromptly(batch)))
        .containsExactly(cells(T, y), cells(T, created));
    t2.commit();
  }

  @Test
  public void exclusiveBatchedReadBlocksASharedPrimaryKeyReader() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.findBatch(T, List.of(key(x), key(y)), LockMode.EXCLUSIVE));
    CompletableFuture<InodeRow> read = t2.start(tx -> tx.find(T, key(y), LockMode.SHARED));
    assertStillWaiting(read, "T2's shared read of a row T1 locked in a batch");
    t1.commit();
    assertThat(cells(T, awaitPromptly(read))).isEqualTo(cells(T, y));
    t2.commit();
  }

  @ParameterizedTest
  @EnumSource(
      value = LockMode.class,
      names = {"SHARED", "EXCLUSIVE"})
  public void exclusiveLockBlocksALockingPartitionScanUntilCommit(LockMode mode) throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(y), LockMode.EXCLUSIVE));
    t1.run(tx -> tx.update(T, changed(y)));
    CompletableFuture<List<InodeRow>> scan = t2.start(tx -> tx.findByPartition(T, P, mode));
    assertStillWaiting(scan, "T2's " + mode + " scan of a partition with a row T1 holds");
    t1.commit();
    assertThat(Cells.ofAll(T, awaitPromptly(scan)))
        .containsExactly(cells(T, x), cells(T, changed(y)));
    t2.commit();
  }

  @Test
  public void exclusivePartitionScanBlocksReadersOfItsRowsButNotOfAnotherPartition()
      throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.findByPartition(T, P, LockMode.EXCLUSIVE));
    assertThat(cells(T, t2.call(tx -> tx.find(T, key(z), LockMode.EXCLUSIVE))))
        .isEqualTo(cells(T, z));
    CompletableFuture<InodeRow> read = t2.start(tx -> tx.find(T, key(x), LockMode.SHARED));
    assertStillWaiting(read, "T2's shared read of a row in the partition T1 scanned exclusively");
    t1.commit();
    assertThat(cells(T, awaitPromptly(read))).isEqualTo(cells(T, x));
    t2.commit();
  }

  @Test
  public void anUpdateWaitsForASharedLockHolderUntilItCommits() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.SHARED));
    t2.run(tx -> tx.update(T, changed(x)));
    CompletableFuture<Void> commit = t2.startAction(Transaction::commit);
    assertStillWaiting(commit, "T2's commit of an update of a row T1 holds shared");
    assertThat(cells(T, readCommitted(s, T, key(x))))
        .as("not yet committed")
        .isEqualTo(cells(T, x));
    t1.commit();
    awaitPromptly(commit);
    assertThat(cells(T, readCommitted(s, T, key(x)))).isEqualTo(cells(T, changed(x)));
  }

  @Test
  public void anUpdateWaitsForASharedPartitionScanUntilItCommits() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.findByPartition(T, P, LockMode.SHARED));
    t2.run(tx -> tx.update(T, changed(y)));
    CompletableFuture<Void> commit = t2.startAction(Transaction::commit);
    assertStillWaiting(commit, "T2's commit of an update of a row T1 scanned shared");
    t1.commit();
    awaitPromptly(commit);
    assertThat(cells(T, readCommitted(s, T, key(y)))).isEqualTo(cells(T, changed(y)));
  }

  @Test
  public void aDeleteWaitsForASharedLockHolderUntilItCommits() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.findBatch(T, List.of(key(x)), LockMode.SHARED));
    t2.run(tx -> tx.delete(T, key(x)));
    CompletableFuture<Void> commit = t2.startAction(Transaction::commit);
    assertStillWaiting(commit, "T2's commit of a delete of a row T1 holds shared");
    t1.commit();
    awaitPromptly(commit);
    assertThat(readCommitted(s, T, key(x))).isNull();
  }

  @Test
  public void readCommittedNeverWaitsForAnExclusiveLockAndSeesOnlyCommittedValues()
      throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    t1.call(tx -> tx.findByPartition(T, P, LockMode.EXCLUSIVE));
    t1.run(tx -> tx.update(T, changed(x)));
    assertReadCommittedSees(t2, x);
    t1.commit();
    assertReadCommittedSees(t2, changed(x));
    t2.commit();
  }

  @Test
  public void readCommittedNeitherWaitsForNorSeesWritesFlushedButNotCommitted() throws Exception {
    Table<VariableRow> v = VariableRow.TABLE;
    VariableRow counter = SampleRows.typical(v, 1);
    insertCommitted(s, v, counter);
    TxThread blocker = onThread("blocker", s);
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    blocker.call(tx -> tx.find(v, v.keyOf(counter), LockMode.SHARED));
    t1.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    t1.run(
        tx -> {
          // inodes flush before variables: x is written, then the flush waits for the blocker.
          tx.update(T, changed(x));
          tx.update(v, SampleRows.withKeyOf(v, SampleRows.typical(v, 2), counter));
        });
    CompletableFuture<Void> commit = t1.startAction(Transaction::commit);
    assertStillWaiting(commit, "T1's commit of an update of a row the blocker holds shared");
    assertReadCommittedSees(t2, x);
    blocker.commit();
    awaitPromptly(commit);
    assertReadCommittedSees(t2, changed(x));
    t2.commit();
  }

  @Test
  public void rollbackReleasesAnExclusiveLockAndTheWaiterSeesTheOldValue() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    t1.run(tx -> tx.update(T, changed(x)));
    CompletableFuture<InodeRow> read = t2.start(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    assertStillWaiting(read, "T2's exclusive read of a row T1 holds exclusive");
    t1.run(Transaction::rollback);
    assertThat(cells(T, awaitPromptly(read))).isEqualTo(cells(T, x));
    t2.commit();
  }

  @Test
  public void aWaiterForARowDeletedByTheHolderFindsNothingAfterCommit() throws Exception {
    TxThread t1 = onThread("T1", s);
    TxThread t2 = onThread("T2", s);
    t1.call(tx -> tx.find(T, key(x), LockMode.EXCLUSIVE));
    t1.run(tx -> tx.delete(T, key(x)));
    CompletableFuture<InodeRow> read = t2.start(tx -> tx.find(T, key(x), LockMode.SHARED));
    assertStillWaiting(read, "T2's shared read of a row T1 holds exclusive");
    t1.commit();
    assertThat(awaitPromptly(read)).isNull();
    t2.commit();
  }

  /** Every read-committed finder returns at once and shows {@code expectedX} as x. */
  private void assertReadCommittedSees(TxThread t, InodeRow expectedX) throws Exception {
    LockMode rc = LockMode.READ_COMMITTED;
    assertThat(cells(T, t.call(tx -> tx.find(T, key(x), rc))))
        .as("read-committed PK read of x")
        .isEqualTo(cells(T, expectedX));
    assertThat(Cells.ofAll(T, t.call(tx -> tx.findBatch(T, List.of(key(y), key(x)), rc))))
        .as("read-committed batched read of y and x")
        .containsExactly(cells(T, y), cells(T, expectedX));
    assertThat(Cells.ofAll(T, t.call(tx -> tx.findByPartition(T, P, rc))))
        .as("read-committed scan of x's partition")
        .containsExactly(cells(T, expectedX), cells(T, y));
    assertThat(Cells.ofAll(T, t.call(tx -> tx.findByIndex(T, "id", x.id(), rc))))
        .as("read-committed index scan for x's id")
        .containsExactly(cells(T, expectedX));
  }

  private static InodeRow inode(long partition, String name, int seed) {
    InodeRow r = SampleRows.inPartition(T, SampleRows.typical(T, seed), partition);
    return SampleRows.with(T, SampleRows.with(T, r, "parent_id", partition), "name", name);
  }

  /** The row with the same key and id and other values. */
  private static InodeRow changed(InodeRow r) {
    InodeRow other = SampleRows.withKeyOf(T, SampleRows.typical(T, 100 + r.id()), r);
    return SampleRows.with(T, other, "id", r.id());
  }

  private static Key key(InodeRow r) {
    return T.keyOf(r);
  }
}
