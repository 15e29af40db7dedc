package io.hops.dal.embedded;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Table;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A row's stored value: the column count, a null bitmap, then each non-null column in column order
 * (numbers fixed-width big-endian, strings and bytes with a varint length). A row written before a
 * column was added decodes with that column null (or zero, if primitive), so adding a column needs
 * no rewrite.
 */
final class RowCodec<R extends Record> {
  private final Table<R> table;
  private final List<Column> columns;

  /** Each column's type, by position: what {@link #decode} switches on. */
  private final ColumnType[] types;

  /** Each column's value in a row stored before the column was added, by position. */
  private final Object[] absent;

  /** By position: whether the column is primitive, read without boxing. */
  private final boolean[] primitive;

  /** The positions of the other columns. */
  private final int[] referencePositions;

  /** The bytes every encoded row has: the column count, the null bitmap, the primitive columns. */
  private final int fixedBytes;

  /** Each thread's arrays for {@link #decode}. */
  private final ThreadLocal<ColumnValues> values;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle SHORTS =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  RowCodec(Table<R> table) {
    this.table = table;
    this.columns = table.columns();
    this.types = new ColumnType[columns.size()];
    this.absent = new Object[columns.size()];
    for (Column c : columns) {
      types[c.position()] = c.type();
      absent[c.position()] = c.nullable() ? null : zero(c);
    }
    this.primitive = new boolean[columns.size()];
    int fixed = 1 + (columns.size() + 7) / 8;
    for (Column c : columns) {
      if (table.primitive(c.position())) {
        primitive[c.position()] = true;
        fixed += width(c.type());
      }
    }
    this.fixedBytes = fixed;
    int n = columns.size();
    this.values = ThreadLocal.withInitial(() -> new ColumnValues(n));
    this.referencePositions =
        columns.stream().mapToInt(Column::position).filter(p -> !primitive[p]).toArray();
  }

  /**
   * Encodes without boxing: a primitive column is read as a long ({@link Table#getPrimitive}) and
   * written in place, the reference columns (strings, bytes, nullable numbers) are read first to
   * size the value exactly, so the bytes are allocated once and not copied.
   */
  byte[] encode(R row) {
    int n = types.length;
    Object[] references = new Object[n];
    int size = fixedBytes;
    for (int p : referencePositions) {
      Object v = table.get(row, p);
      if (v == null) {
        continue;
      }
      if (v instanceof String string) {
        v = string.getBytes(StandardCharsets.UTF_8);
      }
      references[p] = v;
      size += v instanceof byte[] b ? varintBytes(b.length) + b.length : width(types[p]);
    }
    byte[] out = new byte[size];
    out[0] = (byte) n;
    int at = 1 + (n + 7) / 8;
    for (int i = 0; i < n; i++) {
      if (primitive[i]) {
        at = putNumber(out, at, types[i], table.getPrimitive(row, i));
        continue;
      }
      Object v = references[i];
      if (v == null) {
        out[1 + (i >>> 3)] |= (byte) (1 << (i & 7));
      } else if (v instanceof byte[] b) {
        at = putVarint(out, at, b.length);
        System.arraycopy(b, 0, out, at, b.length);
        at += b.length;
      } else {
        at =
            putNumber(
                out,
                at,
                types[i],
                v instanceof Boolean on ? (on ? 1 : 0) : ((Number) v).longValue());
      }
    }
    return out;
  }

  private static int putNumber(byte[] out, int at, ColumnType type, long v) {
    switch (type) {
      case BIGINT -> LONGS.set(out, at, v);
      case INT -> INTS.set(out, at, (int) v);
      case SMALLINT -> SHORTS.set(out, at, (short) v);
      default -> out[at] = (byte) v; // TINYINT, BOOLEAN
    }
    return at + width(type);
  }

  /** The bytes a value of a number or boolean column takes. */
  private static int width(ColumnType type) {
    return switch (type) {
      case BIGINT -> 8;
      case INT -> 4;
      case SMALLINT -> 2;
      case TINYINT, BOOLEAN -> 1;
      case STRING, BYTES -> throw new IllegalArgumentException(type + " has no fixed width");
    };
  }

  /**
   * A row from its stored value, built without boxing ({@link Table#newRow(long[], Object[])}) from
   * this thread's two arrays of column values, reused from row to row.
   */
  R decode(byte[] stored) {
    int storedColumns = stored[0] & 0xFF;
    // The null bitmap is read where it is stored; the values follow it.
    ByteBuffer in = ByteBuffer.wrap(stored);
    in.position(1 + (storedColumns + 7) / 8);
    ColumnType[] types = this.types;
    ColumnValues values = this.values.get();
    long[] numbers = values.primitives;
    Object[] references = values.references;
    for (int i = 0; i < types.length; i++) {
      boolean isNull = i < storedColumns && (stored[1 + (i >>> 3)] & (1 << (i & 7))) != 0;
      if (primitive[i]) {
        numbers[i] = i >= storedColumns || isNull ? 0 : number(types[i], in);
      } else if (i >= storedColumns) {
        references[i] = absent[i];
      } else if (isNull) {
        references[i] = null;
      } else {
        references[i] =
            switch (types[i]) {
              case BIGINT -> in.getLong();
              case INT -> in.getInt();
              case SMALLINT -> in.getShort();
              case TINYINT -> in.get();
              case BOOLEAN -> in.get() != 0;
              case STRING -> string(stored, in);
              case BYTES -> bytes(in);
            };
      }
    }
    return table.newRow(numbers, references);
  }

  /** A primitive column's stored value, widened to a long (a boolean as 0 or 1). */
  private static long number(ColumnType type, ByteBuffer in) {
    return switch (type) {
      case BIGINT -> in.getLong();
      case INT -> in.getInt();
      case SMALLINT -> in.getShort();
      case TINYINT, BOOLEAN -> in.get();
      case STRING, BYTES -> throw new IllegalArgumentException(type + " is not a number");
    };
  }

  /** A thread's column values of the row being decoded, by position: a value goes into one. */
  private static final class ColumnValues {
    final long[] primitives;
    final Object[] references;

    ColumnValues(int n) {
      primitives = new long[n];
      references = new Object[n];
    }
  }

  private static Object zero(Column c) {
    return switch (c.type()) {
      case BIGINT -> 0L;
      case INT -> 0;
      case SMALLINT -> (short) 0;
      case TINYINT -> (byte) 0;
      case BOOLEAN -> false;
      case STRING, BYTES -> null;
    };
  }

  /** A string column decoded in place: no copy of its bytes first. */
  private static String string(byte[] stored, ByteBuffer in) {
    int length = getVarint(in);
    int at = in.position();
    in.position(at + length);
    return new String(stored, at, length, StandardCharsets.UTF_8);
  }

  private static byte[] bytes(ByteBuffer in) {
    byte[] b = new byte[getVarint(in)];
    in.get(b);
    return b;
  }

  private static int putVarint(byte[] out, int at, int v) {
    while ((v & ~0x7F) != 0) {
      out[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[at++] = (byte) v;
    return at;
  }

  private static int varintBytes(int v) {
    int bytes = 1;
    while ((v & ~0x7F) != 0) {
      bytes++;
      v >>>= 7;
    }
    return bytes;
  }

  private static int getVarint(ByteBuffer in) {
    int v = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in.get();
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
  }
}
