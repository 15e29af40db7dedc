package io.hops.dal.sql;

import io.hops.dal.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DDL of one engine, {@code schema/<engine>.sql} on the classpath, split into statements and
 * read back into table definitions, so that the schema files can be checked against the DAL row
 * types and against each other.
 *
 * <p>The parser knows only the shape of our own files, not SQL at large: whole-line {@code --}
 * comments, each statement ending with {@code ;} at the end of a line, {@code CREATE TABLE} with
 * column definitions, {@code PRIMARY KEY}, {@code KEY}/{@code INDEX} clauses and {@code PARTITION
 * BY KEY}, and single-column {@code CREATE INDEX}. Other statements (NDB's logfile group and
 * tablespace) are kept in {@link #statements()} but describe no table. Anything it cannot place is
 * an error rather than a guess, since a silently skipped clause would hide a schema drift.
 */
public final class DdlFile {
  private static final Pattern CREATE_TABLE =
      Pattern.compile("(?is)CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)\\s*\\(");
  private static final Pattern CREATE_INDEX =
      Pattern.compile(
          "(?is)CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?\\w+"
              + "\\s+ON\\s+(\\w+)\\s*\\(([^)]*)\\)");
  private static final Pattern PRIMARY_KEY =
      Pattern.compile("(?is)PRIMARY\\s+KEY\\s*\\(([^)]*)\\)");
  private static final Pattern INDEX_CLAUSE =
      Pattern.compile("(?is)(?:UNIQUE\\s+)?(?:KEY|INDEX)\\s+\\w+\\s*\\(([^)]*)\\)");
  private static final Pattern PARTITION =
      Pattern.compile("(?is)\\bPARTITION\\s+BY\\s+KEY\\s*\\(\\s*(\\w+)\\s*\\)");
  private static final Pattern COLUMN =
      Pattern.compile("(?is)(\\w+)\\s+(\\w+(?:\\s*\\(\\s*\\d+\\s*\\))?)(.*)");
  // Our names are lower case, which also keeps a stray upper-case clause from passing as a column.
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
  private static final Pattern NOT_NULL = Pattern.compile("(?i)\\bNOT\\s+NULL\\b");

  private final String name;
  private final List<String> statements;
  private final Map<String, TableDef> tables;

  private DdlFile(String name, List<String> statements, Map<String, TableDef> tables) {
    this.name = name;
    this.statements = List.copyOf(statements);
    this.tables = Collections.unmodifiableMap(tables);
  }

  /**
   * Loads and parses {@code schema/<engineFile>.sql} from the classpath, for engine files such as
   * {@code "mysql"} and {@code "ndb"}.
   */
  public static DdlFile load(String engineFile) throws StorageException {
    String path = "schema/" + engineFile + ".sql";
    try (InputStream in = DdlFile.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new StorageException(
            "no DDL for engine '" + engineFile + "': " + path + " is not on the classpath");
      }
      return parse(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new StorageException("cannot parse " + path + ": " + e.getMessage(), e);
    } catch (StorageException e) {
      throw e;
    } catch (IOException e) {
      throw new StorageException("cannot read " + path, e);
    }
  }

  /**
   * Parses DDL text; {@code name} only labels errors. Throws {@link IllegalArgumentException} on
   * anything outside the shape described above.
   */
  public static DdlFile parse(String name, String text) {
    List<String> statements = splitStatements(name, text);
    Map<String, TableBuilder> builders = new LinkedHashMap<>();
    for (String statement : statements) {
      try {
        describe(statement, builders);
      } catch (IllegalArgumentException e) {
        String start = statement.lines().findFirst().orElse("");
        throw new IllegalArgumentException(name + ": " + e.getMessage() + " in: " + start, e);
      }
    }
    Map<String, TableDef> tables = new LinkedHashMap<>();
    for (TableBuilder builder : builders.values()) {
      try {
        tables.put(builder.name, builder.build());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
      }
    }
    return new DdlFile(name, statements, tables);
  }

  /** Every statement without its trailing {@code ;}, comments stripped, in file order. */
  public List<String> statements() {
    return statements;
  }

  /** The tables by name, in file order. */
  public Map<String, TableDef> tables() {
    return tables;
  }

  public TableDef table(String tableName) {
    TableDef t = tables.get(tableName);
    if (t == null) {
      throw new IllegalArgumentException(name + " declares no table " + tableName);
    }
    return t;
  }

  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * One {@code CREATE TABLE}, with the indexes declared in it or by {@code CREATE INDEX}.
   *
   * @param columns column name to its definition text, whitespace collapsed, in file order
   */
  public record TableDef(
      String name,
      Map<String, String> columns,
      List<String> primaryKey,
      Optional<String> partitionColumn,
      Set<String> indexedColumns) {

    public TableDef {
      columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
      primaryKey = List.copyOf(primaryKey);
      indexedColumns = Collections.unmodifiableSet(new LinkedHashSet<>(indexedColumns));
    }

    /** The column's type, upper case without spaces, e.g. {@code VARBINARY(255)}. */
    public String type(String column) {
      return typeOf(definition(column));
    }

    public boolean notNull(String column) {
      return NOT_NULL.matcher(columnMatcher(definition(column)).group(3)).find();
    }

    private String definition(String column) {
      String def = columns.get(column);
      if (def == null) {
        throw new IllegalArgumentException("table " + name + " has no column " + column);
      }
      return def;
    }
  }

  /** Splits on {@code ;} at line ends, dropping {@code --} lines. */
  private static List<String> splitStatements(String name, String text) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
      }
      current.append(trimmed);
      if (trimmed.endsWith(";")) {
        current.setLength(current.length() - 1);
        statements.add(current.toString().strip());
        current.setLength(0);
      } else {
        current.append('\n');
      }
    }
    if (!current.toString().isBlank()) {
      throw new IllegalArgumentException(name + ": statement without a final ';': " + current);
    }
    return statements;
  }

  private static void describe(String statement, Map<String, TableBuilder> builders) {
    Matcher table = CREATE_TABLE.matcher(statement);
    if (table.lookingAt()) {
      String tableName = checkName(table.group(1));
      if (builders.containsKey(tableName)) {
        throw new IllegalArgumentException("table " + tableName + " declared twice");
      }
      builders.put(tableName, parseTable(tableName, statement, table.end() - 1));
      return;
    }
    if (statement.matches("(?is)CREATE\\s+(UNIQUE\\s+)?INDEX\\b.*")) {
      addIndex(statement, builders);
    }
  }

  private static TableBuilder parseTable(String tableName, String statement, int open) {
    int close = closingParen(statement, open);
    TableBuilder t = new TableBuilder(tableName);
    for (String item : splitTopLevel(statement.substring(open + 1, close))) {
      t.add(item);
    }
    Matcher partition = PARTITION.matcher(statement.substring(close + 1));
    if (partition.find()) {
      t.partitionColumn = t.declared(partition.group(1));
    }
    return t;
  }

  private static void addIndex(String statement, Map<String, TableBuilder> builders) {
    Matcher m = CREATE_INDEX.matcher(statement);
    if (!m.matches()) {
      throw new IllegalArgumentException("unrecognized CREATE INDEX");
    }
    TableBuilder t = builders.get(m.group(1));
    if (t == null) {
      throw new IllegalArgumentException("index on undeclared table " + m.group(1));
    }
    t.addIndexed(m.group(2));
  }

  private static int closingParen(String s, int open) {
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      if (s.charAt(i) == '(') {
        depth++;
      } else if (s.charAt(i) == ')' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("unbalanced parentheses");
  }

  /** Splits a table body on the commas outside parentheses, e.g. not those of a PRIMARY KEY. */
  private static List<String> splitTopLevel(String body) {
    List<String> items = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      if (c == ',' && depth == 0) {
        items.add(collapse(body.substring(start, i)));
        start = i + 1;
      }
    }
    items.add(collapse(body.substring(start)));
    return items;
  }

  private static String checkName(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a lower-case name: " + name);
    }
    return name;
  }

  private static String collapse(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }

  private static String typeOf(String definition) {
    return columnMatcher(definition).group(2).replaceAll("\\s", "").toUpperCase(Locale.ROOT);
  }

  private static Matcher columnMatcher(String definition) {
    Matcher m = COLUMN.matcher(definition);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a column definition: " + definition);
    }
    return m;
  }

  private static List<String> columnList(String list) {
    List<String> names = new ArrayList<>();
    for (String n : list.split(",")) {
      names.add(n.strip());
    }
    return names;
  }

  /** Collects one table's parts; checks that keys and indexes name declared columns. */
  private static final class TableBuilder {
    private final String name;
    private final Map<String, String> columns = new LinkedHashMap<>();
    private final Set<String> indexed = new LinkedHashSet<>();
    private List<String> primaryKey;
    private String partitionColumn;

    TableBuilder(String name) {
      this.name = name;
    }

    void add(String item) {
      Matcher pk = PRIMARY_KEY.matcher(item);
      Matcher index = INDEX_CLAUSE.matcher(item);
      if (pk.matches()) {
        if (primaryKey != null) {
          throw new IllegalArgumentException("table " + name + " has two primary keys");
        }
        primaryKey = columnList(pk.group(1)).stream().map(this::declared).toList();
      } else if (index.matches()) {
        addIndexed(index.group(1));
      } else {
        String column = checkName(columnMatcher(item).group(1));
        if (columns.put(column, item) != null) {
          throw new IllegalArgumentException("table " + name + " declares " + column + " twice");
        }
      }
    }

    void addIndexed(String list) {
      List<String> cols = columnList(list);
      // The DAL's @Indexed describes single-column indexes only, so nothing could check the rest.
      if (cols.size() != 1) {
        throw new IllegalArgumentException("composite index on " + name + " (" + list + ")");
      }
      indexed.add(declared(cols.get(0)));
    }

    String declared(String column) {
      if (!columns.containsKey(column)) {
        throw new IllegalArgumentException("table " + name + " has no column " + column);
      }
      return column;
    }

    TableDef build() {
      if (primaryKey == null) {
        throw new IllegalArgumentException("table " + name + " has no primary key");
      }
      return new TableDef(name, columns, primaryKey, Optional.ofNullable(partitionColumn), indexed);
    }
  }
}
