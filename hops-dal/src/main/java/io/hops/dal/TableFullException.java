package io.hops.dal;

/**
 * A write the database refused because a table has no room left (MySQL/MariaDB's {@code
 * ER_RECORD_FILE_FULL}, "The table is full": a MEMORY table at {@code max_heap_table_size}, an NDB
 * table out of data memory; the embedded engine's configured capacity of a table). Retrying the
 * same transaction does not help; the caller may put the data elsewhere (HopsFS HOPS-155: a small
 * file goes to datanodes instead).
 */
public class TableFullException extends StorageException {
  private static final long serialVersionUID = 1L;

  public TableFullException(String message, Throwable cause) {
    super(message, cause);
  }
}
