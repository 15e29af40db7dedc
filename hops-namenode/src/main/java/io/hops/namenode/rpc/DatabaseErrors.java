package io.hops.namenode.rpc;

/**
 * The outermost stage of {@link ClientProtocolChain}: a database error that reaches it from
 * anywhere in front of the operations (the safe-mode check, reserved paths, the audit log's status
 * read) reaches the client as {@link SafeModeGuard#clientSide} maps it, never as a DAL class: a
 * database that does not answer is Hadoop's retriable error, as an operation's is.
 */
public final class DatabaseErrors {
  private DatabaseErrors() {}

  public static CallStage stage() {
    return (method, args, next) -> {
      try {
        return next.invoke(method, args);
      } catch (Throwable t) {
        throw SafeModeGuard.clientSide(method.getName(), t);
      }
    };
  }
}
