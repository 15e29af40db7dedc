package io.hops.dal.schema;

import java.util.Arrays;

/** A primary-key value of one table: the key columns' values in key order. */
public final class Key {
  private final Table<?> table;
  private final Object[] values;
  private final int hash;

  Key(Table<?> table, Object[] values) {
    this.table = table;
    this.values = values;
    this.hash = 31 * table.name().hashCode() + Arrays.deepHashCode(values);
  }

  public Table<?> table() {
    return table;
  }

  /** The value of the i-th primary-key column. */
  public Object value(int i) {
    return values[i];
  }

  public int size() {
    return values.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Key k
        && k.hash == hash
        && k.table == table
        && Arrays.deepEquals(k.values, values);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return table.name() + Arrays.deepToString(values);
  }
}
