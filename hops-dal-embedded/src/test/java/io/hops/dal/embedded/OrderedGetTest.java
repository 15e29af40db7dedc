package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

/**
 * A big batch of point reads goes through one iterator in key order ({@link
 * PointReads#orderedGet}): it must answer exactly what {@code multiGetAsList} answers, aligned with
 * the keys as asked, whether they are close together or far apart, sorted or not, named twice,
 * before the first key or past the last, deleted, overwritten, in the memtable or in table files.
 */
class OrderedGetTest {
  @TempDir Path dir;

  @Test
  void answersWhatMultiGetAnswersForEveryShapeOfBatch() throws Exception {
    Random random = new Random(42);
    try (Options options = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(options, dir.toString());
        WriteOptions write = new WriteOptions();
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      // Every third key of 30,000: in a table file, then some deleted and some overwritten in
      // later table files and in the memtable.
      for (long k = 0; k < 30_000; k += 3) {
        db.put(write, key(k), value(k, 0));
      }
      db.flush(flush);
      for (long k = 0; k < 30_000; k += 3) {
        if (random.nextInt(10) == 0) {
          db.delete(write, key(k));
        } else if (random.nextInt(10) == 0) {
          db.put(write, key(k), value(k, 1));
        }
      }
      db.flush(flush);
      for (long k = 1; k < 30_000; k += 97) {
        db.put(write, key(k), value(k, 2)); // new keys between the old ones, in the memtable
      }
      for (long k = 0; k < 30_000; k += 301) {
        db.delete(write, key(k));
      }

      List<List<byte[]>> batches = new ArrayList<>();
      batches.add(range(0, 3_000, 1)); // dense, sorted
      batches.add(range(-500, 600, 1)); // from before the first key
      batches.add(range(29_000, 31_000, 1)); // past the last key
      batches.add(range(0, 30_000, 97)); // sparse: a seek each
      List<byte[]> shuffled = range(5_000, 8_000, 2);
      shuffled.addAll(range(6_000, 6_400, 1)); // named twice
      Collections.shuffle(shuffled, random);
      batches.add(shuffled);
      List<byte[]> randomKeys = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        randomKeys.add(key(random.nextInt(40_000) - 5_000));
      }
      batches.add(randomKeys);
      batches.add(range(40_000, 40_300, 1)); // none there

      for (List<byte[]> keys : batches) {
        List<byte[]> expected = db.multiGetAsList(keys);
        List<byte[]> actual = PointReads.orderedGet(db, keys);
        assertThat(actual).hasSameSizeAs(keys);
        int found = 0;
        for (int i = 0; i < keys.size(); i++) {
          assertThat(actual.get(i)).as("key %d of the batch", i).isEqualTo(expected.get(i));
          found += expected.get(i) == null ? 0 : 1;
        }
        if (keys != batches.get(batches.size() - 1)) {
          assertThat(found).as("a batch that finds rows").isPositive();
        }
      }
    }
  }

  private static List<byte[]> range(long from, long to, long step) {
    List<byte[]> keys = new ArrayList<>();
    for (long k = from; k < to; k += step) {
      keys.add(key(k));
    }
    return keys;
  }

  /** Big-endian with the sign flipped: unsigned byte order is numeric order. */
  private static byte[] key(long k) {
    return ByteBuffer.allocate(9).put((byte) 7).putLong(k ^ Long.MIN_VALUE).array();
  }

  private static byte[] value(long k, int generation) {
    return ("v" + k + "." + generation).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
