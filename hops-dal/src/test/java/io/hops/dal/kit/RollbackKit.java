package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A transaction that does not commit leaves no trace: rollback, close without commit, and a failure
 * in the middle of the flush, after other rows were sent. Locks are released, and the storage goes
 * on working.
 */
public abstract class RollbackKit extends DalKit {

  @Test
  public void rollbackLeavesNoTrace() throws Exception {
    Storage s = storage();
    Map<String, List<List<Object>>> before = populateEveryTable(s);
    try (Transaction tx = s.begin()) {
      changeEveryTable(tx);
      tx.rollback();
    }
    assertThat(snapshot(s)).isEqualTo(before);
  }

  @Test
  public void closingWithoutCommitRollsBack() throws Exception {
    Storage s = storage();
    Map<String, List<List<Object>>> before = populateEveryTable(s);
    try (Transaction tx = s.begin()) {
      changeEveryTable(tx);
    }
    assertThat(snapshot(s)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"inodes", "block_infos", "variables"})
  public void failureInTheMiddleOfTheFlushLeavesNothingBehind(String clashingTable)
      throws Exception {
    Storage s = storage();
    Map<String, List<List<Object>>> before = populateEveryTable(s);
    try (Transaction tx = s.begin()) {
      changeEveryTable(tx);
      // Deletes, updates and the inserts of earlier tables are flushed before this one.
      insertClash(tx, Tables.byName(clashingTable));
      assertThatThrownBy(tx::commit).isInstanceOf(DuplicateKeyException.class);
    }
    assertThat(snapshot(s)).isEqualTo(before);
  }

  @Test
  public void afterAFailedTransactionItsLocksAreFreeAndTheStorageStillWorks() throws Exception {
    Storage s = openStorageWithLockWaitTimeout(1000);
    Table<InodeRow> t = InodeRow.TABLE;
    InodeRow x = SampleRows.typical(t, 1);
    InodeRow y = SampleRows.typical(t, 2);
    insertCommitted(s, t, x, y);
    try (Transaction tx = s.begin()) {
      tx.find(t, t.keyOf(x), LockMode.EXCLUSIVE);
      tx.findByPartition(t, y.partitionId(), LockMode.SHARED);
      tx.insert(t, SampleRows.withKeyOf(t, SampleRows.typical(t, 3), x));
      assertThatThrownBy(tx::commit).isInstanceOf(DuplicateKeyException.class);
      assertThatThrownBy(() -> tx.find(t, t.keyOf(x), LockMode.READ_COMMITTED))
          .isInstanceOf(IllegalStateException.class);
    }
    // Were x or y still locked, these would fail after the 1 s lock-wait timeout.
    InodeRow x2 = SampleRows.withKeyOf(t, SampleRows.typical(t, 4), x);
    InodeRow z = SampleRows.typical(t, 5);
    try (Transaction tx = s.begin()) {
      assertThat(cells(t, tx.find(t, t.keyOf(x), LockMode.EXCLUSIVE))).isEqualTo(cells(t, x));
      assertThat(Cells.ofAll(t, tx.findByPartition(t, y.partitionId(), LockMode.EXCLUSIVE)))
          .containsExactly(cells(t, y));
      tx.update(t, x2);
      tx.delete(t, y);
      tx.insert(t, z);
      tx.commit();
    }
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, List.of(x2, z)));
  }

  @Test
  public void rollbackAndCloseReleaseLocks() throws Exception {
    Storage s = openStorageWithLockWaitTimeout(1000);
    Table<InodeRow> t = InodeRow.TABLE;
    InodeRow x = SampleRows.typical(t, 1);
    insertCommitted(s, t, x);
    try (Transaction tx = s.begin()) {
      tx.find(t, t.keyOf(x), LockMode.EXCLUSIVE);
      tx.rollback();
    }
    try (Transaction closedWithoutCommit = s.begin()) {
      closedWithoutCommit.findBatch(t, List.of(t.keyOf(x)), LockMode.EXCLUSIVE);
    }
    // Were x still locked, this would fail after the 1 s lock-wait timeout.
    try (Transaction tx = s.begin()) {
      assertThat(cells(t, tx.find(t, t.keyOf(x), LockMode.EXCLUSIVE))).isEqualTo(cells(t, x));
      tx.commit();
    }
  }

  @Test
  public void aRolledBackTransactionIsUnusable() throws Exception {
    Table<InodeRow> t = InodeRow.TABLE;
    try (Transaction tx = storage().begin()) {
      tx.rollback();
      tx.rollback();
      assertThatThrownBy(() -> tx.insert(t, SampleRows.typical(t, 1)))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class);
    }
    assertThat(readAll(storage(), t)).isEmpty();
  }

  /** Three committed rows in every table; returns the snapshot. */
  private static Map<String, List<List<Object>>> populateEveryTable(Storage s) throws Exception {
    try (Transaction tx = s.begin()) {
      for (Table<?> t : Tables.ALL) {
        insertTypical(tx, t, 1, 2, 3);
      }
      tx.commit();
    }
    Map<String, List<List<Object>>> before = snapshot(s);
    assertThat(before.values()).allSatisfy(rows -> assertThat(rows).hasSize(3));
    return before;
  }

  /** In every table: the row of seed 1 updated, that of seed 2 deleted, a new one inserted. */
  private static void changeEveryTable(Transaction tx) throws Exception {
    for (Table<?> t : Tables.ALL) {
      change(tx, t);
    }
  }

  private static <R extends Record> void change(Transaction tx, Table<R> t) throws Exception {
    R one = SampleRows.typical(t, 1);
    tx.update(t, SampleRows.withKeyOf(t, SampleRows.typical(t, 21), one));
    tx.delete(t, SampleRows.typical(t, 2));
    tx.insert(t, SampleRows.typical(t, 10));
  }

  /** An insert of the key of the untouched row of seed 3. */
  private static <R extends Record> void insertClash(Transaction tx, Table<R> t) throws Exception {
    tx.insert(t, SampleRows.withKeyOf(t, SampleRows.typical(t, 33), SampleRows.typical(t, 3)));
  }

  private static <R extends Record> void insertTypical(Transaction tx, Table<R> t, int... seeds)
      throws Exception {
    for (int seed : seeds) {
      tx.insert(t, SampleRows.typical(t, seed));
    }
  }
}
