package io.hops.dal.sql;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import java.sql.SQLException;
import org.h2.api.ErrorCode;

/**
 * The embedded engine. H2 has no shared row locks and its {@code SELECT ... FOR UPDATE} writes to
 * the store, so reads run at READ COMMITTED and row locks come from the in-process {@link
 * io.hops.dal.sql.embedded.LockManager}.
 */
final class H2Dialect implements SqlDialect {

  @Override
  public String engine() {
    return "embedded";
  }

  @Override
  public String ddlFile() {
    return "h2";
  }

  @Override
  public boolean locksInProcess() {
    return true;
  }

  @Override
  public String lockClause(LockMode mode) {
    return "";
  }

  @Override
  public StorageException classify(String what, SQLException e) {
    String message = what + ": " + e.getMessage();
    return switch (e.getErrorCode()) {
      case ErrorCode.LOCK_TIMEOUT_1,
              ErrorCode.DEADLOCK_1,
              ErrorCode.CONCURRENT_UPDATE_1,
              ErrorCode.ROW_NOT_FOUND_IN_PRIMARY_INDEX ->
          new TransientStorageException(message, e);
      case ErrorCode.DUPLICATE_KEY_1 -> new DuplicateKeyException(message, e);
      case ErrorCode.DATABASE_ALREADY_OPEN_1 ->
          new StorageException(
              what
                  + ": the embedded store is in use by another process; only one process may open"
                  + " it (run several namenodes over MySQL/MariaDB or NDB instead)",
              e);
      default -> new StorageException(message, e);
    };
  }
}
