package io.hops.election;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import java.util.Map;

/** The election over the MariaDB of HOPS_TEST_MYSQL_URL/USER/PASSWORD (CI starts one). */
class MariadbLeaderElectionTest extends LeaderElectionTestBase {
  @Override
  Storage openEmpty() throws Exception {
    String url = System.getenv("HOPS_TEST_MYSQL_URL");
    assumeTrue(url != null && !url.isBlank(), "HOPS_TEST_MYSQL_URL is not set");
    String user = System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops");
    String password = System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", "");
    Storage s =
        Storages.open(
            DalConfig.of(
                Map.of(
                    HopsConfig.METADATA_ENGINE,
                    "mysql",
                    HopsConfig.JDBC_URL,
                    url,
                    HopsConfig.JDBC_USER,
                    user,
                    HopsConfig.JDBC_PASSWORD,
                    password,
                    HopsConfig.POOL_SIZE,
                    "16")));
    s.schema().createOrUpgrade();
    s.schema().clearAll();
    return s;
  }
}
