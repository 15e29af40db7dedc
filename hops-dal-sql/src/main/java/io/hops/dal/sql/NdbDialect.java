package io.hops.dal.sql;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL NDB Cluster through SQL nodes: the SQL and locking of {@link MysqlDialect}, with its own
 * DDL (NDBCLUSTER tables, on-disk small-file tables) and NDB's temporary errors retryable, at
 * statement and at commit. Never run here (no NDB Cluster can be installed on the machines this was
 * written on): the error codes come from NDB's documentation, and {@code NdbDialectTest} holds the
 * classification to them.
 *
 * <p>NDB ignores {@code innodb_lock_wait_timeout}: a lock wait ends after the data nodes' {@code
 * TransactionDeadlockDetectionTimeout} (default 1.2 s) with error 266, reported as 1205.
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

  /**
   * "Got error N during COMMIT": what a SQL node reports when NDB aborts a transaction at commit,
   * for a node failure or an overload as often as for a real fault.
   */
  static final int ER_ERROR_DURING_COMMIT = 1180;

  /** "Got error N 'text' from NDBCLUSTER": NDB's own error, temporary or not by its code. */
  static final int ER_GET_ERRMSG = 1296;

  /**
   * NDB error codes of the temporary kinds (node failure and recovery, time-out, overload,
   * temporary resource): the transaction was aborted and the same transaction may succeed when run
   * again. From the NDB API's error classification (NDB API Developer Guide, "NDB Error Codes": the
   * types NR, NS, TR, OL, TO and IT).
   */
  private static final Set<Integer> NDB_TEMPORARY =
      Set.of(
          // NR, node recovery: a data node failed or rejoined under the transaction
          1204,
          250,
          286,
          4002,
          4007,
          4010,
          4013,
          4025,
          4027,
          4028,
          4029,
          4031,
          4033,
          // NS, node shutdown
          1223,
          270,
          280,
          4023,
          4030,
          4034,
          // TR, temporary resource: operation, scan, transaction-marker and redo records
          233,
          245,
          1217,
          1218,
          1220,
          1222,
          1234,
          1501,
          // OL, overload
          410,
          1221,
          // TO, time-out: a lock not granted within TransactionDeadlockDetectionTimeout (266), a
          // commit that timed out (237), a request to a data node that timed out
          237,
          266,
          4012,
          // IT, internal temporary
          702,
          787,
          1703,
          1705);

  private static final Pattern NDB_CODE = Pattern.compile("Got (?:temporary )?error (\\d+)");

  /**
   * Each SQL node answers {@code NOW(3)} from its own host's clock, so two namenodes on two SQL
   * nodes read two clocks: the cluster clock then follows the time the leader publishes.
   */
  @Override
  public boolean oneClock() {
    return false;
  }

  @Override
  boolean isTemporary(int code, String message) {
    if (code == ER_GET_TEMPORARY_ERRMSG) {
      return true; // "Got temporary error N from NDBCLUSTER": NDB says so itself
    }
    if (code != ER_ERROR_DURING_COMMIT && code != ER_GET_ERRMSG) {
      return false;
    }
    Matcher m = NDB_CODE.matcher(String.valueOf(message));
    return m.find() && NDB_TEMPORARY.contains(Integer.parseInt(m.group(1)));
  }

  @Override
  public boolean ignorableDdlError(String statement, SQLException e) {
    String s = statement.trim().toUpperCase(Locale.ROOT);
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    return (s.startsWith("CREATE LOGFILE GROUP") || s.startsWith("CREATE TABLESPACE"))
        && m.contains("exist");
  }
}
