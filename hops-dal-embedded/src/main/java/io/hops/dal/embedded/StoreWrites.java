package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of one store: commits go to the write-ahead log without waiting for the disk; with
 * {@code fsyncOnCommit} a commit is durable once the store's {@link WalSync} thread has synced the
 * log after it (one fsync for every commit that waits meanwhile: group commit), and a blocking
 * commit returns only then. After each commit the caches and high-water marks learn its rows, or
 * start over if they cannot.
 */
final class StoreWrites {
  private static final Logger LOG = LoggerFactory.getLogger(StoreWrites.class);

  private final RocksStore store;
  private final WriteOptions commitOptions = new WriteOptions().setSync(false);

  /** Whether a sync of the log reaches the disk (not for an in-memory store). */
  private final boolean syncToDisk;

  private final WalSync walSync; // null: fsync on commit is off

  /**
   * Taken around a write that does not sync the log, unless {@link #serialWrites} is off ({@link
   * io.hops.common.HopsConfig#EMBEDDED_SERIAL_WRITES}): one such write at a time enters RocksDB,
   * the others park here instead of waiting in RocksDB's write group (measured on 2 cores with 16
   * clients: 11-18% less namenode CPU per mkdirs and rename). A write that syncs the log goes in
   * directly, so that no fsync holds the others.
   */
  private final ReentrantLock writeTurn = new ReentrantLock();

  private volatile boolean serialWrites = true;

  StoreWrites(RocksStore store, boolean fsync) {
    this.store = store;
    this.syncToDisk = fsync && !store.name().startsWith(OpenStores.MEM_PREFIX);
    this.walSync = fsync ? new WalSync(store.name(), this::syncWal) : null;
  }

  /**
   * Writes a batch atomically, durably unless fsync on commit is off, whose rows the row cache
   * cannot follow: it starts over.
   */
  void commit(String what, WriteBatch batch) throws StorageException {
    try {
      writeSynced(what, batch);
    } finally {
      store.forgetCachedRows();
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
    // Before the write: a reader that sees one of its keys must find the mark at or above it.
    pending.raiseMarks();
    CompletableFuture<Void> result;
    try {
      result = write(what, pending.batch(), writerEnds);
    } catch (StorageException | RuntimeException e) {
      // The batch may or may not be in the store: the caches and marks start over.
      store.forgetCachedRows();
      store.highWaters().forget();
      throw e;
    } finally {
      pending.settleMarks();
    }
    if (pending.forgetsCachedRows()) {
      store.forgetCachedRows(); // a range delete: its rows were not read
    } else if (pending.readOnce()) {
      store.rows().committedPast(pending.cachedRows());
      store.partitions().committed(pending.writtenPartitions());
    } else {
      store.rows().committed(pending.cachedRows());
      store.partitions().committed(pending.writtenPartitions());
    }
    return result;
  }

  /** A stage that completes once everything committed before this call is durable. */
  CompletableFuture<Void> durable() throws StorageException {
    if (walSync == null) {
      return CompletableFuture.completedFuture(null);
    }
    walSync.checkHealthy();
    return walSync.ticket();
  }

  private void writeSynced(String what, WriteBatch batch) throws StorageException {
    if (walSync == null) {
      write(what, batch, () -> {});
      return;
    }
    walSync.checkHealthy();
    try {
      WalSyncFaults.beforeSync(store.name());
      store.use(
          what,
          db -> {
            // The log buffer is written out and synced explicitly: a write that asks RocksDB to
            // sync leaves the buffer to manual flushes (manual_wal_flush) on this RocksDB.
            db.write(commitOptions, batch);
            db.flushWal(syncToDisk);
            return null;
          });
    } catch (TransientStorageException e) {
      throw e;
    } catch (StorageException e) {
      // The log may not be on disk: nothing more is acknowledged, as after a failed group sync.
      throw walSync.failWith(e);
    }
  }

  private CompletableFuture<Void> write(String what, WriteBatch batch, Runnable writerEnds)
      throws StorageException {
    if (walSync != null) {
      walSync.checkHealthy();
    }
    store.use(
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
    WalSyncFaults.beforeSync(store.name());
    // RocksDB's in-memory log cannot sync, and need not; its buffer still goes to the file.
    store.use(
        "sync the write-ahead log",
        db -> {
          db.flushWal(syncToDisk);
          return null;
        });
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

  /**
   * Whether writes that do not sync the log enter RocksDB one at a time (see {@link #writeTurn}).
   */
  void serialWrites(boolean on) {
    serialWrites = on;
  }

  /** The store closes: the group sync makes its last sync, while the database is still open. */
  void stopSyncing() {
    if (walSync != null) {
      walSync.close();
    }
  }

  /**
   * The store closes, with no use of the database left: writes out what the log buffer holds (a
   * commit no sync was asked for).
   */
  void closing(RocksDB db) {
    if (walSync != null) {
      try {
        db.flushWal(syncToDisk);
      } catch (RocksDBException e) {
        LOG.warn(
            "writing out the log buffer of the embedded store {} at close failed", store.name(), e);
      }
    }
    commitOptions.close();
  }
}
