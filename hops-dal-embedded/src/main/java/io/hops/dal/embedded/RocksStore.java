package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open RocksDB store with the row locks of every transaction on it in this process. Commits go
 * to the write-ahead log without waiting for the disk; with {@code fsyncOnCommit} a commit is
 * durable once the store's {@link WalSync} thread has synced the log after it (one fsync for every
 * commit that waits meanwhile: group commit), and a blocking commit returns only then.
 */
final class RocksStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RocksStore.class);

  static {
    RocksDB.loadLibrary();
  }

  /** A file store's name as the old H2 engine left it. */
  static final String H2_FILE = "hops.mv.db";

  private final String name;
  private final RocksDB db;
  private final Options options;
  private final WriteOptions commitOptions;

  /** Whether a sync of the log reaches the disk (not for an in-memory store). */
  private final boolean syncToDisk;

  private final WalSync walSync; // null: fsync on commit is off
  private final LockManager locks;
  private final RowCache rows;
  private final PartitionCache partitions;
  private final TableCapacities capacities = new TableCapacities();
  private final HighWaters highWaters = new HighWaters();

  /**
   * Taken around a write that does not sync the log, unless {@link #serialWrites} is off ({@link
   * io.hops.common.HopsConfig#EMBEDDED_SERIAL_WRITES}): one such write at a time enters RocksDB,
   * the others park here instead of waiting in RocksDB's write group (measured on 2 cores with 16
   * clients: 11-18% less namenode CPU per mkdirs and rename). A write that syncs the log goes in
   * directly, so that no fsync holds the others.
   */
  private final ReentrantLock writeTurn = new ReentrantLock();

  private volatile boolean serialWrites = true;

  /**
   * Every use of the database holds this shared, closing holds it exclusively: a native handle used
   * after close would crash the JVM, where a late transaction should only fail.
   */
  private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private boolean closed;

  /** One use of the open database. */
  @FunctionalInterface
  interface DbCall<T> {
    T run(RocksDB db) throws RocksDBException;
  }

  private RocksStore(
      String name, RocksDB db, Options options, boolean fsync, long lockTimeout, int cachedRows) {
    this.name = name;
    this.db = db;
    this.options = options;
    this.commitOptions = new WriteOptions().setSync(false);
    this.syncToDisk = fsync && !name.startsWith(OpenStores.MEM_PREFIX);
    this.walSync = fsync ? new WalSync(name, this::syncWal) : null;
    this.locks = new LockManager(lockTimeout);
    this.rows = new RowCache(cachedRows);
    this.partitions = new PartitionCache(cachedRows);
  }

  /** Opens (creating if new) the store in a directory. */
  static RocksStore openDirectory(Path dir, boolean fsync, long lockTimeout, int cachedRows)
      throws StorageException {
    if (Files.exists(dir.resolve(H2_FILE))) {
      throw new StorageException(
          "the embedded store "
              + dir
              + " holds an H2 store ("
              + H2_FILE
              + ") from an earlier hops; the embedded engine is now RocksDB and does not read it."
              + " Move the directory away and run `bin/hops format` to start a new store");
    }
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException e) {
      throw new StorageException("cannot create the embedded store directory " + dir, e);
    }
    // RocksDB names the store's current manifest in CURRENT from its creation on.
    boolean created = !Files.exists(dir.resolve("CURRENT"));
    Options options = options(Env.getDefault(), WRITE_BUFFER_BYTES, fsync);
    RocksStore store =
        open(dir.toString(), dir.toString(), options, fsync, lockTimeout, cachedRows);
    if (created) {
      try {
        store.preallocateLogs(WRITE_BUFFER_BYTES);
      } catch (StorageException | RuntimeException e) {
        store.close();
        throw e;
      }
    }
    return store;
  }

  /**
   * The memtable's size, and so about the size a write-ahead log reaches before it is flushed. A
   * commit's keys go into the memtable's skip list, whose insert costs a cache miss per level it
   * walks: a smaller memtable is cheaper to write into (with a profiler on, a rename's inserts cost
   * 6.4 µs at 2 MB, 9 at 8 MB and 14-15 at 64 MB), and with {@link #options universal compaction}
   * the more frequent flushes do not cost a rewrite of a whole level each. Measured with universal
   * compaction on 2 cores, hops alone, {@code
   * raw:create_file,append_file,mkdirs,rename_file,delete_file} in 3 rounds, two runs each, µs of
   * namenode CPU per op over the six rounds against leveled compaction with 64 MB: rename 408
   * against 466, append 800 against 872, mkdirs 345 against 368, delete 1,179 against 1,203, create
   * 934 against 938. With 16 MB, rename's three rounds cost 240 where 8 MB's cost 203 and leveled
   * 64 MB's 245, in one run.
   */
  static final long WRITE_BUFFER_BYTES = 8L << 20;

  /** The one key the preallocation of a new store's logs writes (and deletes). */
  private static final byte[] PREALLOCATION_KEY =
      new OrderedBytes()
          .raw(new byte[] {KeyLayout.FORMAT})
          .raw("log-preallocation".getBytes(StandardCharsets.UTF_8))
          .toByteArray();

  /**
   * Writes a new store's first write-ahead logs out to a memtable's size, then flushes, so that
   * they are kept to be written over ({@link #LOGS_KEPT_FOR_REUSE}): from its first commit, a sync
   * of a new store's log writes only the log's data, as an old store's does, and not the file's
   * growing size too (HDFS preallocates its edit log, InnoDB its redo log, for the same reason). A
   * log holds a little less than its memtable, which RocksDB flushes once it is nearly full. Two
   * logs: one to write to next, one to write over at the next flush. Each is filled with records of
   * a megabyte that only the log keeps ({@code putLogData}: not the memtable, not the tables), and
   * one key put and deleted, without which the flush would not move to a new log.
   */
  private void preallocateLogs(long bytes) throws StorageException {
    byte[] chunk = new byte[1 << 20];
    use(
        "preallocation of the write-ahead log",
        db -> {
          try (WriteOptions write = new WriteOptions();
              FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            for (int log = 0; log < 2; log++) {
              for (long written = 0; written < bytes; written += chunk.length) {
                try (WriteBatch batch = new WriteBatch()) {
                  batch.putLogData(chunk);
                  db.write(write, batch);
                }
              }
              db.put(write, PREALLOCATION_KEY, new byte[0]);
              db.delete(write, PREALLOCATION_KEY);
              db.flushWal(true);
              db.flush(flush);
            }
          }
          return null;
        });
  }

  /**
   * Opens the in-memory store on {@code env} (which keeps its files while the process lives, so
   * reopening a closed in-memory store finds its data).
   */
  static RocksStore openInMemory(String name, Env env, long lockTimeout, int cachedRows)
      throws StorageException {
    // Small memtables: a test JVM opens hundreds of these. A sync is a no-op in memory, but the
    // commits take the same path as on disk (and tests can hold or fail the sync).
    Options options = options(env, 4L << 20, true);
    return open(name, "/hops-mem/" + name, options, true, lockTimeout, cachedRows);
  }

  /**
   * The store's RocksDB options. With {@code groupSync} (a store whose commits the {@link WalSync}
   * thread makes durable), a commit's log record stays in RocksDB's log buffer until that thread
   * writes the buffer out and syncs it ({@code manual_wal_flush}): one write system call per group
   * instead of one per commit. A commit that syncs the log itself ({@link #writeSynced}) writes the
   * buffer out and syncs it the same way.
   */
  private static Options options(Env env, long writeBufferBytes, boolean groupSync) {
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
        // A bloom filter over the memtable's whole keys: a point read of a key that is not there
        // (a retry-cache row, a name being created) skips the memtable's skip list.
        .setMemtableWholeKeyFiltering(true)
        .setMemtablePrefixBloomSizeRatio(0.02)
        // A bloom filter per table file: a point read of a missing key (a name being created, a
        // unique value being claimed) skips the files that cannot hold it.
        .setTableFormatConfig(
            new BlockBasedTableConfig()
                .setFilterPolicy(new BloomFilter(10, false))
                .setBlockCache(SharedBlockCache.CACHE));
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
   * round cost a fifth less namenode CPU (stop 44). The cache fills only as blocks are read, so a
   * small store never takes it all; it is memory outside the heap, besides {@code -Xmx}.
   */
  static final long BLOCK_CACHE_BYTES = 256L << 20;

  /** The block cache, made when a store is first opened (after the library is loaded). */
  private static final class SharedBlockCache {
    static final LRUCache CACHE = new LRUCache(BLOCK_CACHE_BYTES);
  }

  /** Flushed write-ahead logs kept to be written over by later ones. */
  static final int LOGS_KEPT_FOR_REUSE = 4;

  /**
   * The space byte, a table name and its first key column's first 8 bytes (an inode's partition).
   */
  static final int HINT_PREFIX_BYTES = 17;

  private static RocksStore open(
      String name, String path, Options options, boolean fsync, long lockTimeout, int cachedRows)
      throws StorageException {
    try {
      RocksDB db = RocksDB.open(options, path);
      byte[] format = db.get(KeyLayout.FORMAT_KEY);
      if (format != null && !Arrays.equals(format, EmbeddedSchemaAdmin.FORMAT_VERSION)) {
        db.close();
        options.close();
        throw new StorageException(
            "the embedded store "
                + name
                + " was written in format "
                + new String(format, StandardCharsets.UTF_8)
                + " and this hops reads "
                + new String(EmbeddedSchemaAdmin.FORMAT_VERSION, StandardCharsets.UTF_8)
                + " only: format a new store (bin/hops format) and copy the data over");
      }
      return new RocksStore(name, db, options, fsync, lockTimeout, cachedRows);
    } catch (RocksDBException e) {
      options.close();
      String message = String.valueOf(e.getMessage());
      if (message.contains("LOCK")) {
        throw new StorageException(
            "the embedded store "
                + name
                + " is in use by another process; only one process may open it (run several"
                + " namenodes over MySQL/MariaDB or NDB instead): "
                + message,
            e);
      }
      throw new StorageException("cannot open the embedded store " + name + ": " + message, e);
    }
  }

  String name() {
    return name;
  }

  /** How the store compacts its flushed memtables. */
  CompactionStyle compactionStyle() {
    return options.compactionStyle();
  }

  /** Runs {@code call} on the open database; fails with a StorageException once it is closed. */
  <T> T use(String what, DbCall<T> call) throws StorageException {
    Lock shared = lifecycle.readLock();
    shared.lock();
    try {
      if (closed) {
        throw new StorageException(what + ": the embedded store " + name + " is closed");
      }
      return call.run(db);
    } catch (RocksDBException e) {
      throw Errors.of(what, e);
    } finally {
      shared.unlock();
    }
  }

  /**
   * Writes a batch atomically, durably unless fsync on commit is off, whose rows the row cache
   * cannot follow: it starts over.
   */
  void commit(String what, org.rocksdb.WriteBatch batch) throws StorageException {
    try {
      writeSynced(what, batch);
    } finally {
      forgetCachedRows();
    }
  }

  /** Writes a commit's batch one way or the other. */
  @FunctionalInterface
  private interface BatchWrite<T> {
    T write(org.rocksdb.WriteBatch batch) throws StorageException;
  }

  /**
   * Raises the tables' high-water marks for the batch's new keys, writes it with {@code write},
   * then tells the caches its rows and partitions. On failure the batch may or may not be in the
   * store: the caches and marks start over.
   */
  private <T> T commitWith(CommitBatch pending, BatchWrite<T> write) throws StorageException {
    // Before the write: a reader that sees one of its keys must find the mark at or above it.
    pending.raiseMarks();
    T result;
    try {
      result = write.write(pending.batch());
    } catch (StorageException | RuntimeException e) {
      forgetCachedRows();
      highWaters.forget();
      throw e;
    } finally {
      pending.settleMarks();
    }
    if (pending.forgetsCachedRows()) {
      forgetCachedRows(); // a range delete: its rows were not read
    } else {
      rows.committed(pending.cachedRows());
      partitions.committed(pending.writtenPartitions());
    }
    return result;
  }

  private void writeSynced(String what, org.rocksdb.WriteBatch batch) throws StorageException {
    if (walSync == null) {
      write(what, batch, () -> {});
      return;
    }
    walSync.checkHealthy();
    try {
      WalSyncFaults.beforeSync(name);
      use(
          what,
          db -> {
            // The log buffer is written out and synced explicitly: a write that asks RocksDB to
            // sync leaves the buffer to manual flushes (manual_wal_flush) on this RocksDB.
            db.write(commitOptions, batch);
            db.flushWal(syncToDisk);
            return null;
          });
    } catch (io.hops.dal.TransientStorageException e) {
      throw e;
    } catch (StorageException e) {
      // The log may not be on disk: nothing more is acknowledged, as after a failed group sync.
      throw walSync.failWith(e);
    }
  }

  /**
   * As {@link #commit}, with a write that does not wait for the disk. The caller still holds the
   * locks of the batch's rows and unique values. Returns once the rows are visible; the stage
   * completes when they are durable, exceptionally if the log cannot be synced. {@code writerEnds}
   * (idempotent) counts the committing transaction out of the group sync's {@link #writerBegins
   * writers} once its commit waits for the sync.
   */
  CompletableFuture<Void> commitDeferred(String what, CommitBatch pending, Runnable writerEnds)
      throws StorageException {
    return commitWith(pending, batch -> write(what, batch, writerEnds));
  }

  /** A stage that completes once everything committed before this call is durable. */
  CompletableFuture<Void> durable() throws StorageException {
    if (walSync == null) {
      return CompletableFuture.completedFuture(null);
    }
    walSync.checkHealthy();
    return walSync.ticket();
  }

  private CompletableFuture<Void> write(
      String what, org.rocksdb.WriteBatch batch, Runnable writerEnds) throws StorageException {
    if (walSync != null) {
      walSync.checkHealthy();
    }
    use(
        what,
        db -> {
          if (!serialWrites) {
            db.write(commitOptions, batch);
            return null;
          }
          writeTurn.lock();
          try {
            db.write(commitOptions, batch);
          } finally {
            writeTurn.unlock();
          }
          return null;
        });
    return walSync == null ? CompletableFuture.completedFuture(null) : walSync.ticket(writerEnds);
  }

  /**
   * Writes the log buffer out and syncs the log: everything written before the call is durable
   * after it (RocksDB's {@code syncWal} alone would not write the buffer out).
   */
  private void syncWal() throws StorageException {
    WalSyncFaults.beforeSync(name);
    // RocksDB's in-memory log cannot sync, and need not; its buffer still goes to the file.
    use(
        "sync the write-ahead log",
        db -> {
          db.flushWal(syncToDisk);
          return null;
        });
  }

  /** Writes out what the log buffer holds (a commit no sync was asked for), before a close. */
  private void flushLogBuffer() {
    try {
      db.flushWal(syncToDisk);
    } catch (RocksDBException e) {
      LOG.warn("writing out the log buffer of the embedded store {} at close failed", name, e);
    }
  }

  /**
   * How long a group sync may wait for running writers to commit too, and how much of that it first
   * waits under load for commits on their way ({@link
   * io.hops.common.HopsConfig#EMBEDDED_GROUP_COMMIT_DELAY_MICROS}, {@link
   * io.hops.common.HopsConfig#EMBEDDED_GROUP_COMMIT_WAIT_MICROS}).
   */
  void groupCommit(long delayMicros, long waitMicros) {
    if (walSync != null) {
      walSync.groupCommit(delayMicros, waitMicros);
    }
  }

  /** A transaction took its first exclusive lock: it may commit soon (see {@link WalSync}). */
  void writerBegins() {
    if (walSync != null) {
      walSync.writerBegins();
    }
  }

  /** A transaction that {@link #writerBegins began writing} ended. */
  void writerEnds() {
    if (walSync != null) {
      walSync.writerEnds();
    }
  }

  WalSync walSync() {
    return walSync;
  }

  HighWaters highWaters() {
    return highWaters;
  }

  /**
   * Whether writes that do not sync the log enter RocksDB one at a time (see {@link #writeTurn}).
   */
  void serialWrites(boolean on) {
    serialWrites = on;
  }

  TableCapacities capacities() {
    return capacities;
  }

  RowCache rows() {
    return rows;
  }

  PartitionCache partitions() {
    return partitions;
  }

  /** After a write the caches cannot follow (its rows unknown, or it may or may not be in). */
  private void forgetCachedRows() {
    rows.clear();
    partitions.clear();
  }

  LockManager locks() {
    return locks;
  }

  @Override
  public void close() {
    if (walSync != null) {
      walSync.close(); // first: its last sync uses the database
    }
    Lock exclusive = lifecycle.writeLock();
    exclusive.lock();
    try {
      if (!closed) {
        closed = true;
        if (walSync != null) {
          flushLogBuffer();
        }
        commitOptions.close();
        db.close();
        options.close();
      }
    } finally {
      exclusive.unlock();
    }
  }
}
