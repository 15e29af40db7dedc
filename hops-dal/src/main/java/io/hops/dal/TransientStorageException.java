package io.hops.dal;

/**
 * A failure after which the whole transaction may be retried: a deadlock, a lock-wait timeout, a
 * lost connection, an NDB temporary error. The transaction has been rolled back.
 */
public class TransientStorageException extends StorageException {
  private static final long serialVersionUID = 1L;

  public TransientStorageException(String message) {
    super(message);
  }

  public TransientStorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
