package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.CompactionStyle;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One open RocksDB store: its opening (a new store's logs preallocated, an old format refused), its
 * use until it is closed, and what every transaction on it in this process shares: the row locks,
 * the caches, the high-water marks. Its options are {@link RocksOptions}; its write path, commits
 * and the group sync of the log, is {@link StoreWrites}.
 */
final class RocksStore implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  /** A file store's name as the old H2 engine left it. */
  static final String H2_FILE = "hops.mv.db";

  private final String name;
  private final RocksDB db;
  private final Options options;
  private final LockManager locks;
  private final RowCache rows;
  private final PartitionCache partitions;
  private final TableCapacities capacities = new TableCapacities();
  private final HighWaters highWaters = new HighWaters();

  /**
   * Every use of the database holds this shared, closing holds it exclusively: a native handle used
   * after close would crash the JVM, where a late transaction should only fail.
   */
  private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private boolean closed;

  private final StoreWrites writes;

  /** One use of the open database. */
  @FunctionalInterface
  interface DbCall<T> {
    T run(RocksDB db) throws RocksDBException;
  }

  private RocksStore(
      String name,
      RocksDB db,
      Options options,
      boolean fsync,
      long lockTimeout,
      CacheBounds caches) {
    this.name = name;
    this.db = db;
    this.options = options;
    this.locks = new LockManager(lockTimeout);
    this.rows = new RowCache(caches.rowBytes(), caches.rowEntries());
    this.partitions = new PartitionCache(caches.partitionBytes());
    this.writes = new StoreWrites(this, fsync);
  }

  /** Opens (creating if new) the store in a directory. */
  static RocksStore openDirectory(Path dir, boolean fsync, long lockTimeout, CacheBounds caches)
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
    Options options = RocksOptions.of(Env.getDefault(), RocksOptions.WRITE_BUFFER_BYTES, fsync);
    RocksStore store = open(dir.toString(), dir.toString(), options, fsync, lockTimeout, caches);
    if (created) {
      try {
        store.preallocateLogs(RocksOptions.WRITE_BUFFER_BYTES);
      } catch (StorageException | RuntimeException e) {
        store.close();
        throw e;
      }
    }
    return store;
  }

  /** The one key the preallocation of a new store's logs writes (and deletes). */
  private static final byte[] PREALLOCATION_KEY =
      new OrderedBytes()
          .raw(new byte[] {KeyLayout.FORMAT})
          .raw("log-preallocation".getBytes(StandardCharsets.UTF_8))
          .toByteArray();

  /**
   * Writes a new store's first write-ahead logs out to a memtable's size, then flushes, so that
   * they are kept to be written over ({@link RocksOptions#LOGS_KEPT_FOR_REUSE}): from its first
   * commit, a sync of a new store's log writes only the log's data, as an old store's does, and not
   * the file's growing size too (HDFS preallocates its edit log, InnoDB its redo log, for the same
   * reason). A log holds a little less than its memtable, which RocksDB flushes once it is nearly
   * full. Two logs: one to write to next, one to write over at the next flush. Each is filled with
   * records of a megabyte that only the log keeps ({@code putLogData}: not the memtable, not the
   * tables), and one key put and deleted, without which the flush would not move to a new log.
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
  static RocksStore openInMemory(String name, Env env, long lockTimeout, CacheBounds caches)
      throws StorageException {
    // Small memtables: a test JVM opens hundreds of these. A sync is a no-op in memory, but the
    // commits take the same path as on disk (and tests can hold or fail the sync).
    Options options = RocksOptions.of(env, 4L << 20, true);
    return open(name, "/hops-mem/" + name, options, true, lockTimeout, caches);
  }

  private static RocksStore open(
      String name,
      String path,
      Options options,
      boolean fsync,
      long lockTimeout,
      CacheBounds caches)
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
      return new RocksStore(name, db, options, fsync, lockTimeout, caches);
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

  /** The store's RocksDB options, for table files written outside it ({@link EmbeddedBulkLoad}). */
  Options options() {
    return options;
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
   * The store's write path: commits, the group sync of the log, and the caches and marks each
   * commit tells ({@link StoreWrites}).
   */
  StoreWrites writes() {
    return writes;
  }

  /** A batch written outside a transaction ({@link StoreWrites#commit}). */
  void commit(String what, WriteBatch batch) throws StorageException {
    writes.commit(what, batch);
  }

  WalSync walSync() {
    return writes.walSync();
  }

  HighWaters highWaters() {
    return highWaters;
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

  /**
   * What a read's merge and the compactions cost depend on, for the metrics: the sorted runs a scan
   * merges ({@code RocksSortedRuns}: each level-0 table file is one, as is each non-empty level
   * below it), the bytes RocksDB estimates its compactions are behind by ({@code
   * RocksPendingCompactionBytes}), the full memtables not flushed yet ({@code
   * RocksUnflushedMemtables}) and the table files' bytes ({@code RocksTableFileBytes}).
   */
  Map<String, Long> shape() throws StorageException {
    return use(
        "shape of the store",
        db -> {
          // A level's file count is a string property only.
          long runs = Long.parseLong(db.getProperty("rocksdb.num-files-at-level0").trim());
          for (int level = 1; level < options.numLevels(); level++) {
            if (Long.parseLong(db.getProperty("rocksdb.num-files-at-level" + level).trim()) > 0) {
              runs++;
            }
          }
          Map<String, Long> shape = new LinkedHashMap<>();
          shape.put("RocksSortedRuns", runs);
          shape.put(
              "RocksPendingCompactionBytes",
              db.getLongProperty("rocksdb.estimate-pending-compaction-bytes"));
          shape.put(
              "RocksUnflushedMemtables", db.getLongProperty("rocksdb.num-immutable-mem-table"));
          shape.put("RocksTableFileBytes", db.getLongProperty("rocksdb.total-sst-files-size"));
          return shape;
        });
  }

  /** After a write the caches cannot follow (its rows unknown, or it may or may not be in). */
  void forgetCachedRows() {
    rows.clear();
    partitions.clear();
  }

  LockManager locks() {
    return locks;
  }

  @Override
  public void close() {
    writes.stopSyncing(); // first: its last sync uses the database
    Lock exclusive = lifecycle.writeLock();
    exclusive.lock();
    try {
      if (!closed) {
        closed = true;
        writes.closing(db);
        db.close();
        options.close();
      }
    } finally {
      exclusive.unlock();
    }
  }
}
