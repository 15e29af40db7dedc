package io.hops.dal;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Opens the storage of the configured engine. */
public final class Storages {
  private Storages() {}

  public static Storage open(DalConfig config) throws StorageException {
    String engine = config.engine();
    List<String> known = new ArrayList<>();
    for (StorageDriver d : ServiceLoader.load(StorageDriver.class)) {
      if (d.engine().equals(engine)) {
        return d.open(config);
      }
      known.add(d.engine());
    }
    throw new StorageException(
        "no driver for metadata engine '" + engine + "' (available: " + known + ")");
  }
}
