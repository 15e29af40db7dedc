package io.hops.dal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The behaviour every driver inherits, over a fake driver that records what it is asked. */
class AbstractTransactionTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;

  /** A driver over a map, recording flushes, commits and rollbacks, failing on demand. */
  static class FakeTransaction extends AbstractTransaction {
    final Map<Key, Record> rows = new HashMap<>();
    final List<List<WriteOp>> flushes = new ArrayList<>();
    final List<String> calls = new ArrayList<>();
    int commits;
    int rollbacks;
    StorageException failNextCall;

    FakeTransaction(AccessCounter totals) {
      super(totals);
    }

    private void maybeFail(String call) throws StorageException {
      calls.add(call);
      StorageException e = failNextCall;
      failNextCall = null;
      if (e != null) {
        throw e;
      }
    }

    @Override
    @SuppressWarnings("unchecked")
    protected <R extends Record> R doFind(Table<R> table, Key key, LockMode mode)
        throws StorageException {
      maybeFail("find " + mode);
      return (R) rows.get(key);
    }

    @Override
    @SuppressWarnings("unchecked")
    protected <R extends Record> List<R> doFindBatch(Table<R> table, List<Key> keys, LockMode mode)
        throws StorageException {
      maybeFail("batch " + mode);
      List<R> out = new ArrayList<>();
      keys.forEach(k -> out.add((R) rows.get(k)));
      return out;
    }

    @Override
    protected <R extends Record> List<R> doScan(
        Table<R> table, List<Column> columns, List<Object> values, LockMode mode)
        throws StorageException {
      List<String> names = new ArrayList<>();
      columns.forEach(c -> names.add(c.name()));
      maybeFail("scan " + names + "=" + values + " " + mode);
      return List.of();
    }

    @Override
    protected <R extends Record> List<R> doScanFrom(
        Table<R> table,
        Column partition,
        Object partitionValue,
        Key after,
        int limit,
        LockMode mode)
        throws StorageException {
      maybeFail("page " + partitionValue + " after " + after + " " + limit + " " + mode);
      return List.of();
    }

    @Override
    protected List<Key> doFindKeysByIndex(Table<?> table, Column column, Object value)
        throws StorageException {
      maybeFail("keys " + column.name() + "=" + value);
      return List.of();
    }

    @Override
    protected void doFlush(List<KeyRange> ranges, List<WriteOp> ops) throws StorageException {
      maybeFail("flush");
      flushes.add(ops);
    }

    @Override
    protected void doCommit() throws StorageException {
      maybeFail("commit");
      commits++;
    }

    @Override
    protected void doRollback() {
      rollbacks++;
    }
  }

  private final AccessCounter totals = new AccessCounter();
  private final FakeTransaction tx = new FakeTransaction(totals);
  private final InodeRow row = SampleRows.typical(T, 1);

  @Test
  void everyFinderCountsOneAccessOfItsKindInTheTransactionAndTheTotals() throws Exception {
    tx.find(T, T.keyOf(row), LockMode.SHARED);
    tx.findBatch(T, List.of(T.keyOf(row), T.keyOf(row)), LockMode.READ_COMMITTED);
    tx.findByPartition(T, 5L, LockMode.EXCLUSIVE);
    tx.findByPartition(T, 5L, "name", "a", LockMode.READ_COMMITTED);
    tx.findByIndex(T, "id", 9L, LockMode.SHARED);
    tx.scanAll(T, LockMode.READ_COMMITTED);
    assertThat(tx.accessCounts())
        .hasToString("PK(SHARED) + B + PPIS + PPIS(EXCLUSIVE) + IS(SHARED) + FTS");
    assertThat(totals.snapshot()).isEqualTo(tx.accessCounts());
    assertThat(tx.calls)
        .containsExactly(
            "find SHARED",
            "batch READ_COMMITTED",
            "scan [partition_id]=[5] EXCLUSIVE",
            "scan [partition_id, name]=[5, a] READ_COMMITTED",
            "scan [id]=[9] SHARED",
            "scan []=[] READ_COMMITTED");
  }

  @Test
  void writesAreBufferedAndFlushedOnceAtCommitInFlushOrder() throws Exception {
    BlockInfoRow block = SampleRows.typical(BlockInfoRow.TABLE, 1);
    tx.insert(BlockInfoRow.TABLE, block);
    tx.insert(T, row);
    tx.delete(T, T.key(1L, 2L, "gone"));
    assertThat(tx.flushes).isEmpty();
    assertThat(tx.accessCounts()).isEqualTo(AccessCounts.NONE);
    tx.commit();
    assertThat(tx.flushes).hasSize(1);
    assertThat(tx.flushes.get(0))
        .extracting(WriteOp::kind)
        .containsExactly(WriteOp.Kind.DELETE, WriteOp.Kind.INSERT, WriteOp.Kind.INSERT);
    assertThat(tx.flushes.get(0).get(1).row()).isEqualTo(row);
    assertThat(tx.flushes.get(0).get(2).row()).isEqualTo(block);
    assertThat(tx.calls).containsExactly("flush", "commit");
    assertThat(tx.accessCounts()).hasToString("W");
    assertThat(tx.rollbacks).isZero();
  }

  @Test
  void aCommitWithoutWritesDoesNotFlushNorCountAWriteBatch() throws Exception {
    tx.insert(T, row);
    tx.delete(T, row);
    tx.commit();
    assertThat(tx.calls).containsExactly("commit");
    assertThat(tx.accessCounts()).isEqualTo(AccessCounts.NONE);
  }

  @Test
  void aRowOverALimitIsRefusedBeforeItIsBufferedAndTheTransactionGoesOn() throws Exception {
    InodeRow over =
        SampleRows.with(T, row, "client_name", "x".repeat(io.hops.dal.schema.MaxBytes.NAME + 1));
    assertThatThrownBy(() -> tx.insert(T, over)).hasMessageContaining("inodes.client_name");
    assertThatThrownBy(() -> tx.update(T, over)).hasMessageContaining("inodes.client_name");
    tx.commit();
    assertThat(tx.flushes).isEmpty();
    assertThat(tx.rollbacks).isZero();
  }

  @Test
  void aFailedReadRollsBackOnceAndLeavesTheTransactionUnusable() throws Exception {
    tx.insert(T, row);
    tx.failNextCall = new TransientStorageException("deadlock");
    assertThatThrownBy(() -> tx.find(T, T.keyOf(row), LockMode.EXCLUSIVE))
        .isInstanceOf(TransientStorageException.class);
    assertThat(tx.rollbacks).isEqualTo(1);
    assertThat(tx.accessCounts()).as("a failed call is not counted").isEqualTo(AccessCounts.NONE);
    assertThatThrownBy(() -> tx.find(T, T.keyOf(row), LockMode.SHARED))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> tx.insert(T, row)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class);
    tx.close();
    assertThat(tx.rollbacks).isEqualTo(1);
  }

  @Test
  void aFailedFlushRollsBackAndCountsNoWriteBatch() throws Exception {
    tx.insert(T, row);
    tx.failNextCall = new DuplicateKeyException("dup", null);
    assertThatThrownBy(tx::commit).isInstanceOf(DuplicateKeyException.class);
    assertThat(tx.rollbacks).isEqualTo(1);
    assertThat(tx.commits).isZero();
    assertThat(tx.accessCounts()).isEqualTo(AccessCounts.NONE);
  }

  @Test
  void aRuntimeFailureOfTheDriverAlsoRollsBack() {
    FakeTransaction broken =
        new FakeTransaction(totals) {
          @Override
          protected <R extends Record> List<R> doScan(
              Table<R> table, List<Column> columns, List<Object> values, LockMode mode) {
            throw new IllegalStateException("bug");
          }

          @Override
          protected <R extends Record> List<R> doScanFrom(
              Table<R> table,
              Column partition,
              Object partitionValue,
              Key after,
              int limit,
              LockMode mode) {
            throw new IllegalStateException("bug");
          }

          @Override
          protected List<Key> doFindKeysByIndex(Table<?> table, Column column, Object value) {
            throw new IllegalStateException("bug");
          }
        };
    assertThatThrownBy(() -> broken.scanAll(T, LockMode.SHARED)).hasMessage("bug");
    assertThat(broken.rollbacks).isEqualTo(1);
  }

  @Test
  void rollbackIsIdempotentAndCloseAfterCommitDoesNotRollBack() throws Exception {
    FakeTransaction other = new FakeTransaction(totals);
    other.rollback();
    other.rollback();
    other.close();
    assertThat(other.rollbacks).isEqualTo(1);
    tx.commit();
    tx.close();
    tx.rollback();
    assertThat(tx.rollbacks).isZero();
  }

  @Test
  void misusedFindersAreRefused() {
    assertThatThrownBy(() -> tx.findByIndex(T, "name", "a", LockMode.SHARED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inodes.name");
    assertThatThrownBy(() -> tx.find(T, BlockInfoRow.TABLE.key(1L, 2L), LockMode.SHARED))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> tx.findBatch(T, List.of(BlockInfoRow.TABLE.key(1L, 2L)), LockMode.SHARED))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tx.delete(T, BlockInfoRow.TABLE.key(1L, 2L)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tx.findByPartition(T, 1L, "nope", 1, LockMode.SHARED))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(tx.calls).isEmpty();
    assertThat(tx.rollbacks).isZero();
  }
}
