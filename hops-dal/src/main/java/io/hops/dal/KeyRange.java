package io.hops.dal;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.Objects;

/**
 * The rows of one table whose primary keys lie between {@code first} and {@code last}, both
 * included: two keys that differ in their last column only, a number, so a run of one partition's
 * rows in key order ({@link Transaction#deleteRange}).
 */
public record KeyRange(Table<?> table, Key first, Key last) {
  public KeyRange {
    if (first.table() != table || last.table() != table) {
      throw new IllegalArgumentException("keys " + first + " and " + last + " are not of " + table);
    }
    List<Column> keys = table.keyColumns();
    Column end = keys.get(keys.size() - 1);
    if (end.type() == ColumnType.STRING || end.type() == ColumnType.BYTES) {
      throw new IllegalArgumentException(
          "a range of " + table + " runs over its last key column, a number; not " + end.name());
    }
    for (int i = 0; i < keys.size() - 1; i++) {
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
    if (table.columns().stream().anyMatch(Column::indexed)) {
      throw new IllegalArgumentException(
          "a range of "
              + table
              + ": its rows have index entries, which a range delete would leave behind");
    }
  }

  /** Whether {@code key}, a key of this range's table, lies in the range. */
  public boolean contains(Key key) {
    if (key.table() != table) {
      return false;
    }
    int n = key.size();
    for (int i = 0; i < n - 1; i++) {
      if (!Objects.deepEquals(key.value(i), first.value(i))) {
        return false;
      }
    }
    long v = lastValue(key);
    return lastValue(first) <= v && v <= lastValue(last);
  }

  private static long lastValue(Key key) {
    Object v = key.value(key.size() - 1);
    return v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).longValue();
  }
}
