package io.hops.dal.sql;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import java.sql.SQLException;

/**
 * What differs between the SQL engines: the DDL file, how a locking read is spelled, and how errors
 * are classified into retryable and not. Everything else is shared by {@link SqlStorage}.
 */
interface SqlDialect {

  /** The engine name, the value of {@code hops.metadata.engine}. */
  String engine();

  /** The DDL file under {@code schema/} on the classpath. */
  String ddlFile();

  /** The clause appended to a SELECT to lock what it reads; empty for none. */
  String lockClause(LockMode mode);

  /**
   * A query of the server's clock in milliseconds since the epoch, or null to use this process's.
   */
  default String currentTimeQuery() {
    return null;
  }

  /** Whether every connection reads one clock (see {@link io.hops.dal.Storage#oneClock()}). */
  default boolean oneClock() {
    return true;
  }

  /** The one mapping from a database error to the DAL's retryable or permanent exception. */
  StorageException classify(String what, SQLException e);

  /** Whether a failed DDL statement may be ignored because what it creates already exists. */
  default boolean ignorableDdlError(String statement, SQLException e) {
    return false;
  }
}
