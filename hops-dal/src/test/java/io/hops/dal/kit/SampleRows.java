package io.hops.dal.kit;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Table;
import java.nio.charset.StandardCharsets;

/**
 * Sample rows of any table, built by reflection over its columns, so a new table is covered by the
 * kit without a line of test code.
 */
public final class SampleRows {
  /** Code points of 2, 3 and 4 bytes of UTF-8, and one of 1, repeated to fill a string. */
  private static final String[] WIDE = {"é", "€", "\uD83D\uDE00", "a"};

  private SampleRows() {}

  /**
   * A row whose every column is derived from {@code seed}: rows of distinct seeds differ in every
   * key and every indexed column.
   */
  public static <R extends Record> R typical(Table<R> table, long seed) {
    Object[] values = new Object[table.columns().size()];
    for (Column c : table.columns()) {
      values[c.position()] = typicalValue(c, seed);
    }
    return table.newRow(values);
  }

  /** As {@link #typical} with every nullable column null. */
  public static <R extends Record> R withNulls(Table<R> table, long seed) {
    Object[] values = new Object[table.columns().size()];
    for (Column c : table.columns()) {
      values[c.position()] = c.nullable() ? null : typicalValue(c, seed);
    }
    return table.newRow(values);
  }

  /** Every column at its low extreme: MIN_VALUE, false, empty strings and byte arrays. */
  public static <R extends Record> R minimum(Table<R> table) {
    Object[] values = new Object[table.columns().size()];
    for (Column c : table.columns()) {
      values[c.position()] =
          switch (c.type()) {
            case BIGINT -> Long.MIN_VALUE;
            case INT -> Integer.MIN_VALUE;
            case SMALLINT -> Short.MIN_VALUE;
            case TINYINT -> Byte.MIN_VALUE;
            case BOOLEAN -> false;
            case STRING -> "";
            case BYTES -> new byte[0];
          };
    }
    return table.newRow(values);
  }

  /**
   * Every column at its high extreme: MAX_VALUE, true, strings of exactly their limit in UTF-8
   * bytes with multi-byte characters, byte arrays of exactly their limit spanning all byte values.
   */
  public static <R extends Record> R maximum(Table<R> table) {
    Object[] values = new Object[table.columns().size()];
    for (Column c : table.columns()) {
      values[c.position()] =
          switch (c.type()) {
            case BIGINT -> Long.MAX_VALUE;
            case INT -> Integer.MAX_VALUE;
            case SMALLINT -> Short.MAX_VALUE;
            case TINYINT -> Byte.MAX_VALUE;
            case BOOLEAN -> true;
            case STRING -> utf8String(c.maxBytes());
            case BYTES -> allByteValues(c.maxBytes());
          };
    }
    return table.newRow(values);
  }

  /** {@link #maximum} with {@code column} one byte over its limit. */
  public static <R extends Record> R oneByteOver(Table<R> table, Column column) {
    Object over =
        switch (column.type()) {
          case STRING -> utf8String(column.maxBytes()) + "a";
          case BYTES -> allByteValues(column.maxBytes() + 1);
          default -> throw new IllegalArgumentException(column + " has no size limit");
        };
    return with(table, maximum(table), column.name(), over);
  }

  /** A copy of {@code row} with one column changed. */
  public static <R extends Record> R with(Table<R> table, R row, String column, Object value) {
    Object[] values = values(table, row);
    values[table.column(column).position()] = value;
    return table.newRow(values);
  }

  /** A copy of {@code row} with its partition column set to {@code partition}. */
  public static <R extends Record> R inPartition(Table<R> table, R row, Object partition) {
    return with(table, row, table.partitionColumn().orElseThrow().name(), partition);
  }

  /** A row with {@code keySource}'s key and {@code valueSource}'s other columns. */
  public static <R extends Record> R withKeyOf(Table<R> table, R valueSource, R keySource) {
    Object[] values = values(table, valueSource);
    for (Column c : table.keyColumns()) {
      values[c.position()] = table.get(keySource, c.position());
    }
    return table.newRow(values);
  }

  /** A value of a column's type derived from {@code seed}; distinct seeds give distinct values. */
  public static Object typicalValue(Column c, long seed) {
    long n = seed * 1000 + c.position();
    return switch (c.type()) {
      case BIGINT -> n;
      case INT -> (int) n;
      case SMALLINT -> (short) (seed * 31 + c.position());
      case TINYINT -> (byte) (seed * 7 + c.position());
      case BOOLEAN -> ((seed + c.position()) & 1) == 0;
      case STRING -> c.name() + "-" + seed;
      case BYTES -> seededBytes(seed, Math.min(c.maxBytes(), 9));
    };
  }

  /** A string of exactly {@code bytes} bytes of UTF-8 with characters of 1 to 4 bytes. */
  public static String utf8String(int bytes) {
    StringBuilder out = new StringBuilder();
    int used = 0;
    for (int i = 0; ; i++) {
      String next = WIDE[i % WIDE.length];
      int size = next.getBytes(StandardCharsets.UTF_8).length;
      if (used + size > bytes) {
        break;
      }
      out.append(next);
      used += size;
    }
    while (used < bytes) {
      out.append('x');
      used++;
    }
    return out.toString();
  }

  /**
   * {@code length} bytes: every value 0..255 in turn when there is room, else values spread evenly
   * from -128 to 127.
   */
  public static byte[] allByteValues(int length) {
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      out[i] =
          length >= 256 || length < 2 ? (byte) i : (byte) (-128 + (long) i * 255 / (length - 1));
    }
    return out;
  }

  /** {@code length} bytes derived from {@code seed}, starting with the seed itself. */
  public static byte[] seededBytes(long seed, int length) {
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      out[i] = (byte) (i < 8 ? seed >>> (8 * (7 - i)) : seed * 31 + i);
    }
    return out;
  }

  /** Whether the column's type has a size limit. */
  public static boolean sized(Column c) {
    return c.type() == ColumnType.STRING || c.type() == ColumnType.BYTES;
  }

  private static <R extends Record> Object[] values(Table<R> table, R row) {
    Object[] values = new Object[table.columns().size()];
    for (Column c : table.columns()) {
      values[c.position()] = table.get(row, c.position());
    }
    return values;
  }
}
