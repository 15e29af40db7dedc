package io.hops.dal.sql;

import io.hops.dal.SchemaAdmin;
import io.hops.dal.StorageException;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Creates the schema from the engine's DDL file and upgrades an older one by adding the columns it
 * lacks, with their definitions from the same file, widening columns, rebuilding a table whose
 * primary key changed (its rows copied over) and dropping indexes the schema no longer has. Never
 * drops data unless asked to.
 */
final class SqlSchemaAdmin implements SchemaAdmin {
  private final SqlStorage storage;

  SqlSchemaAdmin(SqlStorage storage) {
    this.storage = storage;
  }

  @Override
  public List<String> existingTables() throws StorageException {
    try (Connection c = storage.connection()) {
      Set<String> present = tablesIn(c);
      List<String> out = new ArrayList<>();
      for (Table<?> t : Tables.ALL) {
        if (present.contains(t.name())) {
          out.add(t.name());
        }
      }
      return out;
    } catch (SQLException e) {
      throw storage.dialect().classify("listing tables", e);
    }
  }

  @Override
  public boolean hasData() throws StorageException {
    List<String> tables = existingTables();
    try (Connection c = storage.connection();
        Statement s = c.createStatement()) {
      for (String t : tables) {
        try (ResultSet rs = s.executeQuery("SELECT 1 FROM " + t + " LIMIT 1")) {
          if (rs.next()) {
            return true;
          }
        }
      }
      c.rollback();
      return false;
    } catch (SQLException e) {
      throw storage.dialect().classify("looking for data", e);
    }
  }

  @Override
  public List<String> createOrUpgrade() throws StorageException {
    DdlFile ddl = DdlFile.load(storage.dialect().ddlFile());
    List<String> before = existingTables();
    try (Connection c = storage.connection();
        Statement s = c.createStatement()) {
      List<DdlFile.TableDef> rekeyed = setAsideRekeyed(c, s, ddl);
      for (String statement : ddl.statements()) {
        try {
          s.execute(statement);
        } catch (SQLException e) {
          if (!storage.dialect().ignorableDdlError(statement, e)) {
            throw e;
          }
        }
      }
      addMissingColumns(c, s, ddl);
      addMissingIndexes(c, s, ddl);
      copyBackRekeyed(s, rekeyed);
      dropObsoleteIndexes(c, s);
      c.commit();
    } catch (SQLException e) {
      throw storage.dialect().classify("creating the schema", e);
    }
    List<String> created = new ArrayList<>(existingTables());
    created.removeAll(before);
    return created;
  }

  private void addMissingColumns(Connection c, Statement s, DdlFile ddl) throws SQLException {
    for (DdlFile.TableDef def : ddl.tables().values()) {
      Map<String, Integer> present = columnsOf(c, def.name());
      for (Map.Entry<String, String> col : def.columns().entrySet()) {
        Integer size = present.get(col.getKey());
        if (size == null) {
          s.execute("ALTER TABLE " + def.name() + " ADD COLUMN " + col.getValue());
        } else if (size < declaredBytes(col.getValue())) {
          // A string column the DDL has since widened (e.g. names of 255 or 1024 bytes to 3064).
          s.execute("ALTER TABLE " + def.name() + " MODIFY COLUMN " + col.getValue());
        }
      }
    }
  }

  /**
   * Adds the secondary indexes an older schema's table lacks (as {@code snapshot_kept_files} by
   * {@code inode_id}, schema version 12), named as the DDL file names them: {@code
   * <table>_<column>_idx}. A column some index of the table already starts with is left alone.
   */
  private static void addMissingIndexes(Connection c, Statement s, DdlFile ddl)
      throws SQLException {
    for (DdlFile.TableDef def : ddl.tables().values()) {
      if (def.indexedColumns().isEmpty()) {
        continue;
      }
      Set<String> led = indexLeadingColumnsOf(c, def.name());
      for (String column : def.indexedColumns()) {
        if (!led.contains(column.toLowerCase(Locale.ROOT))) {
          s.execute(
              "ALTER TABLE "
                  + def.name()
                  + " ADD INDEX "
                  + def.name()
                  + "_"
                  + column
                  + "_idx ("
                  + column
                  + ")");
        }
      }
    }
  }

  /** The first column of each of {@code table}'s indexes, the primary key's too, in lower case. */
  private static Set<String> indexLeadingColumnsOf(Connection c, String table) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    Set<String> columns = new HashSet<>();
    for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
      try (ResultSet rs = meta.getIndexInfo(c.getCatalog(), c.getSchema(), name, false, true)) {
        while (rs.next()) {
          String column = rs.getString("COLUMN_NAME");
          if (column != null && rs.getShort("ORDINAL_POSITION") == 1) {
            columns.add(column.toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    return columns;
  }

  /** The suffix of a table set aside while it is rebuilt with a new primary key. */
  static final String REKEYED_SUFFIX = "_rekeyed";

  /**
   * Sets aside (renames) each table whose primary key is not the one the DDL file declares (as
   * {@code lease_paths}, keyed by inode id before stop 54 and by holder and inode id since), so
   * that the DDL creates it anew; {@link #copyBackRekeyed} then copies its rows over and drops it.
   * Returns the tables to copy back: those set aside now, and those an upgrade that stopped midway
   * set aside before (the copy skips rows already copied).
   */
  private static List<DdlFile.TableDef> setAsideRekeyed(Connection c, Statement s, DdlFile ddl)
      throws SQLException {
    Set<String> present = tablesIn(c);
    List<DdlFile.TableDef> out = new ArrayList<>();
    for (DdlFile.TableDef def : ddl.tables().values()) {
      String aside = def.name() + REKEYED_SUFFIX;
      if (present.contains(def.name()) && !primaryKeyOf(c, def.name()).equals(def.primaryKey())) {
        if (present.contains(aside)) {
          throw new SQLException(
              "table "
                  + def.name()
                  + " has an old primary key and "
                  + aside
                  + " exists: an earlier upgrade was interrupted and the table was changed since;"
                  + " compare the two and drop one");
        }
        s.execute("RENAME TABLE " + def.name() + " TO " + aside);
        out.add(def);
      } else if (present.contains(aside)) {
        out.add(def);
      }
    }
    return out;
  }

  /**
   * Copies the rows of each table {@link #setAsideRekeyed} set aside into the table the DDL made,
   * skipping those already there and those whose new key columns are null, and drops it.
   */
  private static void copyBackRekeyed(Statement s, List<DdlFile.TableDef> rekeyed)
      throws SQLException {
    for (DdlFile.TableDef def : rekeyed) {
      String columns = String.join(", ", def.columns().keySet());
      String present =
          def.primaryKey().stream()
              .map(k -> k + " IS NOT NULL")
              .collect(Collectors.joining(" AND "));
      s.execute(
          "INSERT IGNORE INTO "
              + def.name()
              + " ("
              + columns
              + ") SELECT "
              + columns
              + " FROM "
              + def.name()
              + REKEYED_SUFFIX
              + " WHERE "
              + present);
      s.execute("DROP TABLE " + def.name() + REKEYED_SUFFIX);
    }
  }

  /** The columns of {@code table}'s primary key, in key order, in lower case. */
  static List<String> primaryKeyOf(Connection c, String table) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    TreeMap<Integer, String> columns = new TreeMap<>();
    for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
      try (ResultSet rs = meta.getPrimaryKeys(c.getCatalog(), c.getSchema(), name)) {
        while (rs.next()) {
          columns.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
        }
      }
    }
    return List.copyOf(columns.values());
  }

  /**
   * Indexes an older schema had and this one does not, by table: no write maintains them any more
   * than it reads them, yet the database would keep updating them.
   */
  static final Map<String, List<String>> OBSOLETE_INDEXES =
      Map.of("retry_cache", List.of("retry_cache_expiration_time_idx"));

  private static void dropObsoleteIndexes(Connection c, Statement s) throws SQLException {
    for (Map.Entry<String, List<String>> e : OBSOLETE_INDEXES.entrySet()) {
      Set<String> present = indexesOf(c, e.getKey());
      for (String index : e.getValue()) {
        if (present.contains(index)) {
          s.execute("ALTER TABLE " + e.getKey() + " DROP INDEX " + index);
        }
      }
    }
  }

  /** The names of {@code table}'s indexes, in lower case ({@code primary} among them). */
  static Set<String> indexesOf(Connection c, String table) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    Set<String> names = new HashSet<>();
    for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
      try (ResultSet rs = meta.getIndexInfo(c.getCatalog(), c.getSchema(), name, false, true)) {
        while (rs.next()) {
          String index = rs.getString("INDEX_NAME");
          if (index != null) {
            names.add(index.toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    return names;
  }

  private static final java.util.regex.Pattern VARBINARY =
      java.util.regex.Pattern.compile(
          "VARBINARY\\((\\d+)\\)", java.util.regex.Pattern.CASE_INSENSITIVE);

  /** The width a DDL column definition declares for a VARBINARY, else 0 (nothing to widen). */
  static int declaredBytes(String definition) {
    var m = VARBINARY.matcher(definition);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  @Override
  public void clearAll() throws StorageException {
    runOnEach("DELETE FROM ");
  }

  @Override
  public void dropAll() throws StorageException {
    runOnEach("DROP TABLE IF EXISTS ");
  }

  private void runOnEach(String prefix) throws StorageException {
    List<String> tables = existingTables();
    try (Connection c = storage.connection();
        Statement s = c.createStatement()) {
      for (String t : tables) {
        s.execute(prefix + t);
      }
      c.commit();
    } catch (SQLException e) {
      throw storage.dialect().classify(prefix.trim().toLowerCase(Locale.ROOT) + " tables", e);
    }
  }

  static Set<String> tablesIn(Connection c) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    Set<String> names = new HashSet<>();
    try (ResultSet rs =
        meta.getTables(c.getCatalog(), c.getSchema(), "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }

  /** The table's columns and their sizes (a string column's bytes). */
  private static Map<String, Integer> columnsOf(Connection c, String table) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    Map<String, Integer> names = new java.util.HashMap<>();
    for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
      try (ResultSet rs = meta.getColumns(c.getCatalog(), c.getSchema(), name, "%")) {
        while (rs.next()) {
          names.put(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT), rs.getInt("COLUMN_SIZE"));
        }
      }
    }
    return names;
  }
}
