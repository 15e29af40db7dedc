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
    // An unreachable database fails the connection attempt quickly, not after minutes.
    pool.addDataSourceProperty("connectTimeout", Long.toString(Math.max(250, connect)));
    // Server-side prepared statements, cached per connection: a PK read is one round trip.
    pool.addDataSourceProperty("useServerPrepStmts", "true");
    pool.addDataSourceProperty("cachePrepStmts", "true");
    pool.addDataSourceProperty("prepStmtCacheSize", "512");
    long seconds = Math.max(1, (config.lockWaitTimeoutMillis() + 999) / 1000);
    pool.setConnectionInitSql("SET SESSION innodb_lock_wait_timeout = " + seconds);
    return new SqlStorage(dialect(), pool, () -> {});
  }
}
