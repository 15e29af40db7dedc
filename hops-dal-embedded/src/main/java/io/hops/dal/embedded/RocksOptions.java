package io.hops.dal.embedded;

import java.util.Properties;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * The RocksDB options of an embedded store, with the reasons and measurements behind each choice
 * that is not RocksDB's default, and the block cache every store of the process shares.
 */
final class RocksOptions {
  private RocksOptions() {}

  /**
   * The memtable's size, and so about the size a write-ahead log reaches before it is flushed. A
   * commit's keys go into the memtable's skip list, whose insert costs a cache miss per level it
   * walks: a smaller memtable is cheaper to write into (with a profiler on, a rename's inserts cost
   * 6.4 µs at 2 MB, 9 at 8 MB and 14-15 at 64 MB), and with {@link #of universal compaction} the
   * more frequent flushes do not cost a rewrite of a whole level each. Measured with universal
   * compaction on 2 cores, hops alone, {@code
   * raw:create_file,append_file,mkdirs,rename_file,delete_file} in 3 rounds, two runs each, µs of
   * namenode CPU per op over the six rounds against leveled compaction with 64 MB: rename 408
   * against 466, append 800 against 872, mkdirs 345 against 368, delete 1,179 against 1,203, create
   * 934 against 938. With 16 MB, rename's three rounds cost 240 where 8 MB's cost 203 and leveled
   * 64 MB's 245, in one run.
   */
  static final long WRITE_BUFFER_BYTES = 8L << 20;

  /**
   * Sorted runs (flushed memtables, and runs merged from them) that wait before a compaction merges
   * some. Chosen for leveled compaction, where it made a third as many rewrites of the level below
   * as RocksDB's 4, and kept for universal compaction, where fewer merges of larger runs cost less
   * than many small ones. Measured with leveled compaction on 2 cores, hops alone, {@code
   * raw:chmod_file,rename_file,create_file,mkdirs,delete_file}, two interleaved pairs: rename 73.2
   * and 74.0 against 80.9 and 81.3 µs of namenode CPU per op, delete 179 and 155 against 198 and
   * 183, chmod, create and mkdirs within the noise; no compaction in any window but delete's.
   */
  static final int LEVEL0_COMPACTION_TRIGGER = 12;

  /**
   * The uncompressed table blocks the process's stores keep in memory, shared by all of them.
   * RocksDB's own default is 8 MB per store: a walk of a large subtree (a content summary, a
   * delete, a chmod of a directory) over a namespace of a million inodes then read most blocks from
   * the files again and decompressed them: with this cache a content summary of the bench's third
   * round cost a fifth less namenode CPU. The cache fills only as blocks are read, so a small store
   * never takes it all; it is memory outside the heap, besides {@code -Xmx}.
   *
   * <p>It bounds all of RocksDB's memory together: the table blocks, the index and filter blocks of
   * every table file (held there rather than beside it, where they grew with the store: a bloom
   * filter of 10 bits a key is about 1.2 MB a million rows), and the memtables of all stores,
   * charged to it by one {@link #MEMTABLE_BYTES write buffer manager}.
   */
  static final long BLOCK_CACHE_BYTES = 256L << 20;

  /**
   * The memtables of all of the process's stores, charged to the block cache: past it the largest
   * memtable is flushed. Four stores' two memtables of {@link #WRITE_BUFFER_BYTES} fit.
   */
  static final long MEMTABLE_BYTES = 64L << 20;

  /** Flushed write-ahead logs kept to be written over by later ones. */
  static final int LOGS_KEPT_FOR_REUSE = 4;

  /**
   * The space byte, a table name and its first key column's first 8 bytes (an inode's partition).
   */
  static final int HINT_PREFIX_BYTES = 17;

  /**
   * The block cache, made when a store is first opened (after the library is loaded), a tenth of it
   * kept for index and filter blocks, and the write buffer manager that charges memtables to it.
   */
  private static final class SharedBlockCache {
    static final LRUCache CACHE = new LRUCache(BLOCK_CACHE_BYTES, -1, false, 0.1);
    static final WriteBufferManager MEMTABLES = new WriteBufferManager(MEMTABLE_BYTES, CACHE);
  }

  /**
   * RocksDB's memory, for the metrics: what the shared cache holds (blocks, index and filter
   * blocks, memtables' charges) and what of it is pinned (in use, or index and filter blocks of the
   * newest table files).
   */
  static java.util.Map<String, Long> memoryGauges() {
    return java.util.Map.of(
        "RocksCacheBytes",
        SharedBlockCache.CACHE.getUsage(),
        "RocksCachePinnedBytes",
        SharedBlockCache.CACHE.getPinnedUsage());
  }

  /**
   * The store's RocksDB options. With {@code groupSync} (a store whose commits the {@link WalSync}
   * thread makes durable), a commit's log record stays in RocksDB's log buffer until that thread
   * writes the buffer out and syncs it ({@code manual_wal_flush}): one write system call per group
   * instead of one per commit. A commit that syncs the log itself ({@link StoreWrites}) writes the
   * buffer out and syncs it the same way.
   */
  static Options of(Env env, long writeBufferBytes, boolean groupSync) {
    return of(env, writeBufferBytes, groupSync, SharedBlockCache.CACHE);
  }

  /** As {@link #of(Env, long, boolean)}, with table blocks kept in {@code blockCache}. */
  static Options of(Env env, long writeBufferBytes, boolean groupSync, Cache blockCache) {
    return memtableHints()
        .setEnv(env)
        .setCreateIfMissing(true)
        .setWriteBufferSize(writeBufferBytes)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        .setKeepLogFileNum(2)
        .setStatsDumpPeriodSec(0)
        .setMaxBackgroundJobs(2)
        // Universal compaction: flushed memtables are sorted runs, merged with runs of about their
        // own size. Leveled compaction rewrote most of the level below level 0 at each of its
        // compactions (every table's keys are spread over it), which made small memtables dear.
        // The store is small next to the data it describes; universal's larger worst-case space
        // (a full merge needs the store's size again) is cheap here.
        .setCompactionStyle(CompactionStyle.UNIVERSAL)
        // A compaction runs once LEVEL0_COMPACTION_TRIGGER sorted runs wait, not RocksDB's 4;
        // writes slow down and stop as far above it as with RocksDB's defaults (20, 36).
        .setLevel0FileNumCompactionTrigger(LEVEL0_COMPACTION_TRIGGER)
        .setLevel0SlowdownWritesTrigger(LEVEL0_COMPACTION_TRIGGER + 16)
        .setLevel0StopWritesTrigger(LEVEL0_COMPACTION_TRIGGER + 32)
        // A log whose memtable is flushed is kept and written over by a later log, so a sync
        // writes only the log's data: the file neither grows nor gets new blocks, and the disk is
        // not asked to write its metadata too (HDFS preallocates its edit log for the same
        // reason). Point-in-time recovery, RocksDB's default, tells a recycled log's old records
        // from new ones.
        .setRecycleLogFileNum(LOGS_KEPT_FOR_REUSE)
        // Concurrent committers: the next group appends to the log while the previous one is
        // still applied to the memtable.
        .setEnablePipelinedWrite(true)
        .setManualWalFlush(groupSync)
        .setWriteBufferManager(SharedBlockCache.MEMTABLES)
        // A bloom filter over the memtable's whole keys: a point read of a key that is not there
        // (a retry-cache row, a name being created) skips the memtable's skip list.
        .setMemtableWholeKeyFiltering(true)
        .setMemtablePrefixBloomSizeRatio(0.02)
        // A bloom filter per table file: a point read of a missing key (a name being created, a
        // unique value being claimed) skips the files that cannot hold it.
        .setTableFormatConfig(
            new BlockBasedTableConfig()
                .setFilterPolicy(new BloomFilter(10, false))
                .setBlockCache(blockCache)
                // Index and filter blocks in the cache, at high priority, those of the newest
                // files (level 0: most reads look there first) pinned.
                .setCacheIndexAndFilterBlocks(true)
                .setCacheIndexAndFilterBlocksWithHighPriority(true)
                .setPinL0FilterAndIndexBlocksInCache(true));
  }

  /**
   * Options whose memtable remembers, for each key prefix of {@link #HINT_PREFIX_BYTES} bytes,
   * where its last insert went, and starts the next insert of that prefix there rather than at the
   * top of the skip list ({@code memtable_insert_with_hint_prefix_extractor}, settable only by
   * name). The prefix is a table's space and the first key column: an inode's partition, the first
   * bytes of an id in an index, a client's first bytes in the retry cache; the keys a commit writes
   * mostly land next to earlier keys of their prefix (a directory's children, ids that only grow).
   */
  private static Options memtableHints() {
    Properties hints = new Properties();
    hints.setProperty(
        "memtable_insert_with_hint_prefix_extractor", "rocksdb.FixedPrefix." + HINT_PREFIX_BYTES);
    try (DBOptions db = new DBOptions();
        ColumnFamilyOptions cf = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(hints)) {
      if (cf == null) {
        throw new IllegalStateException("RocksDB does not take the memtable insert hint option");
      }
      return new Options(db, cf);
    }
  }
}
