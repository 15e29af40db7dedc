package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.DalConfig;
import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code inodes.id} is a unique index: no two rows share an id, whether they meet in one
 * transaction, across transactions, or in two racing ones; a rename (delete the row, insert it
 * under a new key with the same id) is fine.
 */
class UniqueIndexTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private Storage storage;

  @BeforeEach
  void open() throws Exception {
    storage = Storages.open(DalConfig.embeddedInMemory("unique-" + UUID.randomUUID()));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void aSecondRowWithACommittedIdIsRefused() throws Exception {
    commit(row(1, 500));
    assertThatThrownBy(() -> commit(row(2, 500))).isInstanceOf(DuplicateKeyException.class);
    assertThat(byId(500)).extracting(InodeRow::name).containsExactly(row(1, 500).name());
  }

  @Test
  void twoRowsWithOneIdInOneTransactionAreRefused() throws Exception {
    assertThatThrownBy(() -> commit(row(1, 600), row(2, 600)))
        .isInstanceOf(DuplicateKeyException.class);
    assertThat(byId(600)).isEmpty();
  }

  @Test
  void anUpdateOntoAnotherRowsIdIsRefused() throws Exception {
    commit(row(1, 700), row(2, 701));
    try (Transaction tx = storage.begin()) {
      tx.update(T, row(2, 700));
      assertThatThrownBy(tx::commit).isInstanceOf(DuplicateKeyException.class);
    }
    assertThat(byId(701)).hasSize(1);
  }

  @Test
  void aRenameKeepsItsIdUnderANewKey() throws Exception {
    InodeRow before = row(1, 800);
    commit(before);
    InodeRow after = row(2, 800);
    try (Transaction tx = storage.begin()) {
      tx.delete(T, before);
      tx.insert(T, after);
      tx.commit();
    }
    assertThat(byId(800)).extracting(InodeRow::name).containsExactly(after.name());
  }

  @Test
  void ofTwoRacingInsertsOfOneIdExactlyOneCommits() throws Exception {
    for (int round = 0; round < 20; round++) {
      long id = 900L + round;
      CyclicBarrier start = new CyclicBarrier(2);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<Boolean>> outcomes = new ArrayList<>();
        for (int n = 1; n <= 2; n++) {
          InodeRow r = row(100 * round + n, id);
          Callable<Boolean> insert =
              () -> {
                try (Transaction tx = storage.begin()) {
                  tx.insert(T, r);
                  start.await();
                  tx.commit();
                  return true;
                } catch (DuplicateKeyException e) {
                  return false;
                }
              };
          outcomes.add(pool.submit(insert));
        }
        assertThat(List.of(outcomes.get(0).get(), outcomes.get(1).get()))
            .containsExactlyInAnyOrder(true, false);
        assertThat(byId(id)).hasSize(1);
      } finally {
        pool.shutdownNow();
      }
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

  private void commit(InodeRow... rows) throws Exception {
    try (Transaction tx = storage.begin()) {
      for (InodeRow r : rows) {
        tx.insert(T, r);
      }
      tx.commit();
    }
  }
}
