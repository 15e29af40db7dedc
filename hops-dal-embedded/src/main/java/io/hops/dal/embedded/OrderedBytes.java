package io.hops.dal.embedded;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes values so that unsigned byte order is value order: a concatenation of encoded values sorts
 * like the tuple of values. Numbers are big-endian with the sign bit flipped (so negatives sort
 * first); strings (as UTF-8) and byte arrays escape {@code 0x00} as {@code 0x00 0xFF} and end with
 * {@code 0x00 0x01}, so a value sorts before every longer value it is a prefix of, and every
 * encoding is self-delimiting: the encoding of a value is never a prefix of another value's.
 */
final class OrderedBytes {
  private static final int ESCAPE = 0x00;
  private static final int ESCAPED_ZERO = 0xFF;
  private static final int TERMINATOR = 0x01;
  private static final int NULL_MARK = 0x00;
  private static final int PRESENT_MARK = 0x01;

  // Not a ByteArrayOutputStream: its synchronized write per byte costs more than the encoding.
  private byte[] buf;
  private int count;

  OrderedBytes() {
    buf = new byte[64];
  }

  OrderedBytes(byte[] prefix) {
    this(prefix, 48);
  }

  /** After {@code prefix}, with room for {@code more} bytes: no copy at the end if exactly so. */
  OrderedBytes(byte[] prefix, int more) {
    buf = Arrays.copyOf(prefix, prefix.length + more);
    count = prefix.length;
  }

  byte[] toByteArray() {
    return count == buf.length ? buf : Arrays.copyOf(buf, count);
  }

  /**
   * The bytes {@link #keyValue} writes for a value of this column if a string is ASCII without a
   * zero byte (the usual names and ids); else fewer: a guess for the room a key needs.
   */
  static int keySize(Column c, Object v) {
    return switch (c.type()) {
      case BIGINT -> 8;
      case INT -> 4;
      case SMALLINT -> 2;
      case TINYINT, BOOLEAN -> 1;
      case STRING -> ((String) v).length() + 2;
      case BYTES -> ((byte[]) v).length + 2;
    };
  }

  private void write(int b) {
    if (count == buf.length) {
      buf = Arrays.copyOf(buf, buf.length * 2);
    }
    buf[count++] = (byte) b;
  }

  private void writeBytes(byte[] bytes) {
    if (count + bytes.length > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + bytes.length));
    }
    System.arraycopy(bytes, 0, buf, count, bytes.length);
    count += bytes.length;
  }

  /** Appends a non-null value of a column of this type. */
  OrderedBytes value(ColumnType type, Object v) {
    switch (type) {
      case BIGINT -> bigEndian(((Number) v).longValue() ^ Long.MIN_VALUE, 8);
      case INT -> bigEndian(((Number) v).intValue() ^ Integer.MIN_VALUE, 4);
      case SMALLINT -> bigEndian(((Number) v).shortValue() ^ Short.MIN_VALUE, 2);
      case TINYINT -> bigEndian(((Number) v).byteValue() ^ Byte.MIN_VALUE, 1);
      case BOOLEAN -> write((Boolean) v ? 1 : 0);
      case STRING -> escaped((String) v, 0);
      case BYTES -> escaped((byte[]) v);
    }
    return this;
  }

  /** Appends a key column's value: as {@link #value}, sign bits flipped if it orders signed. */
  OrderedBytes keyValue(Column c, Object v) {
    if (c.signedByteOrder()) {
      escaped((String) v, 0x80); // sign bits flipped
      return this;
    }
    return value(c.type(), v);
  }

  /** Reads back a value that {@link #keyValue} wrote ({@link #read} otherwise). */
  static Object readKey(Column c, byte[] in, int[] at) {
    if (c.signedByteOrder()) {
      return new String(Column.flipSignBits(unescape(in, at)), StandardCharsets.UTF_8);
    }
    return read(c.type(), in, at);
  }

  /** Appends a value that may be null; null sorts first (as in an index over a nullable column). */
  OrderedBytes nullableValue(ColumnType type, Object v) {
    if (v == null) {
      write(NULL_MARK);
      return this;
    }
    write(PRESENT_MARK);
    return value(type, v);
  }

  OrderedBytes raw(byte[] bytes) {
    writeBytes(bytes);
    return this;
  }

  /**
   * Reads back a value that {@link #value} wrote, starting at {@code at[0]}, which it moves past
   * the value.
   */
  static Object read(ColumnType type, byte[] in, int[] at) {
    return switch (type) {
      case BIGINT -> readBigEndian(in, at, 8) ^ Long.MIN_VALUE;
      case INT -> (int) readBigEndian(in, at, 4) ^ Integer.MIN_VALUE;
      case SMALLINT -> (short) (readBigEndian(in, at, 2) ^ Short.MIN_VALUE);
      case TINYINT -> (byte) (readBigEndian(in, at, 1) ^ Byte.MIN_VALUE);
      case BOOLEAN -> in[at[0]++] != 0;
      case STRING -> new String(unescape(in, at), StandardCharsets.UTF_8);
      case BYTES -> unescape(in, at);
    };
  }

  /** The {@code BIGINT} that {@link #value} wrote at {@code at}. */
  static long readBigint(byte[] in, int at) {
    long v = 0;
    for (int i = at; i < at + 8; i++) {
      v = (v << 8) | (in[i] & 0xFF);
    }
    return v ^ Long.MIN_VALUE;
  }

  /**
   * How many bytes {@link #keyValue} writes for any value of this key column, or -1 if that depends
   * on the value (strings and bytes, escaped).
   */
  static int fixedKeyWidth(Column c) {
    if (c.signedByteOrder()) {
      return -1;
    }
    return switch (c.type()) {
      case BIGINT -> 8;
      case INT -> 4;
      case SMALLINT -> 2;
      case TINYINT, BOOLEAN -> 1;
      case STRING, BYTES -> -1;
    };
  }

  /**
   * Where the value of key column {@code c} that starts at {@code at} in {@code in} ends (as {@link
   * #keyValue} wrote it): past its fixed width, or past its terminator (an escape followed by a
   * terminator; an escaped zero is an escape followed by {@code 0xFF}).
   */
  static int keyValueEnd(Column c, byte[] in, int at) {
    int width = fixedKeyWidth(c);
    if (width > 0) {
      return at + width;
    }
    int i = at;
    while (in[i] != ESCAPE || in[i + 1] != TERMINATOR) {
      i += in[i] == ESCAPE ? 2 : 1;
    }
    return i + 2;
  }

  private static long readBigEndian(byte[] in, int[] at, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = (v << 8) | (in[at[0]++] & 0xFF);
    }
    return v;
  }

  private static byte[] unescape(byte[] in, int[] at) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    while (true) {
      int b = in[at[0]++] & 0xFF;
      if (b == ESCAPE) {
        int next = in[at[0]++] & 0xFF;
        if (next == TERMINATOR) {
          return out.toByteArray();
        }
        out.write(ESCAPE); // an escaped zero
      } else {
        out.write(b);
      }
    }
  }

  private void bigEndian(long v, int bytes) {
    ensure(bytes);
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
      buf[count++] = (byte) (v >>> shift);
    }
  }

  private void escaped(byte[] bytes) {
    escaped(bytes, 0);
  }

  /** The bytes, each XORed with {@code xor} first, escaped and terminated. */
  private void escaped(byte[] bytes, int xor) {
    int need = bytes.length + 2;
    for (byte b : bytes) {
      if ((byte) (b ^ xor) == ESCAPE) {
        need++;
      }
    }
    ensure(need); // exactly: a key sized for its values ends without a copy
    byte[] out = buf;
    int n = count;
    for (byte b : bytes) {
      byte x = (byte) (b ^ xor);
      out[n++] = x;
      if (x == ESCAPE) {
        out[n++] = (byte) ESCAPED_ZERO;
      }
    }
    out[n++] = ESCAPE;
    out[n++] = TERMINATOR;
    count = n;
  }

  /** A string's UTF-8 bytes, escaped and terminated. */
  private void escaped(String s, int xor) {
    escaped(s.getBytes(StandardCharsets.UTF_8), xor);
  }

  /** Room for {@code more} bytes. */
  private void ensure(int more) {
    if (count + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
    }
  }

  /**
   * The smallest byte string greater than every string that starts with {@code prefix}: the upper
   * bound of a prefix scan. Null if there is none (a prefix of only {@code 0xFF} bytes).
   */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xFF) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return null;
  }
}
