package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.DalConfig;
import io.hops.dal.DuplicateKeyException;
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
 * A key above every key its table or unique index ever held is inserted without a read ({@link
 * HighWaters}); a key at or below it is read, so duplicates are refused as before, also after the
 * store is reopened and the marks are learnt again; a row that moves rewrites its unique entry in
 * place instead of deleting and putting it. A partition above every key of its table is empty
 * without a read, and a row put there is found by the next scan, also by a scan that follows a read
 * of the row while its commit is still returning (the marks rise before the write).
 */
class HighWatersTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private final String name = "marks-" + UUID.randomUUID();
  private Storage storage;

  @BeforeEach
  void open() throws Exception {
    storage = Storages.open(DalConfig.embeddedInMemory(name));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void aRowWithAFreshKeyAndAFreshIdIsInsertedWithoutAnyRead() throws Exception {
    commit(row(1, 100));
    AccessCounts fresh = commit(row(2, 101));
    assertThat(fresh.keysRead()).as(fresh.keys()).isZero();
    // The row and its id entry (the parent_id index holds only the root's children).
    assertThat(fresh.keysPut()).as(fresh.keys()).isEqualTo(2);
  }

  @Test
  void keysAtOrBelowTheMarksAreReadAndDuplicatesRefused() throws Exception {
    commit(row(5, 200));
    AccessCounts below = commit(row(3, 150));
    assertThat(below.keysRead()).as("the row key and the id are below the marks").isEqualTo(2);
    assertThatThrownBy(() -> commit(row(4, 200))).isInstanceOf(DuplicateKeyException.class);
    assertThatThrownBy(() -> commit(row(5, 201))).isInstanceOf(DuplicateKeyException.class);
    assertThat(byId(201)).isEmpty();
  }

  @Test
  void aDeletedGreatestKeyMayBeInsertedAgain() throws Exception {
    InodeRow top = row(9, 900);
    commit(top);
    try (Transaction tx = storage.begin()) {
      tx.delete(T, T.keyOf(top));
      tx.commit();
    }
    commit(top);
    assertThat(byId(900)).containsExactly(top);
  }

  @Test
  void marksAreLearntAgainFromTheStoreAfterAReopen() throws Exception {
    commit(row(7, 700));
    storage.close();
    storage = Storages.open(DalConfig.embeddedInMemory(name));
    assertThatThrownBy(() -> commit(row(8, 700))).isInstanceOf(DuplicateKeyException.class);
    assertThatThrownBy(() -> commit(row(7, 701))).isInstanceOf(DuplicateKeyException.class);
    assertThat(commit(row(8, 701)).keysRead()).isZero();
  }

  @Test
  void aRowThatMovesRewritesItsUniqueEntryInPlace() throws Exception {
    InodeRow before = row(1, 300);
    commit(before);
    InodeRow after = row(2, 300);
    AccessCounts moved;
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(before), LockMode.EXCLUSIVE)).isEqualTo(before);
      tx.delete(T, T.keyOf(before));
      tx.insert(T, after);
      tx.commit();
      moved = tx.accessCounts();
    }
    // Deleted: the old row; the id entry is put again, not deleted.
    assertThat(moved.keysDeleted()).as(moved.keys()).isEqualTo(1);
    assertThat(moved.keysPut()).as(moved.keys()).isEqualTo(2);
    assertThat(byId(300)).containsExactly(after);
  }

  @Test
  void aPartitionAboveEveryKeyIsEmptyUntilARowIsPutThere() throws Exception {
    commit(row(1, 100));
    assertThat(partition(50L)).isEmpty(); // learns the mark
    InodeRow there = inPartition(50L, 1, 101);
    commit(there);
    assertThat(partition(50L)).containsExactly(there);
    assertThat(page(50L)).containsExactly(there);
    assertThat(partition(60L)).isEmpty();
    assertThat(page(60L)).isEmpty();
    // Below the mark: read as before.
    assertThat(partition(3L)).containsExactly(row(1, 100));

    storage.close();
    storage = Storages.open(DalConfig.embeddedInMemory(name));
    assertThat(partition(50L)).containsExactly(there);
    assertThat(partition(70L)).isEmpty();
    InodeRow later = inPartition(70L, 2, 102);
    commit(later);
    assertThat(page(70L)).containsExactly(later);
  }

  @Test
  void aRowReadWhileItsCommitReturnsIsInItsPartitionsScan() throws Exception {
    int partitions = 300;
    java.util.concurrent.atomic.AtomicReference<Throwable> failed =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (int p = 0; p < partitions; p++) {
                  commit(inPartition(1000L + p, 1, 5000L + p));
                }
              } catch (Throwable e) {
                failed.set(e);
              }
            });
    writer.start();
    try {
      for (int p = 0; p < partitions && failed.get() == null; p++) {
        InodeRow expected = inPartition(1000L + p, 1, 5000L + p);
        long deadline = System.nanoTime() + 10_000_000_000L;
        InodeRow seen = null;
        while (seen == null && System.nanoTime() < deadline && failed.get() == null) {
          try (Transaction tx = storage.begin()) {
            seen = tx.find(T, T.keyOf(expected), LockMode.READ_COMMITTED);
          }
        }
        assertThat(seen).as("row of partition %d", p).isEqualTo(expected);
        assertThat(partition(1000L + p)).as("scan of partition %d", p).containsExactly(expected);
      }
    } finally {
      writer.join();
    }
    assertThat(failed.get()).isNull();
  }

  /** A row with a key of its own (name {@code n}) and the given id, in partition {@code parent}. */
  private static InodeRow inPartition(long parent, int n, long id) {
    InodeRow r = SampleRows.inPartition(T, SampleRows.typical(T, 1), parent);
    r = SampleRows.with(T, r, "parent_id", parent);
    r = SampleRows.with(T, r, "name", "n" + n);
    return SampleRows.with(T, r, "id", id);
  }

  private List<InodeRow> partition(long parent) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.findByPartition(T, parent, LockMode.READ_COMMITTED);
    }
  }

  private List<InodeRow> page(long parent) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanFrom(T, parent, null, 10, LockMode.READ_COMMITTED);
    }
  }

  /** A row with a key of its own (name {@code n}) and the given id. */
  private static InodeRow row(int n, long id) {
    InodeRow r = SampleRows.inPartition(T, SampleRows.typical(T, 1), 3L);
    r = SampleRows.with(T, r, "parent_id", 3L);
    r = SampleRows.with(T, r, "name", "n" + n);
    return SampleRows.with(T, r, "id", id);
  }

  private List<InodeRow> byId(long id) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.findByIndex(T, "id", id, LockMode.READ_COMMITTED);
    }
  }

  private AccessCounts commit(InodeRow... rows) throws Exception {
    try (Transaction tx = storage.begin()) {
      for (InodeRow r : rows) {
        tx.insert(T, r);
      }
      tx.commit();
      return tx.accessCounts();
    }
  }
}
