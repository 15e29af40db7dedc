package io.hops.dal.sql;

import com.zaxxer.hikari.HikariConfig;
import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.StorageDriver;
import io.hops.dal.StorageException;

/** MySQL or MariaDB (InnoDB) over JDBC with a HikariCP pool. */
public class MysqlDriver implements StorageDriver {

  @Override
  public String engine() {
    return "mysql";
  }

  SqlDialect dialect() {
    return new MysqlDialect();
  }

  @Override
  public Storage open(DalConfig config) throws StorageException {
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(config.require(HopsConfig.JDBC_URL));
    pool.setUsername(config.get(HopsConfig.JDBC_USER, "hops"));
    pool.setPassword(config.get(HopsConfig.JDBC_PASSWORD, ""));
    pool.setMaximumPoolSize(config.poolSize());
    pool.setMinimumIdle(Math.min(4, config.poolSize()));
    pool.setInitializationFailTimeout(1);
    long connect =
        config.getLong(HopsConfig.CONNECTION_TIMEOUT_MS, HopsConfig.CONNECTION_TIMEOUT_MS_DEFAULT);
    pool.setConnectionTimeout(Math.max(250, connect));
    // An idle connection is checked before it is handed out; a check that gets no answer gives it
    // up within the connection timeout, so that a caller can still get another one.
    pool.setValidationTimeout(Math.max(250, connect / 2));
    // An unreachable database fails the connection attempt quickly, not after minutes.
    pool.addDataSourceProperty("connectTimeout", Long.toString(Math.max(250, connect)));
    // A database that stops answering (frozen, or gone without a reset) fails the statement that
    // waits for it with a connection error (SQLState 08), which the pool answers by closing the
    // connection; the transaction is retried on another. Without it a read waits forever.
    pool.addDataSourceProperty("socketTimeout", Long.toString(roundTripTimeout(config)));
    // Server-side prepared statements, cached per connection: a PK read is one round trip.
    pool.addDataSourceProperty("useServerPrepStmts", "true");
    pool.addDataSourceProperty("cachePrepStmts", "true");
    pool.addDataSourceProperty("prepStmtCacheSize", "512");
    pool.setConnectionInitSql(sessionSetup(config));
    return new SqlStorage(dialect(), pool, () -> {});
  }

  /**
   * The session's bounds: the lock wait, and (MariaDB 10.3 and later, in an executable comment that
   * MySQL skips) how long the server keeps a transaction whose client has gone quiet. The second is
   * what lets a new leader take over from one paused inside a fenced transaction: the server rolls
   * the paused transaction back and its locks go (docs/architecture.md, "Fencing a paused leader").
   * NDB ignores both: its data nodes' TransactionDeadlockDetectionTimeout bounds lock waits and
   * TransactionInactiveTimeout idle transactions.
   */
  static String sessionSetup(DalConfig config) {
    long lockWait = Math.max(1, (config.lockWaitTimeoutMillis() + 999) / 1000);
    long idle = (config.idleTransactionTimeoutMillis() + 999) / 1000;
    return "SET SESSION innodb_lock_wait_timeout = "
        + lockWait
        + " /*M!100300 , idle_transaction_timeout = "
        + idle
        + " */";
  }

  /** At least the lock-wait timeout and a second, so that a lock wait always ends first. */
  static long roundTripTimeout(DalConfig config) {
    return Math.max(config.roundTripTimeoutMillis(), config.lockWaitTimeoutMillis() + 1000);
  }
}
