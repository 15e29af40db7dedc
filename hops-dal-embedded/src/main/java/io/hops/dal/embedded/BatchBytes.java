package io.hops.dal.embedded;

import java.util.Arrays;
import org.rocksdb.WriteBatch;

/**
 * A write batch built in Java, in RocksDB's own serialized form, and handed to RocksDB in one call
 * ({@link WriteBatch#WriteBatch(byte[])}) rather than one JNI call per key, each copying its key
 * and value into native memory.
 *
 * <p>The form (RocksDB's {@code WriteBatch} rep, default column family): a 12-byte header (an
 * 8-byte sequence number, zero here, and a 4-byte count of records, both little-endian), then per
 * record a type byte ({@code 0x01} put, {@code 0x00} delete, {@code 0x0F} range delete) and the
 * key, and for a put the value, for a range delete its end key (excluded), each as a varint32
 * length followed by the bytes.
 */
final class BatchBytes {
  private static final int HEADER = 12;
  private static final byte PUT = 0x01;
  private static final byte DELETE = 0x00;
  private static final byte DELETE_RANGE = 0x0F;

  private byte[] buf;
  private int size = HEADER;
  private int count;

  BatchBytes() {
    this(256);
  }

  /** A batch whose records are expected to take about {@code expectedBytes}: grown if not. */
  BatchBytes(int expectedBytes) {
    buf = new byte[HEADER + Math.max(expectedBytes, 64)];
  }

  void put(byte[] key, byte[] value) {
    ensure(1 + 5 + key.length + 5 + value.length);
    buf[size++] = PUT;
    bytes(key);
    bytes(value);
    count++;
  }

  void delete(byte[] key) {
    ensure(1 + 5 + key.length);
    buf[size++] = DELETE;
    bytes(key);
    count++;
  }

  /** Deletes every key from {@code begin} up to {@code end}, not included. */
  void deleteRange(byte[] begin, byte[] end) {
    ensure(1 + 5 + begin.length + 5 + end.length);
    buf[size++] = DELETE_RANGE;
    bytes(begin);
    bytes(end);
    count++;
  }

  /** How many records (puts, deletes, range deletes) the batch holds. */
  int count() {
    return count;
  }

  /** The serialized batch, its header filled in. */
  byte[] toByteArray() {
    byte[] out = Arrays.copyOf(buf, size);
    for (int i = 0; i < 4; i++) {
      out[8 + i] = (byte) (count >>> (8 * i));
    }
    return out;
  }

  /** A RocksDB batch of these records; the caller closes it. */
  WriteBatch toWriteBatch() {
    return new WriteBatch(toByteArray());
  }

  private void bytes(byte[] b) {
    int n = b.length;
    while ((n & ~0x7F) != 0) {
      buf[size++] = (byte) ((n & 0x7F) | 0x80);
      n >>>= 7;
    }
    buf[size++] = (byte) n;
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }
}
