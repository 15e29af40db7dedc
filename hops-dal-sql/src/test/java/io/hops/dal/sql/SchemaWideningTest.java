package io.hops.dal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.sql.kit.MariadbFixture;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A database made by an older hops is upgraded in place as a namenode starts: name columns that
 * held 255 or 1024 bytes are widened to the DDL's, an index the schema no longer has is dropped,
 * one it has and the table lacks is added, and a table whose primary key changed is rebuilt with
 * its rows. Runs against the MariaDB of {@code HOPS_TEST_MYSQL_URL}; skipped without one, as the
 * other MariaDB kits are.
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
      assertThat(width(storage, "hdfs_users", "name")).isEqualTo(MaxBytes.NAME);
      assertThat(width(storage, "leases", "holder")).isEqualTo(MaxBytes.NAME);
    }
  }

  /**
   * The user, group and client names of a database whose columns held 1024 bytes are widened to
   * {@link MaxBytes#NAME} with their rows, keys and partitioning, and then hold names that wide.
   */
  @Test
  void nameColumnsOf1024BytesAreWidenedWithTheirRows() throws Exception {
    String[][] columns = {
      {"hdfs_users", "name", ""},
      {"hdfs_groups", "name", ""},
      {"leases", "holder", " NOT NULL"},
      {"lease_paths", "holder", " NOT NULL"},
      {"inodes", "client_name", ""},
      {"on_going_subtree_ops", "user_name", ""},
      {"on_going_subtree_ops", "client_name", ""}
    };
    try (SqlStorage storage = (SqlStorage) open(Map.of())) {
      storage.schema().createOrUpgrade();
      try (Connection c = storage.connection();
          Statement s = c.createStatement()) {
        for (String[] col : columns) {
          s.execute(
              "ALTER TABLE " + col[0] + " MODIFY COLUMN " + col[1] + " VARBINARY(1024)" + col[2]);
        }
        s.execute("INSERT INTO lease_paths VALUES ('a', 7, '/a/f', 11, 10)");
        c.commit();
      }
      assertThat(width(storage, "lease_paths", "holder")).isEqualTo(1024);
      storage.schema().createOrUpgrade();
      for (String[] col : columns) {
        assertThat(width(storage, col[0], col[1]))
            .as(col[0] + "." + col[1])
            .isEqualTo(MaxBytes.NAME);
      }
      assertThat(primaryKey(storage, "lease_paths")).containsExactly("holder", "inode_id");
      String widest = "h".repeat(MaxBytes.NAME);
      try (Connection c = storage.connection();
          Statement s = c.createStatement()) {
        s.execute("INSERT INTO lease_paths VALUES ('" + widest + "', 8, '/a/g', -1, -1)");
        c.commit();
      }
      assertThat(rows(storage, "lease_paths"))
          .containsExactlyInAnyOrder("a:7:/a/f:11:10", widest + ":8:/a/g:-1:-1");
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

  /**
   * {@code snapshot_kept_files} had no index before schema version 12: the upgrade adds its index
   * by {@code inode_id}, with the rows already there, and leaves it alone afterwards.
   */
  @Test
  void theKeptFilesIndexByInodeIsAddedToAnOlderSchema() throws Exception {
    try (SqlStorage storage = (SqlStorage) open(Map.of())) {
      storage.schema().createOrUpgrade();
      try (Connection c = storage.connection();
          Statement s = c.createStatement()) {
        s.execute("ALTER TABLE snapshot_kept_files DROP INDEX snapshot_kept_files_inode_id_idx");
        s.execute("INSERT INTO snapshot_kept_files VALUES (7, 3, -11), (8, 4, -11)");
        c.commit();
      }
      assertThat(indexes(storage, "snapshot_kept_files"))
          .doesNotContain("snapshot_kept_files_inode_id_idx");
      storage.schema().createOrUpgrade();
      assertThat(indexes(storage, "snapshot_kept_files"))
          .contains("snapshot_kept_files_inode_id_idx", "primary");
      try (io.hops.dal.Transaction tx = storage.begin()) {
        assertThat(
                tx.findByIndex(
                    io.hops.dal.rows.SnapshotKeptFileRow.TABLE,
                    "inode_id",
                    -11L,
                    io.hops.dal.LockMode.READ_COMMITTED))
            .hasSize(2);
      }
      storage.schema().createOrUpgrade(); // nothing left to add
      assertThat(indexes(storage, "snapshot_kept_files")).hasSize(2);
    }
  }

  /**
   * {@code lease_paths} was keyed by inode id with an index on the holder, and is keyed by holder
   * and inode id: the upgrade rebuilds it with its rows (a row without a holder cannot be keyed and
   * is left behind), and an upgrade that stopped after setting the old table aside finishes.
   */
  @Test
  void aTableWhosePrimaryKeyChangedIsRebuiltWithItsRows() throws Exception {
    try (SqlStorage storage = (SqlStorage) open(Map.of())) {
      storage.schema().createOrUpgrade();
      try (Connection c = storage.connection();
          Statement s = c.createStatement()) {
        makeOldLeasePaths(s, "lease_paths");
        c.commit();
      }
      assertThat(primaryKey(storage, "lease_paths")).containsExactly("inode_id");
      storage.schema().createOrUpgrade();
      assertThat(primaryKey(storage, "lease_paths")).containsExactly("holder", "inode_id");
      assertThat(indexes(storage, "lease_paths")).containsExactly("primary");
      assertThat(rows(storage, "lease_paths")).containsExactly("a:7:/a/f:11:10", "b:3:/b/g:-1:-1");
      assertThat(storage.schema().existingTables()).contains("lease_paths");
      assertThat(tables(storage)).doesNotContain("lease_paths_rekeyed");

      // Stopped after the rename: the table is made and filled on the next start.
      try (Connection c = storage.connection();
          Statement s = c.createStatement()) {
        s.execute("DROP TABLE lease_paths");
        makeOldLeasePaths(s, "lease_paths" + SqlSchemaAdmin.REKEYED_SUFFIX);
        c.commit();
      }
      storage.schema().createOrUpgrade();
      assertThat(primaryKey(storage, "lease_paths")).containsExactly("holder", "inode_id");
      assertThat(rows(storage, "lease_paths")).containsExactly("a:7:/a/f:11:10", "b:3:/b/g:-1:-1");
      assertThat(tables(storage)).doesNotContain("lease_paths_rekeyed");
      storage.schema().createOrUpgrade(); // nothing left to rebuild
      assertThat(rows(storage, "lease_paths")).hasSize(2);
    }
  }

  /** {@code lease_paths} as stop 53 made it, with three rows, one of them without a holder. */
  private static void makeOldLeasePaths(Statement s, String name) throws Exception {
    s.execute("DROP TABLE IF EXISTS " + name);
    s.execute(
        "CREATE TABLE "
            + name
            + " (inode_id BIGINT NOT NULL, holder VARBINARY(1024), path VARBINARY(8000),"
            + " last_block_id BIGINT NOT NULL, penultimate_block_id BIGINT NOT NULL,"
            + " PRIMARY KEY (inode_id), KEY lease_paths_holder_idx (holder)) ENGINE=InnoDB"
            + " PARTITION BY KEY (inode_id) PARTITIONS 8");
    s.execute(
        "INSERT INTO "
            + name
            + " VALUES (7, 'a', '/a/f', 11, 10), (3, 'b', '/b/g', -1, -1), (5, NULL, '/c', -1, -1)");
  }

  private static List<String> primaryKey(SqlStorage storage, String table) throws Exception {
    try (Connection c = storage.connection()) {
      return SqlSchemaAdmin.primaryKeyOf(c, table);
    }
  }

  private static List<String> rows(SqlStorage storage, String table) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = storage.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT holder, inode_id, path, last_block_id, penultimate_block_id FROM "
                    + table
                    + " ORDER BY holder, inode_id")) {
      while (rs.next()) {
        out.add(
            new String(rs.getBytes(1), StandardCharsets.UTF_8)
                + ":"
                + rs.getLong(2)
                + ":"
                + new String(rs.getBytes(3), StandardCharsets.UTF_8)
                + ":"
                + rs.getLong(4)
                + ":"
                + rs.getLong(5));
      }
    }
    return out;
  }

  private static Set<String> tables(SqlStorage storage) throws Exception {
    try (Connection c = storage.connection()) {
      return SqlSchemaAdmin.tablesIn(c);
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
