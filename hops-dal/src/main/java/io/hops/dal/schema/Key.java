package io.hops.dal.schema;

import java.util.Arrays;

/** A primary-key value of one table: the key columns' values in key order. */
public final class Key {
  private final Table<?> table;
  private final Object[] values;

  /**
   * The hash, computed on first use (0 until then, a benign race as in {@link String}): most keys
   * are only encoded for the store, never put in a hash map.
   */
  private int hash;

  /**
   * A driver's encoded form of this key, kept with it (a key never changes, so neither does its
   * encoding): a key that lives on, as the ancestors' keys of resolved paths do, is encoded once.
   */
  private volatile Object encoded;

  Key(Table<?> table, Object[] values) {
    this.table = table;
    this.values = values;
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

  /** The encoded form a driver kept with this key ({@link #encoded(Object)}), or null. */
  public Object encoded() {
    return encoded;
  }

  /**
   * Keeps a driver's encoded form of this key, which must depend on the key alone and be safe to
   * share between threads (immutable).
   */
  public void encoded(Object form) {
    encoded = form;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Key k
        && k.table == table
        && k.hashCode() == hashCode()
        && Arrays.deepEquals(k.values, values);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 31 * table.name().hashCode() + Arrays.deepHashCode(values);
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return table.name() + Arrays.deepToString(values);
  }
}
