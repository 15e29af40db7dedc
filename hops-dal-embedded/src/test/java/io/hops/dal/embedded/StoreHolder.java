package io.hops.dal.embedded;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import java.util.Map;

/**
 * The child process of {@link EmbeddedSingleProcessTest}: opens a file-backed embedded store,
 * prints {@code open} and holds it until killed.
 */
public final class StoreHolder {
  private StoreHolder() {}

  public static void main(String[] args) throws Exception {
    Storage storage = Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, args[0])));
    storage.schema().createOrUpgrade();
    System.out.println("open " + storage.engine());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
