package io.hops.dal.embedded.kit;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.kit.StorageFixture;
import java.util.Map;
import java.util.UUID;

/** The embedded engine over a fresh in-memory store for every storage the kit opens. */
interface EmbeddedFixture extends StorageFixture {

  @Override
  default Storage open(Map<String, String> settings) throws Exception {
    DalConfig config = DalConfig.embeddedInMemory("kit-" + UUID.randomUUID());
    for (Map.Entry<String, String> e : settings.entrySet()) {
      config = config.with(e.getKey(), e.getValue());
    }
    return Fixtures.formatted(Storages.open(config));
  }
}
