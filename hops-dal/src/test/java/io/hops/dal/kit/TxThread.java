package io.hops.dal.kit;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One transaction driven on a thread of its own, so a test can show who waits for whom. The
 * transaction begins, runs and closes on that thread; the test thread only submits calls and waits
 * for them, always with a timeout.
 */
public final class TxThread {
  /** A call on the transaction. */
  @FunctionalInterface
  public interface TxCall<T> {
    T run(Transaction tx) throws Exception;
  }

  /** A call on the transaction that returns nothing. */
  @FunctionalInterface
  public interface TxAction {
    void run(Transaction tx) throws Exception;
  }

  private final String name;
  private final ExecutorService thread;
  private final Transaction tx;
  private CompletableFuture<Void> closing;

  private TxThread(String name, Storage storage, long timeoutSeconds) throws Exception {
    this.name = name;
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "kit-" + name);
              t.setDaemon(true);
              return t;
            });
    CompletableFuture<Transaction> begun = new CompletableFuture<>();
    thread.execute(
        () -> {
          try {
            begun.complete(storage.begin());
          } catch (Throwable e) {
            begun.completeExceptionally(e);
          }
        });
    try {
      this.tx = await(begun, timeoutSeconds);
    } catch (Exception e) {
      thread.shutdownNow();
      throw e;
    }
  }

  static TxThread begin(String name, Storage storage, long timeoutSeconds) throws Exception {
    return new TxThread(name, storage, timeoutSeconds);
  }

  /** Submits a call; the future completes when the transaction's thread has run it. */
  public <T> CompletableFuture<T> start(TxCall<T> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    thread.execute(
        () -> {
          try {
            result.complete(call.run(tx));
          } catch (Throwable e) {
            result.completeExceptionally(e);
          }
        });
    return result;
  }

  /** As {@link #start(TxCall)} for a call without a result. */
  public CompletableFuture<Void> startAction(TxAction action) {
    return start(
        t -> {
          action.run(t);
          return null;
        });
  }

  /** Runs a call that must not wait for anyone: it has to finish within the kit's prompt bound. */
  public <T> T call(TxCall<T> call) throws Exception {
    return await(start(call), DalKit.PROMPT_SECONDS);
  }

  /** As {@link #call(TxCall)} for a call without a result. */
  public void run(TxAction action) throws Exception {
    await(startAction(action), DalKit.PROMPT_SECONDS);
  }

  public void commit() throws Exception {
    run(Transaction::commit);
  }

  /** Starts closing (rolling back unless committed) without waiting, so blocked peers can go on. */
  void startClose() {
    if (closing == null) {
      closing = startAction(Transaction::close);
      thread.shutdown();
    }
  }

  /** Waits a bounded time for {@link #startClose()} to finish, then abandons the thread. */
  void awaitClosed(long seconds) throws InterruptedException {
    startClose();
    if (!thread.awaitTermination(seconds, TimeUnit.SECONDS)) {
      thread.shutdownNow();
      thread.awaitTermination(1, TimeUnit.SECONDS);
    }
  }

  /**
   * The result of a future, waiting at most {@code seconds}. A failed call rethrows its cause as
   * is, so tests can assert on the exception type.
   */
  public static <T> T await(CompletableFuture<T> future, long seconds) throws Exception {
    try {
      return future.get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    } catch (TimeoutException e) {
      throw new AssertionError("did not finish within " + seconds + " s", e);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
