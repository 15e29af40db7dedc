package io.hops.namenode.tx;

import io.hops.dal.Durability;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.hadoop.ipc.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers an RPC only once what it committed is durable, without holding its handler thread while
 * the disk syncs (HDFS's {@code FSEditLogAsync}): the handler postpones the call's response,
 * computes it and returns; whoever makes the commit durable (the embedded store's sync thread) then
 * sends it, or fails the call if the commit cannot be made durable. Hadoop's call counts the
 * postponements, so the response goes out at the later of the handler's send and the last
 * durability, whichever comes first. Off an RPC handler thread, or when turned off, it waits.
 */
final class DurableResponse {
  private static final Logger LOG = LoggerFactory.getLogger(DurableResponse.class);

  private DurableResponse() {}

  /**
   * Commits {@code tx}: on an RPC handler (when {@code defer}), without waiting for durability, the
   * call's response waiting for it instead; elsewhere returning once durable (the engine's own
   * synced write, cheaper for a waiting thread than a hand-over to the sync thread and back).
   */
  static void commit(Transaction tx, boolean defer) throws StorageException {
    if (defer && Server.getCurCall().get() != null) {
      await(tx.commitDeferred(), true);
    } else {
      tx.commit();
    }
  }

  /** Returns once {@code durable} is done, or, on an RPC handler, has the response wait for it. */
  static void await(CompletionStage<Void> durable, boolean defer) throws StorageException {
    CompletableFuture<Void> f = durable.toCompletableFuture();
    Server.Call call = defer && !f.isDone() ? Server.getCurCall().get() : null;
    if (call == null) {
      Durability.await(f);
      return;
    }
    call.postponeResponse();
    f.whenComplete((v, failure) -> respond(call, failure));
  }

  private static void respond(Server.Call call, Throwable failure) {
    try {
      if (failure == null) {
        call.sendResponse();
      } else {
        // Nothing after a failed sync commits: the client learns it with an IOException. Should the
        // sync fail before the handler has sent its own part, Hadoop drops that send (the count
        // is already negative; only an -ea assertion in Server.Call would notice).
        call.abortResponse(Durability.failure(failure));
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("sending the postponed response of {} failed", call, e);
    }
  }
}
