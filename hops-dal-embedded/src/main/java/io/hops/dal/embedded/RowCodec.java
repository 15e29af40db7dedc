package io.hops.dal.embedded;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Table;
import java.nio.ByteBuffer;
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

  RowCodec(Table<R> table) {
    this.table = table;
    this.columns = table.columns();
    this.types = new ColumnType[columns.size()];
    this.absent = new Object[columns.size()];
    for (Column c : columns) {
      types[c.position()] = c.type();
      absent[c.position()] = c.nullable() ? null : zero(c);
    }
  }

  byte[] encode(R row) {
    int n = columns.size();
    Object[] values = new Object[n];
    int bitmapBytes = (n + 7) / 8;
    int size = 1 + bitmapBytes;
    for (Column c : columns) {
      Object v = table.get(row, c.position());
      values[c.position()] = v;
      if (v != null) {
        size +=
            switch (c.type()) {
              case BIGINT -> 8;
              case INT -> 4;
              case SMALLINT -> 2;
              case TINYINT, BOOLEAN -> 1;
              case STRING -> {
                byte[] utf8 = ((String) v).getBytes(StandardCharsets.UTF_8);
                values[c.position()] = utf8;
                yield 5 + utf8.length;
              }
              case BYTES -> 5 + ((byte[]) v).length;
            };
      }
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put((byte) n);
    byte[] bitmap = new byte[bitmapBytes];
    for (int i = 0; i < n; i++) {
      if (values[i] == null) {
        bitmap[i / 8] |= (byte) (1 << (i % 8));
      }
    }
    out.put(bitmap);
    for (Column c : columns) {
      Object v = values[c.position()];
      if (v == null) {
        continue;
      }
      switch (c.type()) {
        case BIGINT -> out.putLong((Long) v);
        case INT -> out.putInt((Integer) v);
        case SMALLINT -> out.putShort((Short) v);
        case TINYINT -> out.put((Byte) v);
        case BOOLEAN -> out.put((byte) ((Boolean) v ? 1 : 0));
        case STRING, BYTES -> {
          byte[] b = (byte[]) v;
          putVarint(out, b.length);
          out.put(b);
        }
      }
    }
    return java.util.Arrays.copyOf(out.array(), out.position());
  }

  R decode(byte[] stored) {
    int storedColumns = stored[0] & 0xFF;
    // The null bitmap is read where it is stored; the values follow it.
    ByteBuffer in = ByteBuffer.wrap(stored);
    in.position(1 + (storedColumns + 7) / 8);
    ColumnType[] types = this.types;
    Object[] values = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      if (i >= storedColumns) {
        values[i] = absent[i];
        continue;
      }
      if ((stored[1 + (i >>> 3)] & (1 << (i & 7))) != 0) {
        continue;
      }
      values[i] =
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
    return table.newRow(values);
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

  private static void putVarint(ByteBuffer out, int v) {
    while ((v & ~0x7F) != 0) {
      out.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.put((byte) v);
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
