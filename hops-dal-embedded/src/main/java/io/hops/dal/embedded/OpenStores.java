package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.rocksdb.Env;
import org.rocksdb.RocksMemEnv;

/**
 * The stores open in this process, shared by every storage opened on the same directory or
 * in-memory name, so two namenodes in one JVM see the same data and lock each other's rows. A store
 * closes with its last storage. In-memory stores keep their files in an environment that lives as
 * long as the process, so a store reopened by name finds its data again.
 */
final class OpenStores {
  static final String MEM_PREFIX = "mem:";

  private static final Map<String, Entry> OPEN = new HashMap<>();
  private static final Map<String, Env> MEMORY = new HashMap<>();

  private static final class Entry {
    final RocksStore store;
    int users;

    Entry(RocksStore store) {
      this.store = store;
    }
  }

  private OpenStores() {}

  /** The store named by {@code location} (a directory or {@code mem:NAME}), opened if needed. */
  static synchronized RocksStore acquire(
      String location, boolean fsync, long lockTimeout, CacheBounds caches)
      throws StorageException {
    String name = canonical(location);
    Entry e = OPEN.get(name);
    if (e == null) {
      RocksStore store =
          name.startsWith(MEM_PREFIX)
              ? RocksStore.openInMemory(
                  name,
                  MEMORY.computeIfAbsent(name, n -> new RocksMemEnv(Env.getDefault())),
                  lockTimeout,
                  caches)
              : RocksStore.openDirectory(Path.of(name), fsync, lockTimeout, caches);
      e = new Entry(store);
      OPEN.put(name, e);
    }
    e.users++;
    return e.store;
  }

  static synchronized void release(RocksStore store) {
    Entry e = OPEN.get(store.name());
    if (e == null || e.store != store) {
      return;
    }
    if (--e.users == 0) {
      OPEN.remove(store.name());
      store.close();
    }
  }

  private static String canonical(String location) {
    return location.startsWith(MEM_PREFIX)
        ? location
        : Path.of(location).toAbsolutePath().normalize().toString();
  }
}
