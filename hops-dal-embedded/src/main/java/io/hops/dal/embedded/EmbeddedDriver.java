package io.hops.dal.embedded;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.StorageDriver;
import io.hops.dal.StorageException;

/**
 * The default engine: RocksDB in this process, in a directory or in memory ({@code mem:NAME}, for
 * tests). Every {@link Storage} opened on one store in this process shares the store and its row
 * locks; another process is refused.
 */
public final class EmbeddedDriver implements StorageDriver {

  @Override
  public String engine() {
    return "embedded";
  }

  @Override
  public Storage open(DalConfig config) throws StorageException {
    String location = config.get(HopsConfig.EMBEDDED_DIR, HopsConfig.EMBEDDED_DIR_DEFAULT);
    boolean fsync =
        Boolean.parseBoolean(
            config.get(
                HopsConfig.EMBEDDED_FSYNC_ON_COMMIT,
                String.valueOf(HopsConfig.EMBEDDED_FSYNC_ON_COMMIT_DEFAULT)));
    RocksStore store =
        OpenStores.acquire(location, fsync, config.lockWaitTimeoutMillis(), CacheBounds.of(config));
    store
        .writes()
        .serialWrites(
            Boolean.parseBoolean(
                config.get(
                    HopsConfig.EMBEDDED_SERIAL_WRITES,
                    String.valueOf(HopsConfig.EMBEDDED_SERIAL_WRITES_DEFAULT))));
    store
        .writes()
        .groupCommit(
            config.getLong(
                HopsConfig.EMBEDDED_GROUP_COMMIT_DELAY_MICROS,
                HopsConfig.EMBEDDED_GROUP_COMMIT_DELAY_MICROS_DEFAULT),
            config.getLong(
                HopsConfig.EMBEDDED_GROUP_COMMIT_WAIT_MICROS,
                HopsConfig.EMBEDDED_GROUP_COMMIT_WAIT_MICROS_DEFAULT));
    store.capacities().configure(config.withPrefix(HopsConfig.EMBEDDED_TABLE_MAX_BYTES_PREFIX));
    return new EmbeddedStorage(store);
  }
}
