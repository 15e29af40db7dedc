package io.hops.dal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.sql.kit.MariadbFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A database made by an older hops is upgraded in place as a namenode starts: name columns that
 * held 255 bytes are widened to the DDL's 1024, and an index the schema no longer has is dropped.
 * Runs against the MariaDB of {@code HOPS_TEST_MYSQL_URL}; skipped without one, as the other
 * MariaDB kits are.
 */
class SchemaWideningTest implements MariadbFixture {

  @Test
  void theDeclaredWidthOfAColumnIsRead() {
    assertThat(SqlSchemaAdmin.declaredBytes("name VARBINARY(1024)")).isEqualTo(1024);
    assertThat(SqlSchemaAdmin.declaredBytes("holder varbinary(255) NOT NULL")).isEqualTo(255);
    assertThat(SqlSchemaAdmin.declaredBytes("id BIGINT NOT NULL")).isZero();
  }

  @Test
  void narrowerNameColumnsOfAnOlderSchemaAreWidened() throws Exception {
    try (SqlStorage storage = (SqlStorage) open(Map.of())) {
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

  @Test
  void theRetryCacheExpirationIndexOfAnOlderSchemaIsDropped() throws Exception {
    try (SqlStorage storage = (SqlStorage) open(Map.of())) {
      storage.schema().createOrUpgrade();
      try (Connection c = storage.connection();
          Statement s = c.createStatement()) {
        s.execute(
            "ALTER TABLE retry_cache ADD INDEX retry_cache_expiration_time_idx (expiration_time)");
        c.commit();
      }
      assertThat(indexes(storage, "retry_cache")).contains("retry_cache_expiration_time_idx");
      storage.schema().createOrUpgrade();
      assertThat(indexes(storage, "retry_cache"))
          .doesNotContain("retry_cache_expiration_time_idx")
          .contains("primary");
      storage.schema().createOrUpgrade(); // nothing left to drop
    }
  }

  private static Set<String> indexes(SqlStorage storage, String table) throws Exception {
    try (Connection c = storage.connection()) {
      return SqlSchemaAdmin.indexesOf(c, table);
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
