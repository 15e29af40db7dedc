package io.hops.dal.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storages;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A database made by an older hops, whose name columns held 255 bytes, is widened to the DDL's 1024
 * as a namenode starts (the schema is upgraded in place). Runs against the MariaDB of {@code
 * HOPS_TEST_MYSQL_URL}; skipped without one, as the other MariaDB kits are.
 */
class SchemaWideningTest {

  @Test
  void theDeclaredWidthOfAColumnIsRead() {
    assertThat(SqlSchemaAdmin.declaredBytes("name VARBINARY(1024)")).isEqualTo(1024);
    assertThat(SqlSchemaAdmin.declaredBytes("holder varbinary(255) NOT NULL")).isEqualTo(255);
    assertThat(SqlSchemaAdmin.declaredBytes("id BIGINT NOT NULL")).isZero();
  }

  @Test
  void narrowerNameColumnsOfAnOlderSchemaAreWidened() throws Exception {
    String url = System.getenv("HOPS_TEST_MYSQL_URL");
    assumeTrue(url != null && !url.isBlank(), "needs HOPS_TEST_MYSQL_URL");
    DalConfig config =
        DalConfig.of(Map.of(HopsConfig.METADATA_ENGINE, "mysql", HopsConfig.JDBC_URL, url))
            .with(
                HopsConfig.JDBC_USER, System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops"))
            .with(
                HopsConfig.JDBC_PASSWORD,
                System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", ""));
    try (SqlStorage storage = (SqlStorage) Storages.open(config)) {
      storage.schema().createOrUpgrade();
      try (Connection c = storage.connection();
          Statement s = c.createStatement()) {
        s.execute("ALTER TABLE hdfs_users MODIFY COLUMN name VARBINARY(255)");
        s.execute("ALTER TABLE leases MODIFY COLUMN holder VARBINARY(255) NOT NULL");
        c.commit();
      }
      assertThat(width(storage, "hdfs_users", "name")).isEqualTo(255);
      storage.schema().createOrUpgrade();
      assertThat(width(storage, "hdfs_users", "name")).isEqualTo(1024);
      assertThat(width(storage, "leases", "holder")).isEqualTo(1024);
    }
  }

  private static int width(SqlStorage storage, String table, String column) throws Exception {
    try (Connection c = storage.connection();
        ResultSet rs = c.getMetaData().getColumns(c.getCatalog(), c.getSchema(), table, column)) {
      assertThat(rs.next()).isTrue();
      return rs.getInt("COLUMN_SIZE");
    }
  }
}
