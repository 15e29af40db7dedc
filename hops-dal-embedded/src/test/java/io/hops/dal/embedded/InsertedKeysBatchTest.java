package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction that reads once and inserts many rows below their table's high-water mark reads the
 * rows of those keys in one batch before its writes ({@code CommitBatch}'s prefetch), as a full
 * report's new replica rows are read: an insert-if-absent must still keep every row that is there
 * and add every one that is not, with one index entry each, and a plain insert of a key that is
 * there must still be refused with nothing written. The rows lie in table files and the memtable.
 */
class InsertedKeysBatchTest {
  private static final int BLOCKS = 1_000;
  private static final long FILE = 7;

  @TempDir Path dir;

  @Test
  void aBigBatchOfInsertsBelowTheMarkKeepsWhatIsThereAndAddsTheRest() throws Exception {
    try (Storage s = open()) {
      try (Transaction tx = s.begin()) {
        for (int b = 0; b < BLOCKS; b++) {
          tx.insert(ReplicaRow.TABLE, new ReplicaRow(FILE, b, 1, 0));
        }
        // A replica of a later file: the table's mark lies above every key of FILE.
        tx.insert(ReplicaRow.TABLE, new ReplicaRow(FILE + 2, 0, 1, 0));
        tx.commit();
      }
      flush(s);
      try (Transaction tx = s.begin()) {
        for (int b = 0; b < BLOCKS; b += 2) {
          tx.insert(ReplicaRow.TABLE, new ReplicaRow(FILE, b, 2, 0)); // in the memtable
        }
        tx.commit();
      }
      try (Transaction tx = s.begin()) {
        tx.readOnce();
        for (int b = 0; b < BLOCKS; b++) {
          tx.insertIfAbsent(ReplicaRow.TABLE, new ReplicaRow(FILE, b, 2, 5));
        }
        tx.commit();
      }
      try (Transaction tx = s.begin()) {
        List<ReplicaRow> onTwo =
            tx.findByIndex(ReplicaRow.TABLE, "storage_id", 2, LockMode.READ_COMMITTED);
        assertThat(onTwo).hasSize(BLOCKS);
        for (ReplicaRow r : onTwo) {
          assertThat(r.replicaIndex())
              .as("block %d", r.blockId())
              .isEqualTo(r.blockId() % 2 == 0 ? 0 : 5);
        }
        assertThat(tx.findByIndex(ReplicaRow.TABLE, "storage_id", 1, LockMode.READ_COMMITTED))
            .hasSize(BLOCKS + 1);
      }

      assertThatThrownBy(
              () -> {
                try (Transaction tx = s.begin()) {
                  tx.readOnce();
                  for (int b = BLOCKS; b < BLOCKS + 400; b++) {
                    tx.insert(ReplicaRow.TABLE, new ReplicaRow(FILE, b, 3, 0));
                  }
                  tx.insert(ReplicaRow.TABLE, new ReplicaRow(FILE, 600, 1, 9)); // there
                  tx.commit();
                }
              })
          .isInstanceOf(DuplicateKeyException.class);
      try (Transaction tx = s.begin()) {
        assertThat(tx.findByIndex(ReplicaRow.TABLE, "storage_id", 3, LockMode.READ_COMMITTED))
            .isEmpty();
        assertThat(tx.find(ReplicaRow.TABLE, ReplicaRow.TABLE.key(FILE, 600L, 1), LockMode.SHARED))
            .isEqualTo(new ReplicaRow(FILE, 600, 1, 0));
      }
    }
  }

  private static void flush(Storage s) throws Exception {
    ((EmbeddedStorage) s)
        .store()
        .use(
            "test",
            db -> {
              try (org.rocksdb.FlushOptions f =
                  new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
                db.flush(f);
              }
              return null;
            });
  }

  private Storage open() throws Exception {
    Storage s =
        Storages.open(
            DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString()))
                .with(HopsConfig.EMBEDDED_ROW_CACHE_ENTRIES, 0));
    s.schema().createOrUpgrade();
    return s;
  }
}
