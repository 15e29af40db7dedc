package io.hops.dal.sql;

import java.sql.SQLException;
import java.util.Locale;

/**
 * MySQL NDB Cluster through SQL nodes: the SQL and locking of {@link MysqlDialect}, with its own
 * DDL (NDBCLUSTER tables, on-disk small-file tables) and NDB's temporary errors retryable.
 */
final class NdbDialect extends MysqlDialect {

  @Override
  public String engine() {
    return "ndb";
  }

  @Override
  public String ddlFile() {
    return "ndb";
  }

  @Override
  boolean isTemporary(int code) {
    // "Got temporary error N from NDBCLUSTER": node failure, overload, transaction aborted.
    return code == ER_GET_TEMPORARY_ERRMSG;
  }

  @Override
  public boolean ignorableDdlError(String statement, SQLException e) {
    String s = statement.trim().toUpperCase(Locale.ROOT);
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    return (s.startsWith("CREATE LOGFILE GROUP") || s.startsWith("CREATE TABLESPACE"))
        && m.contains("exist");
  }
}
