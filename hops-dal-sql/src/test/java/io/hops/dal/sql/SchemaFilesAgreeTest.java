package io.hops.dal.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.StorageException;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import io.hops.dal.sql.DdlFile.TableDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The DDL files of the SQL engines (schema/mysql.sql, ndb.sql) declare the schema the DAL row types
 * describe, and so agree with each other: a column added to a row but forgotten in one engine's
 * file fails here, not at the first write on that engine. (The embedded engine has no DDL: it
 * derives its key layout from the row types themselves.)
 */
class SchemaFilesAgreeTest {
  private static final List<String> ENGINES = List.of("mysql", "ndb");

  @ParameterizedTest
  @ValueSource(strings = {"mysql", "ndb"})
  void fileDeclaresTheDalTablesInLockOrder(String engine) throws StorageException {
    assertThat(DdlFile.load(engine).tables().keySet())
        .containsExactlyElementsOf(Tables.ALL.stream().map(Table::name).toList());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mysql", "ndb"})
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
  @ValueSource(strings = {"mysql", "ndb"})
  void fileDeclaresTheDalPrimaryKeysInKeyOrder(String engine) throws StorageException {
    DdlFile ddl = DdlFile.load(engine);
    for (Table<?> table : Tables.ALL) {
      assertThat(ddl.table(table.name()).primaryKey())
          .as("%s: primary key of %s", engine, table)
          .containsExactlyElementsOf(table.keyColumns().stream().map(Column::name).toList());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"mysql", "ndb"})
  void fileIndexesExactlyTheDalIndexedColumns(String engine) throws StorageException {
    DdlFile ddl = DdlFile.load(engine);
    for (Table<?> table : Tables.ALL) {
      assertThat(ddl.table(table.name()).indexedColumns())
          .as("%s: indexed columns of %s", engine, table)
          .containsExactlyInAnyOrderElementsOf(indexedColumns(table));
    }
  }

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
  void theFilesDeclareTheSameTablesColumnsKeysAndIndexes() throws StorageException {
    Map<String, TableShape> mysql = shapes(DdlFile.load("mysql"));
    for (String engine : ENGINES) {
      assertThat(shapes(DdlFile.load(engine))).as(engine).containsExactlyEntriesOf(mysql);
    }
  }

  @Test
  void mysqlAndNdbPartitionAlike() throws StorageException {
    assertThat(partitions(DdlFile.load("mysql")))
        .containsExactlyEntriesOf(partitions(DdlFile.load("ndb")));
  }

  // InnoDB refuses a unique index without the partition column: there the id allocator's
  // uniqueness has to do.
  @Test
  void inodeIdIsUniqueExactlyWhereTheEngineAllowsIt() throws StorageException {
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

  private static Set<String> indexedColumns(Table<?> table) {
    Set<String> indexed = new TreeSet<>();
    table.columns().stream().filter(Column::indexed).forEach(c -> indexed.add(c.name()));
    return indexed;
  }
}
