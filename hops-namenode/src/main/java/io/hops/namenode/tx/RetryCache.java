package io.hops.namenode.tx;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Key;
import java.io.IOException;
import org.apache.hadoop.ipc.ClientId;
import org.apache.hadoop.ipc.RpcConstants;
import org.apache.hadoop.ipc.Server;

/**
 * The retry cache in the database (docs/architecture.md, "Wire compatibility"): the successful
 * outcome of a non-idempotent call is written, keyed by the caller's client id and call id, in the
 * call's own transaction; a retry of that call, on this namenode or any other, or by the runner
 * after an ambiguous commit, reads it and answers the first outcome without running the operation
 * again. Failed outcomes are not kept, as in HDFS: their retry runs again.
 *
 * <p>Only a retry reads the cache. A call whose retry count is 0 is the client's first attempt at
 * that call id (Hadoop's retry handler counts every retry and failover, and call ids are not reused
 * while an entry lives), so it has nothing to find: it runs, and inserts its outcome at commit. A
 * retry reads its row read committed, without a lock, so every transaction locks a retry-cache row
 * last, when its batch is flushed, and no two attempts of a call can wait on each other in a cycle.
 * What keeps a call from taking effect twice is the row's primary key: of two attempts that both
 * ran (a retry that read before the first attempt committed, or a first attempt that a slow
 * namenode ran after a retry elsewhere), the second to commit fails on the first one's row ({@link
 * io.hops.dal.DuplicateKeyException}), is rolled back, and its next attempt reads that row and
 * answers it.
 */
public final class RetryCache {
  /** State of a kept outcome. */
  static final byte SUCCESS = 1;

  /** How a call's result is kept: {@code encode} answers null for a result not to be kept. */
  public interface Codec<T> {
    byte[] encode(T result) throws IOException;

    T decode(byte[] payload) throws IOException;
  }

  /**
   * The (client id, call id) of the RPC this thread serves, and how many times the client had sent
   * it before ({@code retryCount}); null outside a retriable RPC.
   */
  record CallKey(byte[] clientId, int callId, int retryCount) {
    static CallKey current() {
      if (!Server.isRpcInvocation()) {
        return null;
      }
      byte[] client = Server.getClientId();
      int call = Server.getCallId();
      if (client == null
          || client.length != ClientId.BYTE_LENGTH
          || call == RpcConstants.INVALID_CALL_ID) {
        return null;
      }
      return new CallKey(client, call, Server.getCallRetryCount());
    }

    /** Whether the client sent this call before (a retry, or a failover to this namenode). */
    boolean retried() {
      return retryCount != 0;
    }

    Key key() {
      return RetryCacheRow.TABLE.key(clientId, callId);
    }
  }

  private final long expiryMillis;

  public RetryCache(long expiryMillis) {
    this.expiryMillis = expiryMillis;
  }

  /** The row of this call as last committed, or null; read without a lock (see above). */
  RetryCacheRow lookup(Transaction tx, CallKey call) throws StorageException {
    return tx.find(RetryCacheRow.TABLE, call.key(), LockMode.READ_COMMITTED);
  }

  /** When an entry made now expires, rounded up to a whole minute. */
  long expiresAt(long now) {
    return ceilMinute(now + expiryMillis);
  }

  public static long ceilMinute(long millis) {
    return (millis + MINUTE - 1) / MINUTE * MINUTE;
  }

  public static final long MINUTE = 60_000;

  /** Keeps a successful outcome in the transaction that produced it. */
  <T> void keep(Transaction tx, CallKey call, RetryCacheRow old, Codec<T> codec, T result, long now)
      throws IOException {
    byte[] payload = codec.encode(result);
    if (payload == null) {
      return;
    }
    RetryCacheRow row =
        new RetryCacheRow(call.clientId(), call.callId(), SUCCESS, expiresAt(now), payload);
    if (old == null) {
      tx.insert(RetryCacheRow.TABLE, row);
    } else {
      tx.update(RetryCacheRow.TABLE, row);
    }
  }

  /** Whether a kept row still answers retries. */
  static boolean live(RetryCacheRow row, long now) {
    return row != null && row.state() == SUCCESS && row.expirationTime() >= now;
  }
}
