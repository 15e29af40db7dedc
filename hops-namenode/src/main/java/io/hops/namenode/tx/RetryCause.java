package io.hops.namenode.tx;

import java.sql.SQLException;
import java.util.Locale;

/**
 * Why a transaction was restarted, for the metrics: the DAL reports every transient error as one
 * exception type, so the cause is read from the database's error code (MySQL/MariaDB/NDB through
 * JDBC) or the embedded engine's message.
 */
public enum RetryCause {
  DEADLOCK,
  LOCK_WAIT_TIMEOUT,
  CONNECTION,
  OTHER;

  private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
  private static final int ER_LOCK_DEADLOCK = 1213;

  /** The cause of {@code transientError}. */
  public static RetryCause of(Throwable transientError) {
    for (Throwable t = transientError; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        if (sql.getErrorCode() == ER_LOCK_DEADLOCK) {
          return DEADLOCK;
        }
        if (sql.getErrorCode() == ER_LOCK_WAIT_TIMEOUT) {
          return LOCK_WAIT_TIMEOUT;
        }
        if (sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
          return CONNECTION;
        }
      }
    }
    String m = String.valueOf(transientError.getMessage()).toLowerCase(Locale.ROOT);
    if (m.contains("deadlock")) {
      return DEADLOCK;
    }
    if (m.contains("lock wait timeout")) {
      return LOCK_WAIT_TIMEOUT;
    }
    if (m.contains("connection")) {
      return CONNECTION;
    }
    return OTHER;
  }
}
