package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.KeyMayExist;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * A store larger than its block cache has table files whose index blocks are not in the cache (all
 * but the newest files' are evicted in turn). There, RocksDB's {@code keyMayExist} reports every
 * key found with an empty value (facebook/rocksdb#12921): a point read that took that for the row
 * decoded zero bytes, which stopped a 10,000,000-file namespace's build after about 2 M files
 * (issue 59). Here the cache keeps nothing, so every lookup in a table file meets it.
 */
class UncachedIndexBlockTest {
  static {
    RocksDB.loadLibrary();
  }

  private static final StoredTable<InodeRow> T = StoredTable.of(InodeRow.TABLE);

  @TempDir Path dir;

  @Test
  void pointReadsInTableFilesWhoseIndexIsNotCachedFindTheRowOrNothing() throws Exception {
    InodeRow row = SampleRows.typical(InodeRow.TABLE, 1);
    InodeRow first = SampleRows.with(InodeRow.TABLE, row, "name", "a");
    InodeRow last = SampleRows.with(InodeRow.TABLE, row, "name", "c");
    // Between the two in key order: the file's key range does not rule it out.
    byte[] absentKey = T.rowKey(SampleRows.with(InodeRow.TABLE, row, "name", "b"));
    try (LRUCache nothingKept = new LRUCache(0);
        Options options = RocksOptions.of(Env.getDefault(), 1 << 20, false, nothingKept);
        RocksDB db = RocksDB.open(options, dir.toString())) {
      db.put(T.rowKey(first), T.codec.encode(first));
      db.put(T.rowKey(last), T.codec.encode(last));
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        db.flush(flush);
      }
      // Into the last level, whose files' index blocks are not pinned in the cache.
      db.compactRange();

      // What RocksDB answers there, for a key the file holds and one it does not.
      assertThat(keyMayExist(db, T.rowKey(first))).isEqualTo("kExistsWithValue, 0 bytes");
      assertThat(keyMayExist(db, absentKey)).isEqualTo("kExistsWithValue, 0 bytes");

      assertThat(T.codec.decode(PointReads.pointRead(db, T.rowKey(first)))).isEqualTo(first);
      assertThat(T.codec.decode(PointReads.pointRead(db, T.rowKey(last)))).isEqualTo(last);
      assertThat(PointReads.pointRead(db, absentKey)).isNull();
    }
  }

  private static String keyMayExist(RocksDB db, byte[] key) {
    ByteBuffer k = ByteBuffer.allocateDirect(key.length).put(key).flip();
    KeyMayExist found = db.keyMayExist(k, ByteBuffer.allocateDirect(1 << 10));
    return found.exists + ", " + found.valueLength + " bytes";
  }
}
