package io.hops.dal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * When a committed transaction is on disk: {@link Transaction#commitDeferred} and {@link
 * Storage#durable} return a stage that completes then, or fails with a {@link StorageException} if
 * the engine cannot make the commit durable.
 */
public final class Durability {
  /** Already durable: what an engine whose commit returns after its disk write gives. */
  public static final CompletionStage<Void> DURABLE = CompletableFuture.completedFuture(null);

  private Durability() {}

  /** Waits until {@code durable} completes; throws its failure as a StorageException. */
  public static void await(CompletionStage<Void> durable) throws StorageException {
    try {
      durable.toCompletableFuture().join();
    } catch (CompletionException e) {
      throw failure(e);
    }
  }

  /** The StorageException a failed stage completed with ({@code t} may wrap it). */
  public static StorageException failure(Throwable t) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    if (cause instanceof StorageException s) {
      return s;
    }
    return new StorageException("commit not durable: " + cause, cause);
  }
}
