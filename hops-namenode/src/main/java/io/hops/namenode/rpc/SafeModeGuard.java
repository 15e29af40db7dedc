package io.hops.namenode.rpc;

import io.hops.namenode.tx.TransactionRunner;
import java.lang.reflect.Method;
import java.util.function.Function;

/**
 * Refuses the {@code ClientProtocol} operations that change the namespace while the cluster is in
 * {@link SafeMode}, with HDFS's {@code SafeModeException} and message ("Cannot create file/x. Name
 * node is in safe mode. ..."), before the operation runs: the {@link ClientCalls.Kind#WRITE} calls
 * of {@link ClientCalls}, with the message there. One gate in front of every operation, so no
 * operation class has to remember the check. Reads, {@code setSafeMode} and reports pass. The same
 * gate keeps database exception classes from reaching clients ({@link #clientSide}).
 */
public final class SafeModeGuard {
  private SafeModeGuard() {}

  /**
   * The gate, as a stage of {@link ClientProtocolChain}: namespace-changing methods are refused
   * while {@code safeMode} is on.
   */
  public static CallStage stage(SafeMode safeMode) {
    return (method, args, next) -> invoke(safeMode, method, args, next);
  }

  /**
   * What a client may see of a failure: never a DAL class (docs/architecture.md, "Wire
   * compatibility"). A transient database error that escaped the runner's retries is Hadoop's
   * retriable error; any other database error an {@code IOException} with its message (e.g. a value
   * longer than its column).
   */
  static Throwable clientSide(String method, Throwable t) {
    if (t instanceof io.hops.dal.TransientStorageException) {
      var r = new org.apache.hadoop.ipc.RetriableException(method + ": " + t.getMessage());
      r.initCause(t);
      return r;
    }
    if (t instanceof io.hops.dal.StorageException) {
      return new java.io.IOException(method + ": " + t.getMessage());
    }
    return t;
  }

  private static Object invoke(SafeMode safeMode, Method method, Object[] args, CallStage.Next next)
      throws Throwable {
    ClientCalls.Call call = ClientCalls.of(method.getName());
    Function<Object[], String> refusal = call == null ? null : call.safeModeRefusal();
    if (refusal == null) {
      try {
        return next.invoke(method, args);
      } catch (Throwable t) {
        throw clientSide(method.getName(), t);
      }
    }
    safeMode.check(() -> refusal.apply(args)); // the quick check, on this namenode's copy
    // ... and the exact one, inside the call's transaction (SafeMode.checkStored).
    try (AutoCloseable gate =
        TransactionRunner.gate(tx -> safeMode.checkStored(tx, () -> refusal.apply(args)))) {
      return next.invoke(method, args);
    } catch (Throwable t) {
      throw clientSide(method.getName(), t);
    }
  }
}
