package io.hops.dal.schema;

import java.util.Arrays;
import java.util.Objects;

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
    if (!(o instanceof Key k) || k.table != table || k.hashCode() != hashCode()) {
      return false;
    }
    for (int i = 0; i < values.length; i++) {
      if (!valueEquals(values[i], k.values[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * As {@link Arrays#deepHashCode} over the values, written out for the types a key column holds
   * (boxed numbers and booleans, strings, byte arrays): every write of a transaction hashes a new
   * key, and the library's method tests each value against every array type first.
   */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      int v = 1;
      for (Object value : values) {
        v = 31 * v + (value instanceof byte[] b ? Arrays.hashCode(b) : Objects.hashCode(value));
      }
      h = 31 * table.name().hashCode() + v;
      hash = h;
    }
    return h;
  }

  private static boolean valueEquals(Object a, Object b) {
    if (a instanceof byte[] x) {
      return b instanceof byte[] y && Arrays.equals(x, y);
    }
    return Objects.equals(a, b);
  }

  @Override
  public String toString() {
    return table.name() + Arrays.deepToString(values);
  }
}
