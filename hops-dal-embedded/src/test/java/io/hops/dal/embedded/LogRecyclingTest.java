package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.FlushOptions;
import org.rocksdb.LogFile;
import org.rocksdb.WriteBatch;

/**
 * A store on disk writes a new write-ahead log over the file of one whose memtable was flushed, so
 * that a sync of the log does not also write the file's metadata (its size, its new blocks).
 */
class LogRecyclingTest {
  @TempDir Path dir;

  @Test
  void aNewLogIsWrittenOverTheFileOfAFlushedOne() throws Exception {
    try (RocksStore store = RocksStore.openDirectory(dir, true, 1_000, CacheBounds.of(1 << 20))) {
      Set<Object> firstLogs = new HashSet<>();
      Path live = writeOverAFlushedLog(store, dir, firstLogs::addAll);
      // The third log, of one small record, is written over the first log's file: the same file,
      // as long as it was, not a new one.
      assertThat(firstLogs).contains(inode(live));
      assertThat(Files.size(live)).isGreaterThan(BIG);
    }
    // A reopen replays the reused log: its old records are not taken for new ones.
    try (RocksStore store = RocksStore.openDirectory(dir, true, 1_000, CacheBounds.of(1 << 20))) {
      for (int i = 1; i <= 3; i++) {
        byte[] key = key(i);
        byte[] value = store.use("read", db -> db.get(key));
        assertThat(value).hasSize(i == 1 ? BIG : 10);
      }
    }
  }

  /**
   * A new store's logs are written out before its first commit: its first commits write over a log
   * file of a flushed memtable's size, whose size they do not change, and the key that wrote it is
   * gone.
   */
  @Test
  void aNewStoreWritesItsLogsOutBeforeItsFirstCommit() throws Exception {
    try (RocksStore store = RocksStore.openDirectory(dir, true, 1_000, CacheBounds.of(1 << 20))) {
      java.util.Map<Object, Long> logs = logSizes(dir);
      assertThat(logs.values())
          .isNotEmpty()
          .allSatisfy(
              size -> assertThat(size).isGreaterThanOrEqualTo(RocksOptions.WRITE_BUFFER_BYTES));
      assertThat(Files.size(liveLog(store, dir)))
          .isGreaterThanOrEqualTo(RocksOptions.WRITE_BUFFER_BYTES);
      for (int i = 1; i <= 200; i++) {
        write(store, i, 1000);
      }
      // The same files, of the same sizes: the commits were written over a preallocated log.
      assertThat(logSizes(dir)).isEqualTo(logs);
      assertThat((int) store.use("keys", LogRecyclingTest::countKeys)).isEqualTo(200);
    }
    // The reused log replays: every commit is there after a reopen.
    try (RocksStore store = RocksStore.openDirectory(dir, true, 1_000, CacheBounds.of(1 << 20))) {
      assertThat((int) store.use("keys", LogRecyclingTest::countKeys)).isEqualTo(200);
    }
  }

  /** The store's log files: size by inode. */
  private static java.util.Map<Object, Long> logSizes(Path dir) throws IOException {
    java.util.Map<Object, Long> sizes = new java.util.HashMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path log : files.filter(f -> f.toString().endsWith(".log")).toList()) {
        sizes.put(inode(log), Files.size(log));
      }
    }
    return sizes;
  }

  private static int countKeys(org.rocksdb.RocksDB db) {
    int n = 0;
    try (org.rocksdb.RocksIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        n++;
      }
    }
    return n;
  }

  static final int BIG = 1 << 20;

  /**
   * Writes a big record, flushes, a small one, flushes, a small one: the live log is then the first
   * log's file written over, if logs are recycled. Hands the first log's inodes to {@code
   * firstLogs}; returns the live log.
   */
  static Path writeOverAFlushedLog(
      RocksStore store, Path dir, java.util.function.Consumer<Set<Object>> firstLogs)
      throws Exception {
    write(store, 1, BIG);
    firstLogs.accept(logInodes(dir));
    flush(store);
    write(store, 2, 10);
    flush(store);
    write(store, 3, 10);
    return liveLog(store, dir);
  }

  private static void write(RocksStore store, int i, int bytes) throws Exception {
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(key(i), new byte[bytes]);
      store.commit("write " + i, batch);
    }
  }

  private static byte[] key(int i) {
    return ("\u0007recycling-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static void flush(RocksStore store) throws Exception {
    try (FlushOptions wait = new FlushOptions().setWaitForFlush(true)) {
      store.use(
          "flush",
          db -> {
            db.flush(wait);
            return null;
          });
    }
  }

  private static Path liveLog(RocksStore store, Path dir) throws Exception {
    List<LogFile> logs = store.use("logs", db -> db.getSortedWalFiles());
    long number = logs.get(logs.size() - 1).logNumber();
    return dir.resolve(String.format("%06d.log", number));
  }

  private static Set<Object> logInodes(Path dir) throws IOException {
    Set<Object> inodes = new HashSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path log : files.filter(f -> f.toString().endsWith(".log")).toList()) {
        inodes.add(inode(log));
      }
    }
    return inodes;
  }

  private static Object inode(Path file) {
    try {
      return Files.getAttribute(file, "unix:ino");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
