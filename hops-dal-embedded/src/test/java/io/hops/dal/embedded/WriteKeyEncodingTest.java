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
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row written after a read under its lock is encoded once: the write's key (a key object of its
 * own, as a row's key is built from the row) takes the row key that the locked read encoded.
 */
class WriteKeyEncodingTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;

  @TempDir Path dir;

  @Test
  void aWriteAfterALockedReadReusesTheReadsRowKey() throws Exception {
    InodeRow row = SampleRows.typical(T, 7);
    try (Storage s = open()) {
      try (Transaction tx = s.begin()) {
        tx.insert(T, row);
        tx.commit();
      }
      Key read = T.keyOf(row);
      Key written = T.keyOf(row);
      Key unread = T.keyOf(SampleRows.typical(T, 8));
      try (Transaction tx = s.begin()) {
        assertThat(tx.find(T, read, LockMode.EXCLUSIVE)).isEqualTo(row);
        tx.delete(T, written);
        tx.delete(T, unread); // no row: deleting it changes nothing, its key is encoded anew
        tx.commit();
      }
      assertThat(read.encoded()).isInstanceOf(KeyBytes.class);
      assertThat(written.encoded()).isSameAs(read.encoded());
      assertThat(unread.encoded()).isInstanceOf(KeyBytes.class);
      try (Transaction tx = s.begin()) {
        assertThat(tx.find(T, T.keyOf(row), LockMode.SHARED)).isNull();
        tx.commit();
      }
    }
  }

  private Storage open() throws Exception {
    Storage s = Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString())));
    s.schema().createOrUpgrade();
    return s;
  }
}
