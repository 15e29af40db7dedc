package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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
 *
 * <p>Before a sync the thread gathers: while transactions that may still commit are running (they
 * hold an exclusive row lock: {@link #writerBegins}), it waits for them to commit or end, at most
 * the group-commit delay, so that one sync covers them too (PostgreSQL's {@code commit_delay} with
 * {@code commit_siblings}, MySQL's {@code binlog_group_commit_sync_delay}). Under load, when the
 * recent syncs covered more than {@link #LOADED_GROUP} commits each, it first waits the
 * group-commit wait (within the same delay) for the commits still on their way: calls crossing the
 * network or queued for a handler hold no lock yet, and they are most of the calls in flight. A
 * commit with no other writer running and no load is synced at once, so a lone client, or two,
 * waits no longer; under load, fewer and larger syncs leave the processors to the transactions.
 */
final class WalSync implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WalSync.class);

  /** One sync of the log: {@code RocksDB.flushWal(true)}, or a test's fault around it. */
  @FunctionalInterface
  interface SyncCall {
    void sync() throws StorageException;
  }

  /**
   * A gathering sync's first look at the count of running writers, after this long; each later look
   * waits twice as long as the one before, up to {@link #MOST_POLL_NANOS}, so a long wait costs a
   * few wake-ups. A writer that ends does not wake the sync thread: that wake-up, a system call and
   * an interrupt to the other processor (an exit to the hypervisor in a virtual machine), cost the
   * writer's handler more than these timed waits cost the sync thread. Measured on 2 cores with 16
   * clients: no operation costs more namenode CPU, and mkdirs (with 10 handlers) or rename (with 4)
   * cost 5-13% less. Linux's timer slack (50 µs by default) lengthens each wait by up to that much.
   */
  private static final long POLL_NANOS = 20_000;

  private static final long MOST_POLL_NANOS = 160_000;

  /**
   * A sync waits for commits on their way (the group-commit wait) while the recent syncs covered
   * more commits than this each: not for one or two clients, whose commits a wait would only delay.
   */
  static final int LOADED_GROUP = 2;

  /**
   * The commits the recent syncs covered, on average, in sixteenths: each sync moves it an eighth
   * of the way to its own count. Written by the sync thread only.
   */
  private int recentGroup16;

  private final String store;
  private final SyncCall sync;
  private final Thread thread;

  /** Transactions that hold an exclusive row lock and have not ended: commits that may come. */
  private final AtomicInteger writers = new AtomicInteger();

  /** Syncs done and the commits they covered; written by the sync thread only. */
  private volatile long syncs;

  private volatile long syncedCommits;

  /** Syncs that waited for running writers first; written by the sync thread only. */
  private volatile long delayedSyncs;

  private volatile long gatherNanos;
  private volatile long waitNanos;
  private List<CompletableFuture<Void>> waiting = new ArrayList<>();
  private StorageException failure;
  private volatile boolean closing;

  WalSync(String store, SyncCall sync) {
    this.store = store;
    this.sync = sync;
    this.thread = new Thread(this::run, "wal-sync " + store);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * How long a sync may wait in all ({@code delayMicros}; {@code 0}: it never waits), and how much
   * of that a sync under load first waits for commits on their way ({@code waitMicros}; {@code 0}:
   * it only waits for running writers).
   */
  void groupCommit(long delayMicros, long waitMicros) {
    if (delayMicros < 0 || waitMicros < 0) {
      throw new IllegalArgumentException(
          "negative group-commit delay or wait: " + delayMicros + ", " + waitMicros);
    }
    gatherNanos = delayMicros * 1_000;
    waitNanos = waitMicros * 1_000;
  }

  /** A transaction took its first exclusive lock: it may commit soon. */
  void writerBegins() {
    writers.incrementAndGet();
  }

  /** A transaction that {@link #writerBegins began writing} committed or rolled back. */
  void writerEnds() {
    writers.decrementAndGet();
  }

  /** Group syncs of the log done so far. */
  long syncs() {
    return syncs;
  }

  /** Commits the group syncs covered so far. */
  long syncedCommits() {
    return syncedCommits;
  }

  /** Syncs that waited first, for running writers or under load (for tests). */
  long delayedSyncs() {
    return delayedSyncs;
  }

  /** Transactions that began writing and have not ended (for tests). */
  int writers() {
    return writers.get();
  }

  /** Fails if a sync has failed: no commit may be written after that. */
  synchronized void checkHealthy() throws StorageException {
    if (failure != null) {
      throw failed();
    }
  }

  /** A ticket for what is in the log now; completes once a sync covers it. */
  CompletableFuture<Void> ticket() {
    return ticket(() -> {});
  }

  /**
   * As {@link #ticket()}, for a commit whose transaction {@link #writerBegins began writing}:
   * {@code writerEnds} counts it out once its ticket waits, before the sync thread can look, so
   * that a sync never waits for the very transaction whose commit woke it.
   */
  CompletableFuture<Void> ticket(Runnable writerEnds) {
    CompletableFuture<Void> t = new CompletableFuture<>();
    synchronized (this) {
      if (failure != null) {
        t.completeExceptionally(failed());
      } else if (closing) {
        t.completeExceptionally(new StorageException("the embedded store " + store + " is closed"));
      } else {
        waiting.add(t);
      }
      writerEnds.run();
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
      }
      gather();
      synchronized (this) {
        batch = waiting;
        waiting = new ArrayList<>();
      }
      recentGroup16 += (batch.size() * 16 - recentGroup16) / 8;
      try {
        sync.sync();
      } catch (StorageException | RuntimeException e) {
        fail(batch, e);
        continue;
      }
      syncs++;
      syncedCommits += batch.size();
      for (CompletableFuture<Void> t : batch) {
        t.complete(null);
      }
    }
  }

  /**
   * Waits, at most the group-commit delay: under load, the group-commit wait first; then while
   * writers that may still commit are running, looking at their count after {@link #POLL_NANOS},
   * then after twice as long each time (at most {@link #MOST_POLL_NANOS}).
   */
  private void gather() {
    long delay = gatherNanos;
    boolean loaded = waitNanos > 0 && recentGroup16 > LOADED_GROUP * 16;
    if (delay <= 0 || (!loaded && writers.get() == 0)) {
      return;
    }
    delayedSyncs++;
    long start = System.nanoTime();
    long deadline = start + delay;
    if (loaded) {
      long waitEnds = start + Math.min(waitNanos, delay);
      for (long left = waitEnds - start;
          left > 0 && !closing;
          left = waitEnds - System.nanoTime()) {
        LockSupport.parkNanos(this, left);
      }
    }
    long poll = POLL_NANOS;
    for (long left = deadline - System.nanoTime();
        left > 0 && writers.get() > 0 && !closing;
        left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(this, Math.min(left, poll));
      poll = Math.min(2 * poll, MOST_POLL_NANOS);
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
    LockSupport.unpark(thread);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
