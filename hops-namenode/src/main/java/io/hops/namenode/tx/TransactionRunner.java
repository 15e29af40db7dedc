package io.hops.namenode.tx;

import io.hops.dal.AccessCounts;
import io.hops.dal.DuplicateKeyException;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.namenode.resolve.InodeHintCache;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.resolve.SubtreeMarkedException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs operations as transactions: lock, execute, flush and commit (docs/architecture.md,
 * "Transactions"). A transient failure (deadlock, lock-wait timeout, lost connection) rolls back
 * and retries the whole operation with jittered exponential backoff, a bounded number of times.
 */
public final class TransactionRunner {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionRunner.class);

  /** The least time a last attempt, begun at its deadline, has for each round trip. */
  private static final long MIN_ROUND_TRIP_MILLIS = 1000;

  private final Storage storage;
  private final InodeHintCache hints;
  private final PathResolver resolver;
  private final OperationMetrics metrics = new OperationMetrics();
  private final int maxAttempts;
  private final long baseBackoffMillis;
  private final long maxBackoffMillis;
  private final long deadlineNanos;
  private volatile RetryCache retryCache = new RetryCache(600_000);
  private volatile java.util.function.LongSupplier clock = System::currentTimeMillis;
  private volatile BiConsumer<String, AccessCounts> observer = (op, counts) -> {};
  private volatile StaleMarks staleMarks = e -> false;
  private volatile boolean deferResponses = true;
  private volatile int maxRows =
      io.hops.namenode.config.NamenodeConfig.TRANSACTION_MAX_ROWS_DEFAULT;

  /**
   * Clears a subtree mark whose owner is no longer a live namenode (docs/architecture.md, "Subtree
   * operations"), so that the operation that met it can go on at once.
   */
  @FunctionalInterface
  public interface StaleMarks {
    /** Whether the mark was stale and is now cleared. */
    boolean clearIfStale(SubtreeMarkedException e) throws IOException;
  }

  private volatile java.util.function.ObjLongConsumer<String> timer = (op, nanos) -> {};

  public TransactionRunner(
      Storage storage,
      InodeHintCache hints,
      int maxAttempts,
      long baseBackoffMillis,
      long maxBackoffMillis,
      long deadlineMillis) {
    this.storage = storage;
    this.hints = hints;
    this.resolver = new PathResolver(hints);
    this.maxAttempts = maxAttempts;
    this.baseBackoffMillis = baseBackoffMillis;
    this.maxBackoffMillis = maxBackoffMillis;
    this.deadlineNanos = deadlineMillis * 1_000_000L;
  }

  /**
   * Turns on what snapshots need of every writer: the shared lock on the snapshottable directories
   * above it and the copy-on-write of the inode rows it changes (docs/architecture.md,
   * "Snapshots").
   */
  public void snapshotsEnabled(boolean on) {
    resolver.lockSnapshotRoots(on);
  }

  private boolean snapshots() {
    return resolver.locksSnapshotRoots();
  }

  /**
   * Checks, at the end of the lock phase, that a transaction may commit: the election's fence of
   * leader-only work (docs/architecture.md, "Fencing a paused leader").
   */
  public interface Fence {
    void check(Transaction tx) throws StorageException;

    /**
     * Checked again just before the commit, without a round trip: a transaction whose execute phase
     * outlived the lease rolls back instead of committing, so a fenced lock is held past the lease
     * only by a commit already under way or by a session the database is about to drop.
     */
    default void recheck() throws StorageException {}
  }

  /**
   * A check a call makes inside its first transaction, at the end of the lock phase, with the
   * transaction's own locks: safe mode's, so that a write that passed the call's quick check cannot
   * commit after safe mode was entered (HDFS checks under its namesystem lock). Once a transaction
   * of the call has committed, the rest of the call (a subtree operation's later batches) runs on.
   */
  @FunctionalInterface
  public interface CallGate {
    void check(Transaction tx) throws IOException;
  }

  private static final class Gate {
    final CallGate check;
    boolean passed;

    Gate(CallGate check) {
      this.check = check;
    }
  }

  private static final ThreadLocal<Gate> CALL_GATE = new ThreadLocal<>();

  /** Sets {@code gate} for the transactions this thread runs until the result is closed. */
  public static AutoCloseable gate(CallGate gate) {
    Gate outer = CALL_GATE.get();
    CALL_GATE.set(new Gate(gate));
    return () -> {
      if (outer == null) {
        CALL_GATE.remove();
      } else {
        CALL_GATE.set(outer);
      }
    };
  }

  /** Runs a fresh operation from {@code attempt} until it commits or fails for good. */
  public <T> T run(Supplier<? extends Operation<T>> attempt) throws IOException {
    return run(attempt, null);
  }

  /** As {@link #run(Supplier)}, passing {@code fence} (if not null) before the execute phase. */
  public <T> T run(Supplier<? extends Operation<T>> attempt, Fence fence) throws IOException {
    return run(attempt, fence, null);
  }

  /**
   * Runs a non-idempotent call at most once (HDFS's {@code @AtMostOnce}): its successful outcome is
   * kept in the retry cache with {@code codec}, and a retry of the same RPC (same client id and
   * call id, on any namenode, or this runner's own retry after an ambiguous commit) answers it.
   */
  public <T> T runAtMostOnce(Supplier<? extends Operation<T>> attempt, RetryCache.Codec<T> codec)
      throws IOException {
    return run(attempt, null, codec);
  }

  private <T> T run(
      Supplier<? extends Operation<T>> attempt, Fence fence, RetryCache.Codec<T> codec)
      throws IOException {
    RetryCache.CallKey call = codec == null ? null : RetryCache.CallKey.current();
    long start = System.nanoTime();
    AccessCounts accesses = AccessCounts.NONE;
    String name = "unknown";
    DuplicateKeyException lastDuplicate = null;
    for (int retry = 0; ; retry++) {
      Operation<T> op = attempt.get();
      name = op.name();
      Transaction tx = null;
      IOException committedFailure = null;
      var outerAcls = io.hops.namenode.security.LoadedAcls.begin();
      try {
        tx = storage.begin(op.partitionHint()); // may fail transiently too: no connection
        // A database that stops answering fails the attempt by the deadline, not when it thaws.
        tx.limitRoundTrips(Math.max(MIN_ROUND_TRIP_MILLIS, millisLeft(start)));
        RetryCacheRow kept = null;
        // A first attempt has no outcome to find (RetryCache): only a retry reads the cache.
        if (call != null && (retry > 0 || call.retried())) {
          long now = clock.getAsLong();
          kept = retryCache.lookup(tx, call);
          if (RetryCache.live(kept, now)) {
            T first = codec.decode(kept.payload());
            tx.commit();
            // The first attempt's commit may not be on disk yet: answer once it is.
            DurableResponse.await(storage.durable(), deferResponses);
            metrics.record(
                name + ".retried", System.nanoTime() - start, tx.accessCounts(), retry, false);
            return first;
          }
        }
        CopyOnWrite versions = new CopyOnWrite(snapshots());
        LockPhase lock = new LockPhase(tx, resolver, maxRows, versions);
        long lockStart = System.nanoTime();
        op.lock(lock);
        metrics.lockPhase(name, System.nanoTime() - lockStart);
        if (fence != null) {
          fence.check(tx);
          FencedPause.pauseIfAsked();
        }
        Gate gate = CALL_GATE.get();
        if (gate != null && !gate.passed) {
          gate.check.check(tx);
        }
        lock.close(name);
        ExecutePhase exec = new ExecutePhase(tx, hints, versions);
        T result = op.execute(exec);
        committedFailure = exec.failure();
        if (call != null && committedFailure == null) {
          // A failed outcome is not kept, as in HDFS, even one that commits: its retry runs again.
          retryCache.keep(tx, call, kept, codec, result, clock.getAsLong());
        }
        if (fence != null) {
          fence.recheck();
        }
        DurableResponse.commit(tx, deferResponses);
        if (gate != null) {
          gate.passed = true;
        }
        FencedPause.outcome(null);
        exec.committed();
        accesses = tx.accessCounts();
        long nanos = System.nanoTime() - start;
        metrics.record(name, nanos, accesses, retry, false);
        observer.accept(name, accesses);
        timer.accept(name, nanos);
        if (committedFailure == null) {
          return result;
        }
      } catch (TransientStorageException | DuplicateKeyException e) {
        FencedPause.outcome(e);
        if (tx != null) {
          tx.close(); // before clearing a stale mark: this attempt may hold locks on its path
        }
        if (e instanceof DuplicateKeyException d) {
          if (!raceRetryResolves(d, lastDuplicate)) {
            metrics.record(name, System.nanoTime() - start, counts(tx), retry, true);
            throw notARace(name, d);
          }
        }
        lastDuplicate = e instanceof DuplicateKeyException d ? d : null;
        boolean cleared = e instanceof SubtreeMarkedException m && staleMarks.clearIfStale(m);
        if (retry + 1 >= maxAttempts || System.nanoTime() - start > deadlineNanos) {
          metrics.record(name, System.nanoTime() - start, counts(tx), retry, true);
          // Never a DAL exception to a client: Hadoop's retriable error, which clients retry.
          RetriableException out =
              new RetriableException(
                  name
                      + " failed transiently "
                      + (retry + 1)
                      + " times, the last: "
                      + e.getMessage());
          out.initCause(e);
          throw out;
        }
        metrics.retried(e);
        LOG.debug(
            "{} attempt {} failed transiently, retrying: {}", name, retry + 1, e.getMessage());
        if (!cleared) {
          backOff(retry);
        }
      } catch (IOException | RuntimeException e) {
        FencedPause.outcome(e);
        if (call != null
            && tx != null
            && e instanceof IOException
            && !(e instanceof StorageException)) {
          T first = answeredMeanwhile(tx, call, codec);
          if (first != null) {
            metrics.record(
                name + ".retried", System.nanoTime() - start, tx.accessCounts(), retry, false);
            return first;
          }
        }
        metrics.record(name, System.nanoTime() - start, counts(tx), retry, true);
        throw e;
      } finally {
        io.hops.namenode.security.LoadedAcls.end(outerAcls);
        if (tx != null) {
          tx.close();
        }
      }
      if (committedFailure != null) {
        // Raised once the operation committed (ExecutePhase.failAfterCommit), outside the catch
        // above: what it committed stands, and no kept outcome of an earlier attempt replaces it.
        throw committedFailure;
      }
    }
  }

  /**
   * Whether a duplicate key is a race that a retry resolves: a concurrent transaction inserted the
   * same row first (on an engine whose locking read of an absent row takes no lock, e.g. a client's
   * first lease row from two creates at once), and the next attempt reads that row and goes on from
   * it, or answers as HDFS would (a create that finds the file another create made throws
   * FileAlreadyExistsException). The same key in two attempts in a row is no race: the operation
   * writes a row that its reads do not see (a damaged index, a row an operator tool left), and
   * retrying it until the deadline would only answer RetriableException, which clients retry for
   * ever. A new key each time (a fresh id that an id counter behind the rows hands out) is retried:
   * the next id may be free.
   */
  private static boolean raceRetryResolves(
      DuplicateKeyException d, DuplicateKeyException previous) {
    if (previous == null) {
      return true;
    }
    return d.key() != null && previous.key() != null
        ? !d.key().equals(previous.key())
        : !String.valueOf(d.getMessage()).equals(previous.getMessage());
  }

  /**
   * A duplicate key that is no race, as the client sees it: HDFS's FileAlreadyExistsException for
   * an inode whose parent and name are taken, else a plain (not retriable) IOException.
   */
  private static IOException notARace(String name, DuplicateKeyException d) {
    String message =
        name + " failed: it writes a row that exists but that it cannot read: " + d.getMessage();
    IOException out =
        d.key() != null && d.key().table() == InodeRow.TABLE
            ? new FileAlreadyExistsException(message)
            : new IOException(message);
    out.initCause(d);
    return out;
  }

  /**
   * The kept outcome of {@code call} if another attempt at it committed while this one ran. An
   * attempt that did not read the cache (a first attempt), or read it before the other attempt
   * committed, runs its operation after that attempt's locks are released, and the operation may
   * fail on what the other attempt did (a create finds its own file being created, a rename its
   * source gone). Before failing, it reads the row: one read, on the failure path only.
   */
  private <T> T answeredMeanwhile(
      Transaction tx, RetryCache.CallKey call, RetryCache.Codec<T> codec) {
    try {
      RetryCacheRow kept = retryCache.lookup(tx, call);
      if (!RetryCache.live(kept, clock.getAsLong())) {
        return null;
      }
      // Not committed: the failed operation may have written to the transaction; closing rolls
      // it back.
      return codec.decode(kept.payload());
    } catch (IOException | RuntimeException e) {
      LOG.debug("looking up the retry cache again failed", e);
      return null;
    }
  }

  private long millisLeft(long start) {
    return (deadlineNanos - (System.nanoTime() - start)) / 1_000_000L;
  }

  private static AccessCounts counts(Transaction tx) {
    return tx == null ? AccessCounts.NONE : tx.accessCounts();
  }

  private void backOff(int retry) throws InterruptedIOException {
    long cap = Math.min(maxBackoffMillis, baseBackoffMillis << Math.min(retry, 16));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while backing off a retry");
    }
  }

  /**
   * Sees the database accesses of every committed operation (tests of docs/architecture.md,
   * "Database cost per operation").
   */
  public void observe(BiConsumer<String, AccessCounts> observer) {
    this.observer = observer;
  }

  /**
   * Whether an operation run by an RPC handler answers its client once its commit is durable
   * without holding the handler meanwhile ({@link DurableResponse}); otherwise the handler waits.
   */
  public void deferResponses(boolean on) {
    this.deferResponses = on;
  }

  /**
   * Most rows one transaction should read and write ({@code hops.namenode.transaction.max-rows}):
   * operations that can grow with the data size themselves by it ({@link LockPhase#maxRows()}).
   */
  public void boundRows(int rows) {
    this.maxRows = Math.max(1, rows);
  }

  /** The row bound of {@link #boundRows}, for callers that cut work into transactions. */
  public int maxRows() {
    return maxRows;
  }

  /** Who clears subtree marks of dead namenodes. */
  public void useStaleMarks(StaleMarks staleMarks) {
    this.staleMarks = staleMarks;
  }

  /** Tells {@code timer} the namenode time of each committed operation, for benchmarks. */
  public void time(java.util.function.ObjLongConsumer<String> timer) {
    this.timer = timer;
  }

  /** The retry cache's expiry and the cluster clock it measures time with. */
  public void useRetryCache(RetryCache cache, java.util.function.LongSupplier clock) {
    this.retryCache = cache;
    this.clock = clock;
  }

  public OperationMetrics metrics() {
    return metrics;
  }

  public Storage storage() {
    return storage;
  }

  public InodeHintCache hints() {
    return hints;
  }
}
