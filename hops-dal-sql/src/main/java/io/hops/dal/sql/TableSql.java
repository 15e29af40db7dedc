package io.hops.dal.sql;

import io.hops.dal.KeyRange;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The SQL of one table, built once from its {@link Table} description, and the binding of its
 * values. Strings travel as UTF-8 bytes (the columns are VARBINARY) so comparison is exact; a
 * {@link io.hops.dal.schema.SignedByteOrder} column is stored with the sign bit of every byte
 * flipped, since VARBINARY compares unsigned and HDFS orders names signed.
 */
final class TableSql<R extends Record> {
  private final Table<R> table;
  private final String select;
  private final String byKey;
  private final String keyTuple;
  private final String orderBy;
  final String insert;

  /**
   * The insert that leaves a row with the same key as it is: a duplicate key makes it set a key
   * column to itself, in MariaDB, MySQL and NDB alike. Not {@code INSERT IGNORE}, which would also
   * swallow errors that are no duplicate (a value out of range, a missing partition).
   */
  final String insertIfAbsent;

  final String update;
  final String delete;

  /** The delete of a {@link KeyRange}: the key's last column between two values. */
  final String deleteRange;

  private final Map<Integer, String> batchSql = new ConcurrentHashMap<>();

  TableSql(Table<R> table) {
    this.table = table;
    List<Column> cols = table.columns();
    List<Column> keys = table.keyColumns();
    this.select =
        "SELECT "
            + cols.stream().map(Column::name).collect(Collectors.joining(", "))
            + " FROM "
            + table.name();
    this.byKey = keys.stream().map(c -> c.name() + " = ?").collect(Collectors.joining(" AND "));
    this.keyTuple = keys.stream().map(Column::name).collect(Collectors.joining(", "));
    this.orderBy = " ORDER BY " + keyTuple;
    this.insert =
        "INSERT INTO "
            + table.name()
            + " ("
            + cols.stream().map(Column::name).collect(Collectors.joining(", "))
            + ") VALUES ("
            + cols.stream().map(c -> "?").collect(Collectors.joining(", "))
            + ")";
    String firstKey = keys.get(0).name();
    this.insertIfAbsent = insert + " ON DUPLICATE KEY UPDATE " + firstKey + " = " + firstKey;
    List<Column> nonKey = cols.stream().filter(c -> !c.primaryKey()).toList();
    this.update =
        nonKey.isEmpty()
            ? null
            : "UPDATE "
                + table.name()
                + " SET "
                + nonKey.stream().map(c -> c.name() + " = ?").collect(Collectors.joining(", "))
                + " WHERE "
                + byKey;
    this.delete = "DELETE FROM " + table.name() + " WHERE " + byKey;
    Column last = keys.get(keys.size() - 1);
    this.deleteRange =
        "DELETE FROM "
            + table.name()
            + " WHERE "
            + keys.subList(0, keys.size() - 1).stream()
                .map(c -> c.name() + " = ? AND ")
                .collect(Collectors.joining())
            + last.name()
            + " BETWEEN ? AND ?";
  }

  Table<R> table() {
    return table;
  }

  String findByKey(String lockClause) {
    return select + " WHERE " + byKey + lockClause;
  }

  /** One statement for {@code n} keys: a row-value IN list, one round trip. */
  String findBatch(int n, String lockClause) {
    String base =
        batchSql.computeIfAbsent(
            n,
            size -> {
              String one =
                  table.keyColumns().size() == 1
                      ? "?"
                      : "("
                          + table.keyColumns().stream()
                              .map(c -> "?")
                              .collect(Collectors.joining(", "))
                          + ")";
              String tuple = table.keyColumns().size() == 1 ? keyTuple : "(" + keyTuple + ")";
              return select
                  + " WHERE "
                  + tuple
                  + " IN ("
                  + String.join(", ", java.util.Collections.nCopies(size, one))
                  + ")";
            });
    return base + lockClause;
  }

  String scan(List<Column> columns, String lockClause) {
    String where =
        columns.isEmpty()
            ? ""
            : " WHERE "
                + columns.stream().map(c -> c.name() + " = ?").collect(Collectors.joining(" AND "));
    return select + where + orderBy + lockClause;
  }

  /** The rows of {@code n} partitions ({@code partition IN (?, ...)}), in key order. */
  String scanIn(Column partition, int n, String lockClause) {
    return select
        + " WHERE "
        + partition.name()
        + " IN ("
        + String.join(", ", java.util.Collections.nCopies(n, "?"))
        + ")"
        + orderBy
        + lockClause;
  }

  /**
   * A page of a range scan: {@code partition = ?} if given, then the rows whose key is greater than
   * a key ({@code (k1 > ?) OR (k1 = ? AND k2 > ?) OR ...}, which every engine's range optimizer
   * reads as a range of the primary key), in key order, at most {@code limit}. Bound by {@link
   * #bindAfter}.
   */
  String scanFrom(Column partition, boolean after, int limit, String lockClause) {
    List<String> where = new java.util.ArrayList<>();
    if (partition != null) {
      where.add(partition.name() + " = ?");
    }
    if (after) {
      List<Column> keys = table.keyColumns();
      List<String> alternatives = new java.util.ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        StringBuilder b = new StringBuilder("(");
        for (int j = 0; j < i; j++) {
          b.append(keys.get(j).name()).append(" = ? AND ");
        }
        b.append(keys.get(i).name()).append(" > ?)");
        alternatives.add(b.toString());
      }
      where.add("(" + String.join(" OR ", alternatives) + ")");
    }
    return select
        + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
        + orderBy
        + " LIMIT "
        + limit
        + lockClause;
  }

  /** Binds the key of {@link #scanFrom}'s condition from {@code first}; returns the next index. */
  int bindAfter(PreparedStatement ps, int first, Key after) throws SQLException {
    List<Column> keys = table.keyColumns();
    int next = first;
    for (int i = 0; i < keys.size(); i++) {
      for (int j = 0; j <= i; j++) {
        bind(ps, next++, keys.get(j), after.value(j));
      }
    }
    return next;
  }

  /** The primary keys of the rows whose {@code column} equals a value, in key order. */
  String keysByIndex(Column column) {
    return "SELECT "
        + keyTuple
        + " FROM "
        + table.name()
        + " WHERE "
        + column.name()
        + " = ?"
        + orderBy;
  }

  /** The key of {@link #keysByIndex}'s current row. */
  Key readKey(ResultSet rs) throws SQLException {
    List<Column> keys = table.keyColumns();
    Object[] values = new Object[keys.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = get(rs, i + 1, keys.get(i));
    }
    return table.key(values);
  }

  /** Binds a key's values from parameter {@code first}; returns the next parameter index. */
  int bindKey(PreparedStatement ps, int first, Key key) throws SQLException {
    List<Column> keys = table.keyColumns();
    for (int i = 0; i < keys.size(); i++) {
      bind(ps, first + i, keys.get(i), key.value(i));
    }
    return first + keys.size();
  }

  /** Binds {@link #deleteRange}: the key's other columns, then the range's two ends. */
  void bindRange(PreparedStatement ps, KeyRange range) throws SQLException {
    List<Column> keys = table.keyColumns();
    int last = keys.size() - 1;
    for (int i = 0; i < last; i++) {
      bind(ps, 1 + i, keys.get(i), range.first().value(i));
    }
    bind(ps, 1 + last, keys.get(last), range.first().value(last));
    bind(ps, 2 + last, keys.get(last), range.last().value(last));
  }

  void bindInsert(PreparedStatement ps, R row) throws SQLException {
    int i = 1;
    for (Column c : table.columns()) {
      bind(ps, i++, c, table.get(row, c.position()));
    }
  }

  void bindUpdate(PreparedStatement ps, R row) throws SQLException {
    int i = 1;
    for (Column c : table.columns()) {
      if (!c.primaryKey()) {
        bind(ps, i++, c, table.get(row, c.position()));
      }
    }
    bindKey(ps, i, table.keyOf(row));
  }

  R read(ResultSet rs) throws SQLException {
    List<Column> cols = table.columns();
    Object[] values = new Object[cols.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = get(rs, i + 1, cols.get(i));
    }
    return table.newRow(values);
  }

  static void bind(PreparedStatement ps, int index, Column c, Object v) throws SQLException {
    if (v == null) {
      ps.setNull(index, sqlType(c.type()));
      return;
    }
    switch (c.type()) {
      case BIGINT -> ps.setLong(index, (Long) v);
      case INT -> ps.setInt(index, (Integer) v);
      case SMALLINT -> ps.setShort(index, (Short) v);
      case TINYINT -> ps.setByte(index, (Byte) v);
      case BOOLEAN -> ps.setBoolean(index, (Boolean) v);
      case STRING ->
          ps.setBytes(
              index,
              c.signedByteOrder()
                  ? Column.flipSignBits(((String) v).getBytes(StandardCharsets.UTF_8))
                  : ((String) v).getBytes(StandardCharsets.UTF_8));
      case BYTES -> ps.setBytes(index, (byte[]) v);
    }
  }

  private static Object get(ResultSet rs, int index, Column c) throws SQLException {
    Object v =
        switch (c.type()) {
          case BIGINT -> rs.getLong(index);
          case INT -> rs.getInt(index);
          case SMALLINT -> rs.getShort(index);
          case TINYINT -> rs.getByte(index);
          case BOOLEAN -> rs.getBoolean(index);
          case STRING -> {
            byte[] b = rs.getBytes(index);
            yield b == null
                ? null
                : new String(
                    c.signedByteOrder() ? Column.flipSignBits(b) : b, StandardCharsets.UTF_8);
          }
          case BYTES -> rs.getBytes(index);
        };
    return rs.wasNull() ? null : v;
  }

  private static int sqlType(ColumnType t) {
    return switch (t) {
      case BIGINT -> Types.BIGINT;
      case INT -> Types.INTEGER;
      case SMALLINT -> Types.SMALLINT;
      case TINYINT -> Types.TINYINT;
      case BOOLEAN -> Types.BOOLEAN;
      case STRING, BYTES -> Types.VARBINARY;
    };
  }
}
