package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.CompressionType;
import org.rocksdb.Env;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * One open RocksDB store with the row locks of every transaction on it in this process. Commits go
 * to the write-ahead log; with {@code fsyncOnCommit} each commit returns after the log is on disk,
 * and RocksDB's write thread makes concurrent committers share one fsync (group commit).
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
  private final WriteOptions commitOptions;
  private final LockManager locks;

  private RocksStore(String name, RocksDB db, Options options, boolean fsync, long lockTimeout) {
    this.name = name;
    this.db = db;
    this.options = options;
    this.commitOptions = new WriteOptions().setSync(fsync);
    this.locks = new LockManager(lockTimeout);
  }

  /** Opens (creating if new) the store in a directory. */
  static RocksStore openDirectory(Path dir, boolean fsync, long lockTimeout)
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
    Options options = options(Env.getDefault(), 64L << 20);
    return open(dir.toString(), dir.toString(), options, fsync, lockTimeout);
  }

  /**
   * Opens the in-memory store on {@code env} (which keeps its files while the process lives, so
   * reopening a closed in-memory store finds its data).
   */
  static RocksStore openInMemory(String name, Env env, long lockTimeout) throws StorageException {
    // Small memtables: a test JVM opens hundreds of these; fsync is a no-op in memory anyway.
    Options options = options(env, 4L << 20);
    return open(name, "/hops-mem/" + name, options, false, lockTimeout);
  }

  private static Options options(Env env, long writeBufferBytes) {
    return new Options()
        .setEnv(env)
        .setCreateIfMissing(true)
        .setWriteBufferSize(writeBufferBytes)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        .setKeepLogFileNum(2)
        .setStatsDumpPeriodSec(0)
        .setMaxBackgroundJobs(2);
  }

  private static RocksStore open(
      String name, String path, Options options, boolean fsync, long lockTimeout)
      throws StorageException {
    try {
      return new RocksStore(name, RocksDB.open(options, path), options, fsync, lockTimeout);
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

  RocksDB db() {
    return db;
  }

  WriteOptions commitOptions() {
    return commitOptions;
  }

  LockManager locks() {
    return locks;
  }

  @Override
  public void close() {
    commitOptions.close();
    db.close();
    options.close();
  }
}
