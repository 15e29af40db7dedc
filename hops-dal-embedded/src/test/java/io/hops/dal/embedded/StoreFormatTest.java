package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Storages;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/** A store written in another on-disk format is refused at open, with what to do about it. */
class StoreFormatTest {
  @TempDir Path tmp;

  @Test
  void aStoreOfAnotherFormatIsRefusedClearly() throws Exception {
    Path dir = tmp.resolve("store");
    try (Storage storage = open(dir)) {
      storage.schema().createOrUpgrade();
    }
    // The same store, reopened: its format is this code's.
    try (Storage storage = open(dir)) {
      assertThat(storage.schema().createOrUpgrade()).isEmpty();
    }
    RocksDB.loadLibrary();
    try (Options options = new Options();
        RocksDB db = RocksDB.open(options, dir.toString())) {
      db.put(KeyLayout.FORMAT_KEY, "rocksdb-1".getBytes(StandardCharsets.UTF_8));
    }
    assertThatThrownBy(() -> open(dir).close())
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("written in format rocksdb-1")
        .hasMessageContaining("bin/hops format");
  }

  private static Storage open(Path dir) throws StorageException {
    return Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString())));
  }
}
