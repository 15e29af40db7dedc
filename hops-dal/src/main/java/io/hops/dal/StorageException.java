package io.hops.dal;

import java.io.IOException;

/** A database failure that retrying the same transaction will not fix. */
public class StorageException extends IOException {
  private static final long serialVersionUID = 1L;

  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
