package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's group sync (HDFS's {@code FSEditLogAsync}, over RocksDB's log): commits write their
 * batch without waiting for the disk and take a ticket; this one thread writes the log buffer out
 * and syncs the write-ahead log while tickets wait, then completes every ticket taken before the
 * sync began. A ticket is taken after its batch is in the log buffer (RocksDB appends a batch's
 * record before the write returns), so the sync covers it. A failed sync fails every waiting ticket
 * and every later commit: what is not on disk is never acknowledged, as HDFS stops on an edit log
 * sync failure.
 */
final class WalSync implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WalSync.class);

  /** One sync of the log: {@code RocksDB.flushWal(true)}, or a test's fault around it. */
  @FunctionalInterface
  interface SyncCall {
    void sync() throws StorageException;
  }

  private final String store;
  private final SyncCall sync;
  private final Thread thread;
  private List<CompletableFuture<Void>> waiting = new ArrayList<>();
  private StorageException failure;
  private boolean closing;

  WalSync(String store, SyncCall sync) {
    this.store = store;
    this.sync = sync;
    this.thread = new Thread(this::run, "wal-sync " + store);
    thread.setDaemon(true);
    thread.start();
  }

  /** Fails if a sync has failed: no commit may be written after that. */
  synchronized void checkHealthy() throws StorageException {
    if (failure != null) {
      throw failed();
    }
  }

  /** A ticket for what is in the log now; completes once a sync covers it. */
  CompletableFuture<Void> ticket() {
    CompletableFuture<Void> t = new CompletableFuture<>();
    synchronized (this) {
      if (failure != null) {
        t.completeExceptionally(failed());
        return t;
      }
      if (closing) {
        t.completeExceptionally(new StorageException("the embedded store " + store + " is closed"));
        return t;
      }
      waiting.add(t);
      if (waiting.size() == 1) {
        notifyAll();
      }
    }
    return t;
  }

  private StorageException failed() {
    return new StorageException(
        "the embedded store "
            + store
            + " failed to sync its write-ahead log; no commit is acknowledged until the namenode"
            + " restarts: "
            + failure.getMessage(),
        failure);
  }

  private void run() {
    while (true) {
      List<CompletableFuture<Void>> batch;
      synchronized (this) {
        while (waiting.isEmpty() && !closing) {
          try {
            wait();
          } catch (InterruptedException e) {
            // Only close interrupts; it sets closing first.
          }
        }
        if (waiting.isEmpty()) {
          return;
        }
        batch = waiting;
        waiting = new ArrayList<>();
      }
      try {
        sync.sync();
      } catch (StorageException | RuntimeException e) {
        fail(batch, e);
        continue;
      }
      for (CompletableFuture<Void> t : batch) {
        t.complete(null);
      }
    }
  }

  /**
   * Puts the store in the failed state after a commit that synced the log itself failed; fails
   * every waiting ticket. Returns the error for that commit.
   */
  StorageException failWith(StorageException e) {
    synchronized (this) {
      if (closing && failure == null) {
        return e; // a commit racing the store's close: not a disk failure
      }
    }
    fail(List.of(), e);
    synchronized (this) {
      return failed();
    }
  }

  private void fail(List<CompletableFuture<Void>> batch, Exception e) {
    LOG.error("syncing the write-ahead log of the embedded store {} failed", store, e);
    List<CompletableFuture<Void>> all = new ArrayList<>(batch);
    StorageException error;
    synchronized (this) {
      if (failure == null) {
        failure =
            e instanceof StorageException s
                ? s
                : new StorageException("sync of the write-ahead log: " + e, e);
      }
      error = failed();
      all.addAll(waiting);
      waiting = new ArrayList<>();
    }
    for (CompletableFuture<Void> t : all) {
      t.completeExceptionally(error);
    }
  }

  /** Syncs what waits, then stops the thread. */
  @Override
  public void close() {
    synchronized (this) {
      closing = true;
      notifyAll();
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
