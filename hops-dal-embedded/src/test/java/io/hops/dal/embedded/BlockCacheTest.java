package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;

/**
 * The stores of one process share one block cache of {@link RocksOptions#BLOCK_CACHE_BYTES}, not
 * RocksDB's default of 8 MB each: blocks one store reads take room the other store sees taken.
 */
class BlockCacheTest {
  @TempDir Path first;
  @TempDir Path second;

  @Test
  void storesShareOneBlockCacheOfTheConfiguredSize() throws Exception {
    try (RocksStore a = RocksStore.openDirectory(first, false, 1_000, CacheBounds.of(1 << 20));
        RocksStore b = RocksStore.openDirectory(second, false, 1_000, CacheBounds.of(1 << 20))) {
      assertThat(property(a, "rocksdb.block-cache-capacity"))
          .isEqualTo(RocksOptions.BLOCK_CACHE_BYTES);
      assertThat(property(b, "rocksdb.block-cache-capacity"))
          .isEqualTo(RocksOptions.BLOCK_CACHE_BYTES);

      // Table files of a's, read once from disk into the cache.
      byte[] value = new byte[1_000];
      a.use(
          "write and flush",
          db -> {
            for (int i = 0; i < 2_000; i++) {
              db.put(key(i), value);
            }
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
              db.flush(flush);
            }
            return null;
          });
      long before = property(b, "rocksdb.block-cache-usage");
      a.use(
          "read",
          db -> {
            for (int i = 0; i < 2_000; i++) {
              assertThat(db.get(key(i))).hasSize(value.length);
            }
            return null;
          });
      // Two thousand rows of a kilobyte are about 2 MB of blocks, now in the cache b uses too.
      assertThat(property(b, "rocksdb.block-cache-usage")).isGreaterThan(before + 1_000_000);
      assertThat(property(b, "rocksdb.block-cache-usage"))
          .isEqualTo(property(a, "rocksdb.block-cache-usage"));
    }
  }

  private static byte[] key(int i) {
    return String.format("k-%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static long property(RocksStore store, String name) throws Exception {
    return store.use(name, (RocksDB db) -> db.getLongProperty(name));
  }
}
