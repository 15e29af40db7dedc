package io.hops.dal.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.hops.dal.AccessCounter;
import io.hops.dal.AccessCounts;
import io.hops.dal.IdAllocator;
import io.hops.dal.IdRange;
import io.hops.dal.SchemaAdmin;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.schema.Table;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The JDBC storage: one connection pool, one dialect, and the shared SQL of every table. */
final class SqlStorage implements Storage {
  private static final Logger LOG = LoggerFactory.getLogger(SqlStorage.class);

  private final SqlDialect dialect;
  private final HikariConfig config;
  private final HikariDataSource pool;
  private final Runnable onClose;
  private final AccessCounter totals = new AccessCounter();
  private final Map<Table<?>, TableSql<?>> sql = new ConcurrentHashMap<>();
  private final SqlSchemaAdmin schema;

  /**
   * @param onClose run once when the storage closes, after the pool
   */
  SqlStorage(SqlDialect dialect, HikariConfig config, Runnable onClose) throws StorageException {
    this(dialect, config, "hops-" + dialect.engine(), onClose);
  }

  private SqlStorage(SqlDialect dialect, HikariConfig config, String poolName, Runnable onClose)
      throws StorageException {
    this.dialect = dialect;
    this.onClose = onClose;
    this.config = config;
    config.setAutoCommit(false);
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    config.setPoolName(poolName);
    try {
      this.pool = new HikariDataSource(config);
    } catch (HikariPool.PoolInitializationException e) {
      onClose.run();
      Throwable cause = e.getCause();
      throw cause instanceof SQLException sqlError
          ? dialect.classify("opening the " + dialect.engine() + " store", sqlError)
          : new StorageException("opening the " + dialect.engine() + " store failed", e);
    }
    this.schema = new SqlSchemaAdmin(this);
  }

  @Override
  public String engine() {
    return dialect.engine();
  }

  @Override
  public Map<String, Long> poolUsage() {
    com.zaxxer.hikari.HikariPoolMXBean p = pool.getHikariPoolMXBean();
    if (p == null) {
      return Map.of();
    }
    return Map.of(
        "active", (long) p.getActiveConnections(),
        "idle", (long) p.getIdleConnections(),
        "total", (long) p.getTotalConnections(),
        "waiting", (long) p.getThreadsAwaitingConnection(),
        "max", (long) pool.getMaximumPoolSize());
  }

  /** A second pool of the same settings, kept full: its users never wait to open a connection. */
  @Override
  public Storage withOwnConnections(String name, int connections) throws StorageException {
    HikariConfig own = new HikariConfig();
    config.copyStateTo(own);
    own.setMaximumPoolSize(connections);
    own.setMinimumIdle(connections);
    return new SqlStorage(dialect, own, "hops-" + dialect.engine() + "-" + name, () -> {});
  }

  @Override
  public boolean oneClock() {
    return dialect.oneClock();
  }

  @Override
  public Transaction begin(Object partitionHint) throws StorageException {
    return new SqlTransaction(this, connection());
  }

  @Override
  public IdRange allocateIds(String counter, int count) throws StorageException {
    return IdAllocator.allocate(this, counter, count);
  }

  @Override
  public long databaseTimeMillis() throws StorageException {
    String query = dialect.currentTimeQuery();
    if (query == null) {
      return System.currentTimeMillis();
    }
    try (Connection c = connection();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw dialect.classify("reading the database clock", e);
    }
  }

  @Override
  public SchemaAdmin schema() {
    return schema;
  }

  @Override
  public AccessCounts accessCounts() {
    return totals.snapshot();
  }

  @Override
  public void close() {
    try {
      pool.close();
    } finally {
      onClose.run();
    }
  }

  Connection connection() throws StorageException {
    try {
      return pool.getConnection();
    } catch (SQLException e) {
      throw dialect.classify("getting a database connection", e);
    }
  }

  @SuppressWarnings("unchecked")
  <R extends Record> TableSql<R> sql(Table<R> table) {
    return (TableSql<R>) sql.computeIfAbsent(table, TableSql::new);
  }

  SqlDialect dialect() {
    return dialect;
  }

  AccessCounter totals() {
    return totals;
  }

  Logger log() {
    return LOG;
  }
}
