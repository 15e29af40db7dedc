package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/** A batch serialized in Java is the batch RocksDB builds itself, and writes what it says. */
class BatchBytesTest {
  @TempDir Path dir;

  @Test
  void serializesAsRocksDbDoes() throws Exception {
    BatchBytes ours = new BatchBytes();
    try (WriteBatch theirs = new WriteBatch()) {
      for (int i = 0; i < 300; i++) {
        // Lengths across the one- and two-byte varints, and an empty value.
        byte[] key = bytes("k" + "x".repeat(i));
        byte[] value = i % 7 == 0 ? new byte[0] : bytes("v".repeat(i * 3));
        ours.put(key, value);
        theirs.put(key, value);
        if (i % 5 == 0) {
          ours.delete(key);
          theirs.delete(key);
        }
        if (i % 11 == 0) {
          byte[] end = bytes("k" + "x".repeat(i + 1));
          ours.deleteRange(key, end);
          theirs.deleteRange(key, end);
        }
      }
      assertThat(ours.count()).isEqualTo(theirs.count());
      assertThat(ours.toByteArray()).isEqualTo(theirs.data());
    }
  }

  @Test
  void writesItsPutsDeletesAndRangeDeletes() throws Exception {
    BatchBytes batch = new BatchBytes();
    batch.put(bytes("a"), bytes("1"));
    batch.put(bytes("b"), new byte[200]);
    batch.put(bytes("c"), bytes("3"));
    batch.delete(bytes("c"));
    batch.delete(bytes("never"));
    batch.deleteRange(bytes("r1"), bytes("r3"));
    try (Options options = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(options, dir.toString());
        WriteOptions write = new WriteOptions();
        WriteBatch rocks = batch.toWriteBatch()) {
      db.put(bytes("c"), bytes("old"));
      for (String k : new String[] {"r", "r1", "r10", "r2", "r29", "r3"}) {
        db.put(bytes(k), bytes("old"));
      }
      db.write(write, rocks);
      assertThat(db.get(bytes("a"))).isEqualTo(bytes("1"));
      assertThat(db.get(bytes("b"))).isEqualTo(new byte[200]);
      assertThat(db.get(bytes("c"))).isNull();
      assertThat(db.get(bytes("never"))).isNull();
      // From the range's first key up to its end, not included.
      for (String gone : new String[] {"r1", "r10", "r2", "r29"}) {
        assertThat(db.get(bytes(gone))).as(gone).isNull();
      }
      assertThat(db.get(bytes("r"))).isEqualTo(bytes("old"));
      assertThat(db.get(bytes("r3"))).isEqualTo(bytes("old"));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
