package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point reads ask RocksDB whether a key may exist before they read it: they must find every row and
 * no deleted one wherever the store keeps it, in the memtable, in table files not yet in the block
 * cache (a reopened store flushes its log into table files) and in the block cache, and whether the
 * key was never written or has a delete marker. The row cache is off, so every read reaches the
 * store.
 */
class PointReadTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;

  @TempDir Path dir;

  @Test
  void pointReadsFindEveryRowAndNoDeletedOneInMemoryAndInTableFiles() throws Exception {
    List<InodeRow> kept = new ArrayList<>();
    List<InodeRow> deleted = new ArrayList<>();
    List<InodeRow> updated = new ArrayList<>();
    for (int i = 1; i <= 60; i++) {
      InodeRow row = SampleRows.typical(T, i);
      (i % 3 == 0 ? deleted : i % 3 == 1 ? kept : updated).add(row);
    }
    List<InodeRow> afterUpdate =
        updated.stream().map(r -> SampleRows.with(T, r, "size", 4242L + r.id())).toList();
    List<Key> neverWritten = new ArrayList<>();
    for (int i = 1000; i < 1020; i++) {
      neverWritten.add(T.keyOf(SampleRows.typical(T, i)));
    }
    try (Storage s = open()) {
      try (Transaction tx = s.begin()) {
        for (List<InodeRow> rows : List.of(kept, deleted, updated)) {
          for (InodeRow r : rows) {
            tx.insert(T, r);
          }
        }
        tx.commit();
      }
      try (Transaction tx = s.begin()) {
        for (InodeRow r : deleted) {
          tx.delete(T, T.keyOf(r));
        }
        for (InodeRow r : afterUpdate) {
          tx.update(T, r);
        }
        tx.commit();
      }
      assertReads(s, kept, afterUpdate, deleted, neverWritten); // from the memtable
    }
    try (Storage s = open()) {
      assertReads(s, kept, afterUpdate, deleted, neverWritten); // table files, cold
      assertReads(s, kept, afterUpdate, deleted, neverWritten); // table files, blocks cached
    }
  }

  @Test
  void keysLongerThanTheReadBufferAreReadToo() throws Exception {
    // A lease holder of 1,000 characters, escaped in the key: longer than a thread's first 1 KB
    // key buffer, which then grows.
    LeaseRow longest = new LeaseRow("h".repeat(990) + "\u0000\u0001", 7, 1);
    LeaseRow shorter = new LeaseRow("h".repeat(500), 8, 2);
    try (Storage s = open()) {
      try (Transaction tx = s.begin()) {
        tx.insert(LeaseRow.TABLE, longest);
        tx.insert(LeaseRow.TABLE, shorter);
        tx.commit();
      }
      try (Transaction tx = s.begin()) {
        assertThat(find(tx, longest.holder())).isEqualTo(longest);
        assertThat(find(tx, shorter.holder())).isEqualTo(shorter);
        assertThat(find(tx, "h".repeat(1200))).isNull();
      }
    }
  }

  private static LeaseRow find(Transaction tx, String holder) throws Exception {
    return tx.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.READ_COMMITTED);
  }

  private Storage open() throws Exception {
    Storage s =
        Storages.open(
            DalConfig.of(java.util.Map.of(HopsConfig.EMBEDDED_DIR, dir.toString()))
                .with(HopsConfig.EMBEDDED_ROW_CACHE_ENTRIES, 0));
    s.schema().createOrUpgrade();
    return s;
  }

  private static void assertReads(
      Storage s,
      List<InodeRow> kept,
      List<InodeRow> updated,
      List<InodeRow> deleted,
      List<Key> neverWritten)
      throws Exception {
    try (Transaction tx = s.begin()) {
      for (InodeRow r : kept) {
        assertThat(tx.find(T, T.keyOf(r), LockMode.READ_COMMITTED)).isEqualTo(r);
      }
      for (InodeRow r : updated) {
        assertThat(tx.find(T, T.keyOf(r), LockMode.SHARED)).isEqualTo(r);
      }
      for (InodeRow r : deleted) {
        assertThat(tx.find(T, T.keyOf(r), LockMode.READ_COMMITTED)).isNull();
      }
      for (Key k : neverWritten) {
        assertThat(tx.find(T, k, LockMode.EXCLUSIVE)).isNull();
      }
      tx.commit();
    }
  }
}
