package io.hops.dal.sql;

import com.zaxxer.hikari.HikariConfig;
import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.StorageDriver;
import io.hops.dal.StorageException;
import io.hops.dal.sql.embedded.LockManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The default engine: H2 in this process, file-backed under a data directory (or in memory for
 * tests). Every {@link Storage} opened on one store in this process shares one lock manager, so two
 * namenodes in one JVM lock each other's rows; another process is refused.
 */
public final class EmbeddedDriver implements StorageDriver {
  private static final String MEM_PREFIX = "mem:";

  /** One lock manager per store in this process, counted by the storages using it. */
  private static final Map<String, SharedLocks> LOCKS = new HashMap<>();

  private record SharedLocks(LockManager manager, int users) {}

  @Override
  public String engine() {
    return "embedded";
  }

  @Override
  public Storage open(DalConfig config) throws StorageException {
    String dir = config.get(HopsConfig.EMBEDDED_DIR, HopsConfig.EMBEDDED_DIR_DEFAULT);
    long timeout = config.lockWaitTimeoutMillis();
    String store;
    String url;
    // A commit is written to the file before it is acknowledged (WRITE_DELAY=0), so it survives a
    // crash of the process; FILE_LOCK=FS uses an OS lock that dies with its process.
    String settings = ";LOCK_TIMEOUT=" + timeout + ";QUERY_CACHE_SIZE=256";
    if (dir.startsWith(MEM_PREFIX)) {
      store = dir;
      url = "jdbc:h2:mem:" + dir.substring(MEM_PREFIX.length()) + ";DB_CLOSE_DELAY=-1" + settings;
    } else {
      Path path = Path.of(dir).toAbsolutePath().normalize();
      try {
        Files.createDirectories(path);
      } catch (IOException e) {
        throw new StorageException("cannot create the embedded store directory " + path, e);
      }
      store = path.toString();
      url = "jdbc:h2:file:" + path.resolve("hops") + ";FILE_LOCK=FS;WRITE_DELAY=0" + settings;
    }
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(url);
    pool.setUsername("hops");
    pool.setPassword("");
    pool.setMaximumPoolSize(config.poolSize());
    pool.setMinimumIdle(Math.min(4, config.poolSize()));
    pool.setInitializationFailTimeout(1);
    LockManager locks = acquireLocks(store, timeout);
    return new SqlStorage(new H2Dialect(), pool, locks, () -> releaseLocks(store));
  }

  private static synchronized LockManager acquireLocks(String store, long timeout) {
    SharedLocks s = LOCKS.get(store);
    LockManager manager = s == null ? new LockManager(timeout) : s.manager();
    LOCKS.put(store, new SharedLocks(manager, s == null ? 1 : s.users() + 1));
    return manager;
  }

  private static synchronized void releaseLocks(String store) {
    SharedLocks s = LOCKS.get(store);
    if (s == null) {
      return;
    }
    if (s.users() <= 1) {
      LOCKS.remove(store);
    } else {
      LOCKS.put(store, new SharedLocks(s.manager(), s.users() - 1));
    }
  }
}
