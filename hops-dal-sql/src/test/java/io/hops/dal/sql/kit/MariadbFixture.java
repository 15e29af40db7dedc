package io.hops.dal.sql.kit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.kit.StorageFixture;
import java.util.Map;

/**
 * The {@code mysql} engine against the MariaDB (or MySQL) named by {@code HOPS_TEST_MYSQL_URL},
 * {@code _USER} and {@code _PASSWORD}, or the system properties {@code hops.test.mysql.url}, {@code
 * .user} and {@code .password}. Without a URL the tests are skipped; with one that cannot be
 * reached they fail. The schema is created once per JVM and every table emptied before each storage
 * is handed out, so a test sees an empty database.
 */
public interface MariadbFixture extends StorageFixture {

  @Override
  default Storage open(Map<String, String> settings) throws Exception {
    String url = Fixtures.setting("HOPS_TEST_MYSQL_URL", "hops.test.mysql.url");
    assumeTrue(
        url != null,
        "MariaDB kit skipped: set HOPS_TEST_MYSQL_URL (e.g. jdbc:mariadb://127.0.0.1:3306/hops_test),"
            + " HOPS_TEST_MYSQL_USER and HOPS_TEST_MYSQL_PASSWORD, or -Dhops.test.mysql.url=...;"
            + " `bash .ci/run` starts a private MariaDB and sets them");
    DalConfig config =
        DalConfig.of(
                Map.of(
                    HopsConfig.METADATA_ENGINE,
                    "mysql",
                    HopsConfig.JDBC_URL,
                    url,
                    HopsConfig.POOL_SIZE,
                    "16",
                    // The kit holds locks in idle transactions on purpose, longer than the lock
                    // wait it tests; the server's idle bound (a paused leader's) would end them.
                    HopsConfig.IDLE_TRANSACTION_TIMEOUT_MS,
                    "0"))
            .with(
                HopsConfig.JDBC_USER,
                orElse(Fixtures.setting("HOPS_TEST_MYSQL_USER", "hops.test.mysql.user"), "hops"))
            .with(
                HopsConfig.JDBC_PASSWORD,
                orElse(
                    Fixtures.setting("HOPS_TEST_MYSQL_PASSWORD", "hops.test.mysql.password"), ""));
    for (Map.Entry<String, String> e : settings.entrySet()) {
      config = config.with(e.getKey(), e.getValue());
    }
    Storage storage = Storages.open(config);
    try {
      Fixtures.createSchemaOnce(storage);
      storage.schema().clearAll();
      return storage;
    } catch (Exception | Error e) {
      storage.close();
      throw e;
    }
  }

  private static String orElse(String value, String fallback) {
    return value == null ? fallback : value;
  }
}
