package io.hops.dal.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.StorageException;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import io.hops.dal.sql.DdlFile.TableDef;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The three DDL files (schema/h2.sql, mysql.sql, ndb.sql) declare the schema the DAL row types
 * describe, and so agree with each other: a column added to a row but forgotten in one engine's
 * file fails here, not at the first write on that engine.
 */
class SchemaFilesAgreeTest {
  private static final List<String> ENGINES = List.of("h2", "mysql", "ndb");

  @ParameterizedTest
  @ValueSource(strings = {"h2", "mysql", "ndb"})
  void fileDeclaresTheDalTablesInLockOrder(String engine) throws StorageException {
    assertThat(DdlFile.load(engine).tables().keySet())
        .containsExactlyElementsOf(Tables.ALL.stream().map(Table::name).toList());
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "mysql", "ndb"})
  void fileDeclaresTheDalColumnsWithTheirTypesAndNullability(String engine)
      throws StorageException {
    DdlFile ddl = DdlFile.load(engine);
    for (Table<?> table : Tables.ALL) {
      TableDef def = ddl.table(table.name());
      assertThat(def.columns().keySet())
          .as("%s: columns of %s", engine, table)
          .containsExactlyElementsOf(table.columns().stream().map(Column::name).toList());
      for (Column c : table.columns()) {
        String where = engine + ": " + table + "." + c.name();
        assertThat(def.type(c.name())).as(where).isEqualTo(sqlType(c));
        assertThat(def.notNull(c.name())).as(where + " NOT NULL").isEqualTo(!c.nullable());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "mysql", "ndb"})
  void fileDeclaresTheDalPrimaryKeysInKeyOrder(String engine) throws StorageException {
    DdlFile ddl = DdlFile.load(engine);
    for (Table<?> table : Tables.ALL) {
      assertThat(ddl.table(table.name()).primaryKey())
          .as("%s: primary key of %s", engine, table)
          .containsExactlyElementsOf(table.keyColumns().stream().map(Column::name).toList());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "mysql", "ndb"})
  void fileIndexesExactlyTheDalIndexedColumns(String engine) throws StorageException {
    DdlFile ddl = DdlFile.load(engine);
    for (Table<?> table : Tables.ALL) {
      assertThat(ddl.table(table.name()).indexedColumns())
          .as("%s: indexed columns of %s", engine, table)
          .containsExactlyInAnyOrderElementsOf(indexedColumns(table));
    }
  }

  // H2 has no partitioning, so only the distributed-minded engines can say it.
  @ParameterizedTest
  @ValueSource(strings = {"mysql", "ndb"})
  void partitionedEnginePartitionsEveryTableByTheDalPartitionColumn(String engine)
      throws StorageException {
    DdlFile ddl = DdlFile.load(engine);
    for (Table<?> table : Tables.ALL) {
      assertThat(ddl.table(table.name()).partitionColumn())
          .as("%s: partition column of %s", engine, table)
          .isEqualTo(table.partitionColumn().map(Column::name));
    }
  }

  @Test
  void theThreeFilesDeclareTheSameTablesColumnsKeysAndIndexes() throws StorageException {
    Map<String, TableShape> h2 = shapes(DdlFile.load("h2"));
    for (String engine : ENGINES) {
      assertThat(shapes(DdlFile.load(engine))).as(engine).containsExactlyEntriesOf(h2);
    }
  }

  @Test
  void mysqlAndNdbPartitionAlikeWhileH2DoesNotPartition() throws StorageException {
    assertThat(partitions(DdlFile.load("mysql")))
        .containsExactlyEntriesOf(partitions(DdlFile.load("ndb")));
    assertThat(partitions(DdlFile.load("h2"))).allSatisfy((t, p) -> assertThat(p).isEmpty());
  }

  // InnoDB refuses a unique index without the partition column: there the id allocator's
  // uniqueness has to do.
  @Test
  void inodeIdIsUniqueExactlyWhereTheEngineAllowsIt() throws StorageException {
    assertThat(DdlFile.load("h2").statements())
        .contains("CREATE UNIQUE INDEX IF NOT EXISTS inodes_id_idx ON inodes(id)");
    assertThat(DdlFile.load("ndb").statements())
        .anySatisfy(s -> assertThat(s).contains("UNIQUE KEY inodes_id_idx (id)"));
    assertThat(DdlFile.load("mysql").statements()).noneMatch(s -> s.contains("UNIQUE"));
  }

  @Test
  void ndbFileCreatesItsDiskStorageBeforeTheTables() throws StorageException {
    List<String> statements = DdlFile.load("ndb").statements();
    assertThat(statements.get(0)).startsWith("CREATE LOGFILE GROUP lg_1");
    assertThat(statements.get(1)).startsWith("CREATE TABLESPACE ts_1");
    assertThat(statements)
        .filteredOn(s -> s.contains("TABLESPACE ts_1 STORAGE DISK"))
        .extracting(s -> s.split("\\s+")[5])
        .containsExactly(
            "ondisk_small_file_data", "ondisk_medium_file_data", "ondisk_large_file_data");
  }

  @Test
  void h2FileRunsTwiceInAFreshDatabase() throws Exception {
    try (Connection c = freshH2()) {
      runH2File(c);
      runH2File(c);
      assertThat(query(c, "SELECT LOWER(TABLE_NAME) FROM INFORMATION_SCHEMA.TABLES" + PUBLIC))
          .containsExactlyInAnyOrderElementsOf(Tables.ALL.stream().map(Table::name).toList());
    }
  }

  @Test
  void h2DatabaseHasTheDalColumnsInOrderWithTheirTypesAndNullability() throws Exception {
    try (Connection c = freshH2()) {
      runH2File(c);
      Map<String, List<String>> actual = new TreeMap<>();
      for (String row :
          query(
              c,
              "SELECT LOWER(TABLE_NAME) || ' ' || LOWER(COLUMN_NAME) || ' ' || DATA_TYPE || ' '"
                  + " || COALESCE(CHARACTER_MAXIMUM_LENGTH, 0) || ' ' || IS_NULLABLE"
                  + " FROM INFORMATION_SCHEMA.COLUMNS"
                  + PUBLIC
                  + " ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
        String[] f = row.split(" ", 2);
        actual.computeIfAbsent(f[0], t -> new ArrayList<>()).add(h2Column(f[1]));
      }
      Map<String, List<String>> expected = new TreeMap<>();
      for (Table<?> table : Tables.ALL) {
        expected.put(table.name(), table.columns().stream().map(col -> columnShape(col)).toList());
      }
      assertThat(actual).isEqualTo(expected);
    }
  }

  @Test
  void h2DatabaseHasTheDalKeysIndexesAndAUniqueInodeId() throws Exception {
    try (Connection c = freshH2()) {
      runH2File(c);
      List<String> expected = new ArrayList<>();
      for (Table<?> table : Tables.ALL) {
        expected.add(table.name() + " PRIMARY KEY (" + String.join(",", keyColumns(table)) + ")");
        for (String col : indexedColumns(table)) {
          boolean unique = table.name().equals("inodes") && col.equals("id");
          expected.add(table.name() + (unique ? " UNIQUE INDEX (" : " INDEX (") + col + ")");
        }
      }
      assertThat(h2Indexes(c)).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void missingEngineFileIsAClearStorageException() {
    assertThatThrownBy(() -> DdlFile.load("no_such_engine"))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("schema/no_such_engine.sql");
  }

  @Test
  void parserStripsCommentsAndReadsColumnsKeysIndexesAndPartitioning() {
    DdlFile ddl =
        DdlFile.parse(
            "sample",
            """
            -- a comment, then a table
            CREATE TABLE IF NOT EXISTS t (
              a BIGINT NOT NULL,
              b varbinary( 16 ),
              PRIMARY KEY (a),
              KEY t_b_idx (b)
            ) ENGINE=InnoDB
              PARTITION BY KEY (a) PARTITIONS 8;
            CREATE UNIQUE INDEX IF NOT EXISTS t_a_idx ON t(a);
            """);
    assertThat(ddl.statements()).hasSize(2).noneMatch(s -> s.contains("--") || s.endsWith(";"));
    TableDef t = ddl.table("t");
    assertThat(t.columns())
        .containsExactly(Map.entry("a", "a BIGINT NOT NULL"), Map.entry("b", "b varbinary( 16 )"));
    assertThat(t.type("b")).isEqualTo("VARBINARY(16)");
    assertThat(t.notNull("a")).isTrue();
    assertThat(t.notNull("b")).isFalse();
    assertThat(t.primaryKey()).containsExactly("a");
    assertThat(t.partitionColumn()).contains("a");
    assertThat(t.indexedColumns()).containsExactly("b", "a");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "CREATE TABLE t (a BIGINT NOT NULL)",
        "CREATE TABLE t (a BIGINT NOT NULL, PRIMARY KEY (b));",
        "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a), KEY t_ab_idx (a, b));",
        "CREATE TABLE t (a INT, PRIMARY KEY (a), CONSTRAINT c UNIQUE (a));",
        "CREATE INDEX u_a_idx ON u(a);"
      })
  void parserRefusesWhatItCannotPlace(String text) {
    assertThatThrownBy(() -> DdlFile.parse("sample", text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sample: ");
  }

  private static final String PUBLIC = " WHERE TABLE_SCHEMA = 'PUBLIC'";

  /** A table as the three files must agree on it; partitioning is compared apart. */
  private record TableShape(List<String> columns, List<String> primaryKey, Set<String> indexed) {}

  private static Map<String, TableShape> shapes(DdlFile ddl) {
    Map<String, TableShape> shapes = new LinkedHashMap<>();
    for (TableDef t : ddl.tables().values()) {
      List<String> columns = new ArrayList<>();
      for (String c : t.columns().keySet()) {
        columns.add(c + " " + t.type(c) + (t.notNull(c) ? " NOT NULL" : ""));
      }
      shapes.put(t.name(), new TableShape(columns, t.primaryKey(), t.indexedColumns()));
    }
    return shapes;
  }

  private static Map<String, Optional<String>> partitions(DdlFile ddl) {
    Map<String, Optional<String>> partitions = new LinkedHashMap<>();
    ddl.tables().forEach((name, t) -> partitions.put(name, t.partitionColumn()));
    return partitions;
  }

  private static String sqlType(Column c) {
    return switch (c.type()) {
      case BIGINT -> "BIGINT";
      case INT -> "INT";
      case SMALLINT -> "SMALLINT";
      case TINYINT -> "TINYINT";
      case BOOLEAN -> "BOOLEAN";
      case STRING, BYTES -> "VARBINARY(" + c.maxBytes() + ")";
    };
  }

  private static String columnShape(Column c) {
    return c.name() + " " + sqlType(c) + (c.nullable() ? "" : " NOT NULL");
  }

  private static List<String> keyColumns(Table<?> table) {
    return table.keyColumns().stream().map(Column::name).toList();
  }

  private static Set<String> indexedColumns(Table<?> table) {
    Set<String> indexed = new TreeSet<>();
    table.columns().stream().filter(Column::indexed).forEach(c -> indexed.add(c.name()));
    return indexed;
  }

  /** An INFORMATION_SCHEMA column row ("name DATA_TYPE length YES|NO") in the DDL's spelling. */
  private static String h2Column(String row) {
    String[] f = row.split(" ");
    String name = f[0];
    String nullable = f[f.length - 1];
    String length = f[f.length - 2];
    String h2Type = String.join(" ", List.of(f).subList(1, f.length - 2));
    String type =
        switch (h2Type) {
          case "BINARY VARYING" -> "VARBINARY(" + length + ")";
          case "INTEGER" -> "INT";
          default -> h2Type;
        };
    return name + " " + type + (nullable.equals("NO") ? " NOT NULL" : "");
  }

  /** Every index as "table INDEX_TYPE_NAME (columns in order)". */
  private static List<String> h2Indexes(Connection c) throws SQLException {
    String sql =
        "SELECT i.INDEX_NAME, LOWER(i.TABLE_NAME), i.INDEX_TYPE_NAME, LOWER(ic.COLUMN_NAME)"
            + " FROM INFORMATION_SCHEMA.INDEXES i JOIN INFORMATION_SCHEMA.INDEX_COLUMNS ic"
            + " ON ic.INDEX_SCHEMA = i.INDEX_SCHEMA AND ic.INDEX_NAME = i.INDEX_NAME"
            + " WHERE i.TABLE_SCHEMA = 'PUBLIC' ORDER BY i.INDEX_NAME, ic.ORDINAL_POSITION";
    Map<String, String> heads = new LinkedHashMap<>();
    Map<String, List<String>> columns = new LinkedHashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        heads.put(rs.getString(1), rs.getString(2) + " " + rs.getString(3));
        columns.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(4));
      }
    }
    List<String> indexes = new ArrayList<>();
    heads.forEach(
        (index, head) -> indexes.add(head + " (" + String.join(",", columns.get(index)) + ")"));
    return indexes;
  }

  private static Connection freshH2() throws SQLException {
    // An unnamed in-memory database is private to its connection and gone when it closes.
    return DriverManager.getConnection("jdbc:h2:mem:");
  }

  private static void runH2File(Connection c) throws SQLException, StorageException {
    try (Statement s = c.createStatement()) {
      for (String statement : DdlFile.load("h2").statements()) {
        s.execute(statement);
      }
    }
  }

  private static List<String> query(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
  }
}
