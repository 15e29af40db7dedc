package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.BulkLoad;
import io.hops.dal.DalConfig;
import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows of a bulk load read back as the same rows inserted by transactions would (by key, by
 * partition, by index, counted), and the store's marks and caches learn them: a transaction's
 * insert of a loaded key or of a loaded unique value is refused, a key read absent before the load
 * is found after it.
 */
class EmbeddedBulkLoadTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;

  @Test
  void bulkLoadedRowsReadBackAsTransactionalInsertsDo() throws Exception {
    List<InodeRow> rows = rows(1_000, 30, 5_000);
    try (Storage bulk = inMemory();
        Storage tx = inMemory()) {
      try (BulkLoad load = bulk.bulkLoad().orElseThrow()) {
        for (InodeRow r : rows.subList(0, 600)) {
          load.insert(T, r);
        }
        load.flush();
        for (InodeRow r : rows.subList(600, rows.size())) {
          load.insert(T, r);
        }
        load.flush();
      }
      insert(tx, rows);
      for (Storage s : List.of(bulk, tx)) {
        try (Transaction t = s.begin()) {
          assertThat(t.countAll(T)).isEqualTo(rows.size());
          assertThat(sorted(t.scanAll(T, LockMode.READ_COMMITTED))).isEqualTo(sorted(rows));
          for (InodeRow r : rows) {
            assertThat(t.find(T, T.keyOf(r), LockMode.READ_COMMITTED)).isEqualTo(r);
            assertThat(t.findByIndex(T, "id", r.id(), LockMode.READ_COMMITTED)).containsExactly(r);
          }
          for (long p = 5_000; p < 5_030; p++) {
            long partition = p;
            assertThat(t.findByPartition(T, partition, LockMode.READ_COMMITTED))
                .containsExactlyElementsOf(
                    rows.stream()
                        .filter(r -> r.partitionId() == partition)
                        .sorted(Comparator.comparing(InodeRow::name))
                        .toList());
          }
        }
      }
    }
  }

  @Test
  void aLoadedKeyOrIdIsTakenForTransactionsAfterTheLoad() throws Exception {
    try (Storage s = inMemory()) {
      // The table's and the id index's marks are learnt below the load's keys first.
      InodeRow low = row(1, 10, 1);
      insert(s, List.of(low));
      try (Transaction t = s.begin()) {
        assertThat(t.find(T, T.keyOf(row(7, 9_007, 70_000)), LockMode.READ_COMMITTED)).isNull();
      }
      List<InodeRow> loaded = rows(100, 10, 9_000);
      try (BulkLoad load = s.bulkLoad().orElseThrow()) {
        for (InodeRow r : loaded) {
          load.insert(T, r);
        }
        load.flush();
      }
      InodeRow last = loaded.get(loaded.size() - 1);
      assertThatThrownBy(() -> insert(s, List.of(SampleRows.with(T, last, "id", 123_456L))))
          .isInstanceOf(DuplicateKeyException.class);
      InodeRow otherKeySameId = SampleRows.with(T, row(1, 10, 1), "name", "other");
      assertThatThrownBy(
              () -> insert(s, List.of(SampleRows.with(T, otherKeySameId, "id", last.id()))))
          .isInstanceOf(DuplicateKeyException.class);
      try (Transaction t = s.begin()) {
        // Read absent before the load: the caches started over.
        assertThat(t.find(T, T.keyOf(row(7, 9_007, 70_000)), LockMode.READ_COMMITTED))
            .isEqualTo(loaded.get(7));
        assertThat(t.find(T, T.keyOf(last), LockMode.READ_COMMITTED)).isEqualTo(last);
      }
    }
  }

  @Test
  void aLoadIntoAStoreOnDiskOutlivesItsReopeningAndLeavesNoStagedFile(@TempDir Path dir)
      throws Exception {
    DalConfig conf = DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString()));
    List<InodeRow> rows = rows(2_000, 50, 20_000);
    try (Storage s = Storages.open(conf)) {
      s.schema().createOrUpgrade();
      try (BulkLoad load = s.bulkLoad().orElseThrow()) {
        for (InodeRow r : rows) {
          load.insert(T, r);
        }
        load.flush();
      }
    }
    try (Storage s = Storages.open(conf);
        Transaction t = s.begin()) {
      assertThat(sorted(t.scanAll(T, LockMode.READ_COMMITTED))).isEqualTo(sorted(rows));
      assertThat(t.findByIndex(T, "id", rows.get(1_234).id(), LockMode.READ_COMMITTED))
          .containsExactly(rows.get(1_234));
    }
    try (var staged = Files.list(dir.resolve("bulk-load"))) {
      assertThat(staged).isEmpty();
    }
  }

  @Test
  void keysLoadedTwiceInOneFlushAreRefused() throws Exception {
    try (Storage s = inMemory();
        BulkLoad load = s.bulkLoad().orElseThrow()) {
      load.insert(T, row(1, 5, 100));
      load.insert(T, SampleRows.with(T, row(1, 5, 100), "id", 101L));
      assertThatThrownBy(load::flush).hasMessageContaining("inodes");
    }
  }

  /** {@code n} rows over {@code partitions} partitions from {@code firstPartition}, ids after. */
  private static List<InodeRow> rows(int n, int partitions, long firstPartition) {
    List<InodeRow> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(row(i, firstPartition + i % partitions, firstPartition * 10 + i));
    }
    return rows;
  }

  private static InodeRow row(int n, long partition, long id) {
    InodeRow r = SampleRows.inPartition(T, SampleRows.typical(T, n), partition);
    r = SampleRows.with(T, r, "parent_id", partition);
    r = SampleRows.with(T, r, "name", "n" + n);
    return SampleRows.with(T, r, "id", id);
  }

  private static List<InodeRow> sorted(List<InodeRow> rows) {
    return rows.stream().sorted(Comparator.comparingLong(InodeRow::id)).toList();
  }

  private static Storage inMemory() throws Exception {
    Storage s = Storages.open(DalConfig.embeddedInMemory("bulk-" + UUID.randomUUID()));
    s.schema().createOrUpgrade();
    return s;
  }

  private static void insert(Storage s, List<InodeRow> rows) throws Exception {
    try (Transaction t = s.begin()) {
      for (InodeRow r : rows) {
        t.insert(T, r);
      }
      t.commit();
    }
  }
}
