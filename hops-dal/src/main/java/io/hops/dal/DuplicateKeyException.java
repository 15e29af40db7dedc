package io.hops.dal;

import io.hops.dal.schema.Key;

/** An insert met a row with the same primary key (or unique index value) already committed. */
public class DuplicateKeyException extends StorageException {
  private static final long serialVersionUID = 1L;

  private final transient Key key;

  public DuplicateKeyException(String message, Throwable cause) {
    this(message, cause, null);
  }

  /**
   * @param key the primary key of the row whose write collided (on a unique index too: the row's
   *     own key), or null where the engine cannot tell
   */
  public DuplicateKeyException(String message, Throwable cause, Key key) {
    super(message, cause);
    this.key = key;
  }

  /**
   * The primary key of the row whose write collided, or null. An engine that writes in batches
   * names the first row of the batch, whose table is the colliding row's.
   */
  public Key key() {
    return key;
  }
}
