package io.hops.dal.embedded.kit;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.kit.StorageFixture;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * The embedded engine over a fresh file-backed store for every storage the kit opens, in a
 * directory the test class provides (a JUnit {@code @TempDir}).
 */
interface EmbeddedFileFixture extends StorageFixture {

  /** Where the stores go; deleted after the test. */
  Path storeRoot();

  @Override
  default Storage open(Map<String, String> settings) throws Exception {
    return openStore(storeRoot().resolve("store-" + UUID.randomUUID()), settings);
  }

  /** A storage over the file store in {@code dir}, created and formatted if new. */
  static Storage openStore(Path dir, Map<String, String> settings) throws Exception {
    DalConfig config = DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString()));
    for (Map.Entry<String, String> e : settings.entrySet()) {
      config = config.with(e.getKey(), e.getValue());
    }
    return Fixtures.formatted(Storages.open(config));
  }
}
