package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.CompactionStyle;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

/**
 * The store compacts universally: flushed memtables wait in level 0 as sorted runs until {@link
 * RocksOptions#LEVEL0_COMPACTION_TRIGGER} of them are there, and are then merged, not compacted
 * level by level; the metrics show the sorted runs a scan merges.
 */
class Level0CompactionTest {
  private static final int ROCKSDB_DEFAULT_TRIGGER = 4;

  @TempDir Path dir;

  @Test
  void theStoreCompactsUniversally() throws Exception {
    try (RocksStore store = RocksStore.openDirectory(dir, false, 1_000, CacheBounds.of(1 << 20))) {
      assertThat(store.compactionStyle()).isEqualTo(CompactionStyle.UNIVERSAL);
    }
  }

  /**
   * A store written with leveled compaction (before stop 42), its keys compacted into the levels
   * below level 0, opens as it is: each level is a sorted run, which universal compaction takes
   * over, and every key is read back.
   */
  @Test
  void aStoreWrittenWithLeveledCompactionOpens() throws Exception {
    try (Options leveled =
            new Options().setCreateIfMissing(true).setCompactionStyle(CompactionStyle.LEVEL);
        RocksDB db = RocksDB.open(leveled, dir.toString())) {
      for (int i = 0; i < 1_000; i++) {
        db.put(key(i), key(i));
      }
      db.compactRange();
      assertThat(db.getProperty("rocksdb.num-files-at-level0").trim()).isEqualTo("0");
    }
    try (RocksStore store = RocksStore.openDirectory(dir, false, 1_000, CacheBounds.of(1 << 20))) {
      for (int i = 0; i < 1_000; i++) {
        byte[] k = key(i);
        assertThat(store.use("read", (RocksDB db) -> db.get(k))).isEqualTo(k);
      }
    }
  }

  private static byte[] key(int i) {
    return String.format("k-%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void flushedMemtablesWaitForTheTriggerBeforeACompaction() throws Exception {
    try (RocksStore store = RocksStore.openDirectory(dir, false, 1_000, CacheBounds.of(1 << 20))) {
      int waiting = RocksOptions.LEVEL0_COMPACTION_TRIGGER - 1;
      assertThat(waiting).isGreaterThanOrEqualTo(ROCKSDB_DEFAULT_TRIGGER);
      awaitNoCompaction(store);
      // A new store starts with the files of its logs' preallocation.
      int before = level0Files(store);
      assertThat(before).isLessThan(waiting);
      for (int i = before; i < waiting; i++) {
        flushOneKey(store, i);
        awaitNoCompaction(store);
      }
      // RocksDB's default trigger would have compacted them by now.
      assertThat(level0Files(store)).isEqualTo(waiting);

      flushOneKey(store, waiting);
      // At the trigger, a compaction merges them (into a lower level, or fewer level-0 files).
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (level0Files(store) >= RocksOptions.LEVEL0_COMPACTION_TRIGGER
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(level0Files(store)).isLessThan(RocksOptions.LEVEL0_COMPACTION_TRIGGER);
    }
  }

  /**
   * The metrics' shape of the store counts the sorted runs a scan merges: one for a compacted
   * store, one more for each flushed memtable waiting in level 0.
   */
  @Test
  void theShapeCountsTheSortedRunsAScanMerges() throws Exception {
    try (RocksStore store = RocksStore.openDirectory(dir, false, 1_000, CacheBounds.of(1 << 20))) {
      awaitNoCompaction(store);
      flushOneKey(store, 0);
      store.use(
          "compact",
          db -> {
            db.compactRange();
            return null;
          });
      awaitNoCompaction(store);
      assertThat(level0Files(store)).isZero();
      Map<String, Long> compacted = store.shape();
      assertThat(compacted.get("RocksSortedRuns")).isEqualTo(1);
      assertThat(compacted.get("RocksUnflushedMemtables")).isZero();
      assertThat(compacted.get("RocksTableFileBytes")).isPositive();

      int waiting = 3;
      assertThat(waiting).isLessThan(RocksOptions.LEVEL0_COMPACTION_TRIGGER);
      for (int i = 1; i <= waiting; i++) {
        flushOneKey(store, i);
      }
      awaitNoCompaction(store);
      Map<String, Long> flushed = store.shape();
      assertThat(flushed.get("RocksSortedRuns")).isEqualTo(1 + waiting);
      assertThat(flushed.get("RocksTableFileBytes"))
          .isGreaterThan(compacted.get("RocksTableFileBytes"));
      assertThat(flushed.get("RocksPendingCompactionBytes")).isNotNegative();
    }
  }

  private static void flushOneKey(RocksStore store, int i) throws Exception {
    // Every file spans the same range (as a memtable of commits to every table does), so a
    // compaction takes them all.
    byte[] first = ("a-" + i).getBytes(StandardCharsets.UTF_8);
    byte[] last = ("z-" + i).getBytes(StandardCharsets.UTF_8);
    store.use(
        "flush",
        db -> {
          try (WriteOptions write = new WriteOptions();
              FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.put(write, first, first);
            db.put(write, last, last);
            db.flush(flush);
          }
          return null;
        });
  }

  /** Waits until no compaction is running or due. */
  private static void awaitNoCompaction(RocksStore store) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    // A compaction is scheduled right after the flush that makes it due; give it a moment first.
    Thread.sleep(50);
    while (property(store, "rocksdb.compaction-pending") > 0
        || property(store, "rocksdb.num-running-compactions") > 0) {
      assertThat(System.nanoTime()).as("compactions still running").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static int level0Files(RocksStore store) throws Exception {
    return property(store, "rocksdb.num-files-at-level0");
  }

  private static int property(RocksStore store, String name) throws Exception {
    return Integer.parseInt(store.use(name, (RocksDB db) -> db.getProperty(name)).trim());
  }
}
