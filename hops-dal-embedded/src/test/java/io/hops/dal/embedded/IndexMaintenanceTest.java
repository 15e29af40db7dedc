package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Index entries follow their rows in the same write batch: an update moves the entry, a delete
 * removes it, a delete and re-insert in one transaction leaves exactly the new one, and a write
 * that changes nothing (update of a missing row) leaves no entry behind.
 */
class IndexMaintenanceTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private static final long ROOT = 1;
  private Storage storage;

  @BeforeEach
  void open() throws Exception {
    storage = Storages.open(DalConfig.embeddedInMemory("index-" + UUID.randomUUID()));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void anUpdateMovesTheEntryAndADeleteRemovesIt() throws Exception {
    InodeRow row = withId(SampleRows.with(T, SampleRows.typical(T, 1), "parent_id", ROOT), 100);
    commit(tx -> tx.insert(T, row));
    assertThat(byId(100)).containsExactly(row);

    InodeRow moved = withId(row, 101);
    commit(tx -> tx.update(T, moved));
    assertThat(byId(100)).isEmpty();
    assertThat(byId(101)).containsExactly(moved);
    assertThat(byParent(row.parentId())).containsExactly(moved);

    commit(tx -> tx.delete(T, moved));
    assertThat(byId(101)).isEmpty();
    assertThat(byParent(row.parentId())).isEmpty();
  }

  @Test
  void deleteAndReinsertInOneTransactionLeavesOnlyTheNewEntry() throws Exception {
    InodeRow row = withId(SampleRows.typical(T, 2), 200);
    commit(tx -> tx.insert(T, row));
    InodeRow again = withId(row, 201);
    commit(
        tx -> {
          tx.delete(T, row);
          tx.insert(T, again);
        });
    assertThat(byId(200)).isEmpty();
    assertThat(byId(201)).containsExactly(again);
  }

  @Test
  void anUpdateOfAMissingRowWritesNeitherRowNorEntry() throws Exception {
    InodeRow ghost = withId(SampleRows.typical(T, 3), 300);
    commit(tx -> tx.update(T, ghost));
    assertThat(byId(300)).isEmpty();
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(ghost), LockMode.READ_COMMITTED)).isNull();
    }
  }

  @Test
  void rowsSharingAnIndexedValueComeBackInKeyOrder() throws Exception {
    List<InodeRow> rows =
        List.of(
            withId(SampleRows.inPartition(T, SampleRows.typical(T, 4), 9L), 400),
            withId(SampleRows.inPartition(T, SampleRows.typical(T, 5), -9L), 401),
            withId(SampleRows.inPartition(T, SampleRows.typical(T, 6), 0L), 402));
    commit(
        tx -> {
          for (InodeRow r : rows) {
            tx.insert(T, SampleRows.with(T, r, "parent_id", ROOT));
          }
        });
    assertThat(byParent(ROOT)).extracting(InodeRow::partitionId).containsExactly(-9L, 0L, 9L);
  }

  /**
   * {@code inodes.parent_id} holds only the root's children: a row of another parent has no entry
   * (its partition finds it), a row that moves to or from the root gains or loses its entry, and a
   * find by another parent is refused rather than answered from a partial index.
   */
  @Test
  void thePartialParentIndexHoldsOnlyTheRootsChildren() throws Exception {
    InodeRow top = withId(SampleRows.with(T, SampleRows.typical(T, 7), "parent_id", ROOT), 700);
    InodeRow deep = withId(SampleRows.with(T, SampleRows.typical(T, 8), "parent_id", 5L), 701);
    commit(
        tx -> {
          tx.insert(T, top);
          tx.insert(T, deep);
        });
    assertThat(byParent(ROOT)).containsExactly(top);
    assertThatThrownBy(() -> byParent(5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inodes.parent_id is indexed only for the values [1], not for 5");
    try (Transaction tx = storage.begin()) {
      assertThat(tx.findByPartition(T, deep.partitionId(), "parent_id", 5L, LockMode.SHARED))
          .containsExactly(deep);
    }

    InodeRow up = SampleRows.with(T, SampleRows.with(T, deep, "parent_id", ROOT), "name", "up");
    AccessCounts moves;
    try (Transaction tx = storage.begin()) {
      tx.delete(T, T.keyOf(top));
      tx.delete(T, T.keyOf(deep));
      tx.insert(T, SampleRows.with(T, withId(top, 702), "parent_id", 5L));
      tx.insert(T, up);
      tx.commit();
      moves = tx.accessCounts();
    }
    assertThat(byParent(ROOT)).containsExactly(up);
    // Deleted: two rows, top's parent entry, two id entries (702 is new; 701 is put again).
    // Put: two rows, up's parent entry, two id entries.
    assertThat(moves.keys()).startsWith("put 5, deleted 4,");
  }

  private static InodeRow withId(InodeRow row, long id) {
    return SampleRows.with(T, row, "id", id);
  }

  private List<InodeRow> byId(long id) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.findByIndex(T, "id", id, LockMode.READ_COMMITTED);
    }
  }

  private List<InodeRow> byParent(long parent) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.findByIndex(T, "parent_id", parent, LockMode.READ_COMMITTED);
    }
  }

  @FunctionalInterface
  private interface Writes {
    void apply(Transaction tx) throws Exception;
  }

  private void commit(Writes writes) throws Exception {
    try (Transaction tx = storage.begin()) {
      writes.apply(tx);
      tx.commit();
    }
  }
}
