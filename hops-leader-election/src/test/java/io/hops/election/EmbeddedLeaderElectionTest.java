package io.hops.election;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import java.util.Map;
import java.util.UUID;

/** The election over the embedded engine (in memory). */
class EmbeddedLeaderElectionTest extends LeaderElectionTestBase {
  @Override
  Storage openEmpty() throws Exception {
    Storage s =
        Storages.open(
            DalConfig.of(
                Map.of(
                    HopsConfig.METADATA_ENGINE,
                    "embedded",
                    HopsConfig.EMBEDDED_DIR,
                    "mem:election-" + UUID.randomUUID())));
    s.schema().createOrUpgrade();
    return s;
  }
}
