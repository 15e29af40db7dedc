package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounter;
import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Table;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Access counts are exact for every kind of call, in the transaction and in the storage's totals
 * (docs/architecture.md, "Database cost per operation"): one count per call whatever the number of
 * rows, one write batch per commit that has writes and none otherwise.
 */
public abstract class AccessCountKit extends DalKit {
  private static final Table<InodeRow> T = InodeRow.TABLE;

  private Storage s;
  private InodeRow x;
  private InodeRow y;

  @BeforeEach
  public void populate() throws Exception {
    s = storage();
    x = SampleRows.typical(T, 1);
    y = SampleRows.inPartition(T, SampleRows.typical(T, 2), x.partitionId());
    insertCommitted(s, T, x, y);
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void primaryKeyReadCountsOnePkAtItsLockModeFoundOrNot(LockMode mode) throws Exception {
    assertCounts(
        tx -> {
          tx.find(T, T.keyOf(x), mode);
          tx.find(T, T.key(1L, 2L, "missing"), mode);
        },
        expect(AccessKind.PK, mode, 2));
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void batchedReadCountsOneBatchWhateverTheNumberOfKeys(LockMode mode) throws Exception {
    assertCounts(
        tx -> {
          tx.findBatch(T, List.of(T.keyOf(x)), mode);
          tx.findBatch(T, List.of(T.keyOf(x), T.keyOf(y), T.key(1L, 2L, "no"), T.keyOf(x)), mode);
        },
        expect(AccessKind.BATCH, mode, 2));
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void partitionScansCountOnePpisInEveryVariant(LockMode mode) throws Exception {
    assertCounts(
        tx -> {
          tx.findByPartition(T, x.partitionId(), mode);
          tx.findByPartition(T, x.partitionId(), "name", x.name(), mode);
          tx.findByPartition(ReplicaRow.TABLE, 77L, mode);
          tx.findByPartitions(T, List.of(x.partitionId(), x.partitionId() + 1, 5L), mode);
        },
        expect(AccessKind.PPIS, mode, 4));
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void indexScanCountsOneIs(LockMode mode) throws Exception {
    assertCounts(tx -> tx.findByIndex(T, "id", x.id(), mode), expect(AccessKind.IS, mode, 1));
    assertCounts(
        tx -> tx.findByIndexIn(T, "id", List.of(x.id(), x.id() + 1, 5L), mode),
        expect(AccessKind.IS, mode, 1));
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void scanAllCountsOneFts(LockMode mode) throws Exception {
    assertCounts(
        tx -> {
          tx.scanAll(T, mode);
          tx.scanAll(BlockInfoRow.TABLE, mode);
        },
        expect(AccessKind.FTS, mode, 2));
  }

  @Test
  public void aCommitWithWritesInSeveralTablesCountsExactlyOneWriteBatch() throws Exception {
    AccessCounts before = s.accessCounts();
    try (Transaction tx = s.begin()) {
      tx.insert(T, SampleRows.typical(T, 3));
      tx.update(T, SampleRows.withKeyOf(T, SampleRows.typical(T, 4), x));
      tx.delete(T, y);
      tx.insert(BlockInfoRow.TABLE, SampleRows.typical(BlockInfoRow.TABLE, 1));
      tx.insert(VariableRow.TABLE, SampleRows.typical(VariableRow.TABLE, 1));
      assertThat(tx.accessCounts()).as("buffered writes cost nothing").isEqualTo(AccessCounts.NONE);
      tx.commit();
      AccessCounts w = expect(AccessKind.WRITE_BATCH, LockMode.EXCLUSIVE, 1);
      assertThat(tx.accessCounts()).isEqualTo(w);
      assertThat(s.accessCounts().minus(before)).isEqualTo(w);
    }
  }

  @Test
  public void aReadOnlyCommitCountsNoWriteBatch() throws Exception {
    assertCounts(
        tx -> tx.find(T, T.keyOf(x), LockMode.SHARED), expect(AccessKind.PK, LockMode.SHARED, 1));
    assertCounts(tx -> {}, AccessCounts.NONE);
  }

  @Test
  public void rollbackAndCloseWithoutCommitCountNoWriteBatch() throws Exception {
    AccessCounts before = s.accessCounts();
    try (Transaction tx = s.begin()) {
      tx.insert(T, SampleRows.typical(T, 3));
      tx.rollback();
      assertThat(tx.accessCounts()).isEqualTo(AccessCounts.NONE);
    }
    try (Transaction tx = s.begin()) {
      tx.update(T, SampleRows.withKeyOf(T, SampleRows.typical(T, 4), x));
    }
    assertThat(s.accessCounts().minus(before)).isEqualTo(AccessCounts.NONE);
  }

  @Test
  public void aCommitThatFailsInItsFlushCountsNoWriteBatch() throws Exception {
    AccessCounts before = s.accessCounts();
    try (Transaction tx = s.begin()) {
      tx.insert(T, SampleRows.withKeyOf(T, SampleRows.typical(T, 3), x));
      assertThatThrownBy(tx::commit).isInstanceOf(DuplicateKeyException.class);
      assertThat(tx.accessCounts().get(AccessKind.WRITE_BATCH)).isZero();
    }
    assertThat(s.accessCounts().minus(before).get(AccessKind.WRITE_BATCH)).isZero();
  }

  @Test
  public void aTransactionsCountsReadLikeTheDesignsCostTable() throws Exception {
    try (Transaction tx = s.begin()) {
      tx.findBatch(T, List.of(T.keyOf(x), T.keyOf(y)), LockMode.READ_COMMITTED);
      tx.find(T, T.keyOf(x), LockMode.SHARED);
      tx.findByPartition(T, x.partitionId(), LockMode.READ_COMMITTED);
      tx.find(T, T.keyOf(y), LockMode.EXCLUSIVE);
      tx.find(T, T.keyOf(x), LockMode.EXCLUSIVE);
      tx.update(T, SampleRows.withKeyOf(T, SampleRows.typical(T, 4), x));
      tx.commit();
      assertThat(tx.accessCounts()).hasToString("PK(SHARED) + PK(EXCLUSIVE) x2 + B + PPIS + W");
    }
  }

  @Test
  public void totalsAreTheSumOfTheTransactionsCounts() throws Exception {
    AccessCounts before = s.accessCounts();
    AccessCounts first;
    AccessCounts second;
    try (Transaction tx = s.begin()) {
      tx.find(T, T.keyOf(x), LockMode.EXCLUSIVE);
      tx.scanAll(T, LockMode.READ_COMMITTED);
      tx.delete(T, y);
      tx.commit();
      first = tx.accessCounts();
    }
    try (Transaction tx = s.begin()) {
      tx.findByIndex(T, "id", x.id(), LockMode.SHARED);
      tx.findBatch(T, List.of(T.keyOf(x)), LockMode.EXCLUSIVE);
      tx.rollback();
      second = tx.accessCounts();
    }
    AccessCounts delta = s.accessCounts().minus(before);
    assertThat(delta.total()).isEqualTo(first.total() + second.total()).isEqualTo(5);
    for (AccessKind k : AccessKind.values()) {
      for (LockMode m : LockMode.values()) {
        assertThat(delta.get(k, m)).as("%s %s", k, m).isEqualTo(first.get(k, m) + second.get(k, m));
      }
    }
  }

  @Test
  public void allocateIdsCountsInTheTotalsTheSameForEveryAllocation() throws Exception {
    AccessCounts start = s.accessCounts();
    s.allocateIds("kit-counted", 3);
    AccessCounts afterFirst = s.accessCounts();
    s.allocateIds("kit-counted", 7);
    AccessCounts afterSecond = s.accessCounts();
    AccessCounts one = afterFirst.minus(start);
    assertThat(one.total()).as("accesses of an id allocation").isPositive();
    assertThat(one.get(AccessKind.WRITE_BATCH)).as("an allocation writes its counter").isEqualTo(1);
    assertThat(afterSecond.minus(afterFirst)).isEqualTo(one);
  }

  /** The calls, run in one committed transaction, count exactly {@code expected} in both places. */
  private void assertCounts(TxThread.TxAction calls, AccessCounts expected) throws Exception {
    AccessCounts before = s.accessCounts();
    try (Transaction tx = s.begin()) {
      calls.run(tx);
      tx.commit();
      assertThat(tx.accessCounts()).as("the transaction's counts").isEqualTo(expected);
    }
    assertThat(s.accessCounts().minus(before)).as("the storage's totals").isEqualTo(expected);
  }

  /** {@code n} accesses of one kind at one mode, and nothing else. */
  private static AccessCounts expect(AccessKind kind, LockMode mode, int n) {
    AccessCounter counter = new AccessCounter();
    for (int i = 0; i < n; i++) {
      counter.count(kind, mode);
    }
    return counter.snapshot();
  }
}
