package io.hops.dal.sql;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TableFullException;
import io.hops.dal.TransientStorageException;
import java.sql.SQLException;
import java.sql.SQLTransientException;

/** MySQL or MariaDB with InnoDB, at READ COMMITTED, locking with the database's own row locks. */
class MysqlDialect implements SqlDialect {
  static final int ER_DUP_ENTRY = 1062;

  /** "The table '...' is full": a MEMORY table at max_heap_table_size, NDB out of data memory. */
  static final int ER_RECORD_FILE_FULL = 1114;

  static final int ER_LOCK_WAIT_TIMEOUT = 1205;
  static final int ER_LOCK_DEADLOCK = 1213;
  static final int ER_GET_TEMPORARY_ERRMSG = 1297;

  @Override
  public String engine() {
    return "mysql";
  }

  @Override
  public String currentTimeQuery() {
    return "SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
  }

  @Override
  public String ddlFile() {
    return "mysql";
  }

  @Override
  public String lockClause(LockMode mode) {
    return switch (mode) {
      case READ_COMMITTED -> "";
      case SHARED -> " LOCK IN SHARE MODE";
      case EXCLUSIVE -> " FOR UPDATE";
    };
  }

  @Override
  public StorageException classify(String what, SQLException e) {
    String message = what + ": " + e.getMessage();
    // By vendor code: MariaDB's driver reports a lock-wait timeout as 1205 with SQLState HY000.
    int code = e.getErrorCode();
    if (code == ER_LOCK_DEADLOCK
        || code == ER_LOCK_WAIT_TIMEOUT
        || isTemporary(code, e.getMessage())) {
      return new TransientStorageException(message, e);
    }
    if (code == ER_DUP_ENTRY) {
      return new DuplicateKeyException(message, e);
    }
    if (code == ER_RECORD_FILE_FULL) {
      return new TableFullException(message, e);
    }
    String state = e.getSQLState();
    if (e instanceof SQLTransientException || (state != null && state.startsWith("08"))) {
      return new TransientStorageException(message, e); // lost or refused connection
    }
    return new StorageException(message, e);
  }

  /** NDB temporary errors, as reported through a SQL node. */
  boolean isTemporary(int code, String message) {
    return false;
  }
}
