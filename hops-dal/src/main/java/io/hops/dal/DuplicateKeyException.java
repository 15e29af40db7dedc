package io.hops.dal;

/** An insert met a row with the same primary key (or unique index value) already committed. */
public class DuplicateKeyException extends StorageException {
  private static final long serialVersionUID = 1L;

  public DuplicateKeyException(String message, Throwable cause) {
    super(message, cause);
  }
}
