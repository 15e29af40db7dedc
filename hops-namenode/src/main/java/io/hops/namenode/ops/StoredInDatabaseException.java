package io.hops.namenode.ops;

import java.io.IOException;

/**
 * An operation that needs blocks met a file stored in the database ({@code append}, {@code
 * concat}): the RPC layer moves the file to datanodes ({@link
 * io.hops.namenode.smallfiles.DatabaseFileMover}) and runs the operation again, so files on
 * datanodes pay nothing for the check. A client sees it only from a namenode that moves nothing.
 */
public final class StoredInDatabaseException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String path;

  public StoredInDatabaseException(String path, String message) {
    super(message);
    this.path = path;
  }

  /** The database file, as the operation named it. */
  public String path() {
    return path;
  }
}
