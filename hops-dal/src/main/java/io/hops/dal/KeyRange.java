package io.hops.dal;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The rows of one table whose primary keys lie between {@code first} and {@code last}, both
 * included: two keys that differ in their last column only, an integer, so a run of one partition's
 * rows in key order ({@link Transaction#deleteRange}).
 */
public record KeyRange(Table<?> table, Key first, Key last) {
  private static final Set<ColumnType> INTEGERS =
      Set.of(ColumnType.BIGINT, ColumnType.INT, ColumnType.SMALLINT, ColumnType.TINYINT);

  public KeyRange {
    if (first.table() != table || last.table() != table) {
      throw new IllegalArgumentException("keys " + first + " and " + last + " are not of " + table);
    }
    if (!supports(table)) {
      throw new IllegalArgumentException(
          "a range of "
              + table
              + ": only a table without indexes (whose entries a range delete would leave behind)"
              + " and whose key ends in an integer column has ranges");
    }
    for (int i = 0; i < first.size() - 1; i++) {
      if (!Objects.deepEquals(first.value(i), last.value(i))) {
        throw new IllegalArgumentException(
            "the keys of a range of "
                + table
                + " differ in their last column only: "
                + first
                + ", "
                + last);
      }
    }
    if (lastValue(first) > lastValue(last)) {
      throw new IllegalArgumentException("an empty range of " + table + ": " + first + ", " + last);
    }
  }

  /** Whether {@code table} has ranges: no indexes, and a key whose last column is an integer. */
  public static boolean supports(Table<?> table) {
    List<Column> keys = table.keyColumns();
    return INTEGERS.contains(keys.get(keys.size() - 1).type())
        && table.columns().stream().noneMatch(Column::indexed);
  }

  /** Whether {@code key}, a key of this range's table, lies in the range. */
  public boolean contains(Key key) {
    if (key.table() != table) {
      return false;
    }
    for (int i = 0; i < key.size() - 1; i++) {
      if (!Objects.deepEquals(key.value(i), first.value(i))) {
        return false;
      }
    }
    long v = lastValue(key);
    return lastValue(first) <= v && v <= lastValue(last);
  }

  private static long lastValue(Key key) {
    return ((Number) key.value(key.size() - 1)).longValue();
  }
}
