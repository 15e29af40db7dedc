package io.hops.dal.kit;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.Table;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * Rows as lists of column values that compare by content: records compare {@code byte[]} components
 * by identity, so the kit compares {@link #of cells} instead (byte arrays deeply, as {@link
 * java.util.Arrays#deepEquals} would).
 */
public final class Cells {
  private Cells() {}

  /** A byte array that equals another with the same content; prints as hex. */
  public static final class Bytes {
    private final byte[] value;

    Bytes(byte[] value) {
      this.value = value.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && Arrays.equals(b.value, value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      String hex = HexFormat.of().formatHex(value, 0, Math.min(value.length, 24));
      return "0x" + hex + (value.length > 24 ? "...(" + value.length + " bytes)" : "");
    }
  }

  /** The row's column values in column order, or null for a null row. */
  public static <R extends Record> List<Object> of(Table<R> table, R row) {
    if (row == null) {
      return null;
    }
    List<Object> out = new ArrayList<>(table.columns().size());
    for (Column c : table.columns()) {
      Object v = table.get(row, c.position());
      out.add(v instanceof byte[] b ? new Bytes(b) : v);
    }
    return Collections.unmodifiableList(out);
  }

  /** {@link #of} of each row, nulls kept. */
  public static <R extends Record> List<List<Object>> ofAll(Table<R> table, List<R> rows) {
    List<List<Object>> out = new ArrayList<>(rows.size());
    for (R row : rows) {
      out.add(of(table, row));
    }
    return out;
  }

  /**
   * The primary-key order the DAL promises for scans: key columns in key order; numbers signed,
   * strings by their UTF-8 bytes unsigned (exact, case-sensitive, unpadded), or signed for a {@link
   * io.hops.dal.schema.SignedByteOrder} column (HDFS's order of names), byte arrays unsigned.
   */
  public static <R extends Record> Comparator<R> keyOrder(Table<R> table) {
    return (a, b) -> {
      for (Column c : table.keyColumns()) {
        Object x = table.get(a, c.position());
        Object y = table.get(b, c.position());
        int d =
            c.signedByteOrder()
                ? Arrays.compare(
                    ((String) x).getBytes(StandardCharsets.UTF_8),
                    ((String) y).getBytes(StandardCharsets.UTF_8))
                : compareValues(x, y);
        if (d != 0) {
          return d;
        }
      }
      return 0;
    };
  }

  /** {@code rows} sorted in primary-key order, as cells. */
  public static <R extends Record> List<List<Object>> inKeyOrder(Table<R> table, List<R> rows) {
    List<R> sorted = new ArrayList<>(rows);
    sorted.sort(keyOrder(table));
    return ofAll(table, sorted);
  }

  static int compareValues(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return Long.compare(x.longValue(), y.longValue());
    }
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return Boolean.compare(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return Arrays.compareUnsigned(
          x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.compareUnsigned(x, y);
    }
    throw new IllegalArgumentException("cannot order " + a + " and " + b);
  }
}
