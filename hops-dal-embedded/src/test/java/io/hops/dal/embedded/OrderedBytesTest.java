package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Byte order of encoded keys is value order, for random values and the edge cases that break naive
 * encodings: negative numbers, empty strings, strings that are prefixes of others, zero bytes and
 * multi-byte UTF-8, alone and followed by another key column.
 */
class OrderedBytesTest {
  private static final int SAMPLES = 3_000;
  private final Random random = new Random(20261123);

  @Test
  void aStringIsWrittenAsItsEscapedUtf8BytesWhetherOrNotItIsAscii() {
    for (String v : List.of("", "a", "a\0b", "\0", "name-17", "é", "a中b", "😀\0", "\u007f\u0080")) {
      byte[] utf8 = v.getBytes(StandardCharsets.UTF_8);
      assertThat(new OrderedBytes().value(ColumnType.STRING, v).toByteArray())
          .as(v)
          .isEqualTo(new OrderedBytes().value(ColumnType.BYTES, utf8).toByteArray());
      // Exactly sized (as a row key is) or not: the same bytes.
      assertThat(
              new OrderedBytes(new byte[] {7}, v.length() + 2)
                  .value(ColumnType.STRING, v)
                  .toByteArray())
          .as(v)
          .isEqualTo(new OrderedBytes(new byte[] {7}).value(ColumnType.STRING, v).toByteArray());
    }
  }

  @Test
  void longsOrderLikeSignedNumbers() {
    List<Object> values = new ArrayList<>(List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE));
    for (int i = 0; i < SAMPLES; i++) {
      values.add(random.nextBoolean() ? random.nextLong() : (long) random.nextInt(200) - 100);
    }
    assertOrderPreserved(ColumnType.BIGINT, values);
  }

  @Test
  void intsShortsAndBytesOrderLikeSignedNumbers() {
    List<Object> ints = new ArrayList<>(List.of(Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE));
    List<Object> shorts = new ArrayList<>(List.of(Short.MIN_VALUE, (short) -1, (short) 0));
    List<Object> bytes = new ArrayList<>(List.of(Byte.MIN_VALUE, (byte) -1, (byte) 0));
    for (int i = 0; i < SAMPLES; i++) {
      ints.add(random.nextInt());
      shorts.add((short) random.nextInt());
      bytes.add((byte) random.nextInt());
    }
    assertOrderPreserved(ColumnType.INT, ints);
    assertOrderPreserved(ColumnType.SMALLINT, shorts);
    assertOrderPreserved(ColumnType.TINYINT, bytes);
  }

  @Test
  void stringsOrderByTheirUtf8BytesAndAPrefixSortsFirst() {
    List<Object> values =
        new ArrayList<>(
            List.of(
                "", "a", "a\0", "a\0\0", "a\0b", "ab", "b", "é", "e\u0301", "中", "中文", "😀",
                "\uFFFF"));
    String alphabet = "a\0\u00ff\u0100é中😀z";
    for (int i = 0; i < SAMPLES; i++) {
      values.add(randomString(alphabet));
    }
    assertOrderPreserved(ColumnType.STRING, values);
  }

  @Test
  void byteArraysOrderUnsignedAndAPrefixSortsFirst() {
    List<Object> values =
        new ArrayList<>(
            List.of(
                new byte[0],
                new byte[] {0},
                new byte[] {0, 0},
                new byte[] {0, 1},
                new byte[] {1},
                new byte[] {(byte) 0xFF},
                new byte[] {(byte) 0xFF, 0}));
    for (int i = 0; i < SAMPLES; i++) {
      byte[] b = new byte[random.nextInt(5)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) new int[] {0, 1, 0x7F, 0x80, 0xFF}[random.nextInt(5)];
      }
      values.add(b);
    }
    assertOrderPreserved(ColumnType.BYTES, values);
  }

  @Test
  void aTupleOrdersByItsFirstColumnThenItsSecondEvenWhenTheFirstIsAPrefix() {
    String alphabet = "a\0b";
    for (int i = 0; i < SAMPLES; i++) {
      String s1 = randomString(alphabet);
      String s2 = randomString(alphabet);
      long n1 = random.nextInt(5) - 2L;
      long n2 = random.nextInt(5) - 2L;
      int expected = compareUtf8(s1, s2);
      if (expected == 0) {
        expected = Long.compare(n1, n2);
      }
      byte[] a =
          new OrderedBytes()
              .value(ColumnType.STRING, s1)
              .value(ColumnType.BIGINT, n1)
              .toByteArray();
      byte[] b =
          new OrderedBytes()
              .value(ColumnType.STRING, s2)
              .value(ColumnType.BIGINT, n2)
              .toByteArray();
      assertThat(Integer.signum(Arrays.compareUnsigned(a, b)))
          .as("(%s, %d) vs (%s, %d)", s1, n1, s2, n2)
          .isEqualTo(Integer.signum(expected));
    }
  }

  @Test
  void theEncodingOfAValueIsAPrefixOfNoOtherValuesEncoding() {
    List<String> values = List.of("", "a", "a\0", "ab", "a\0\u0001");
    for (String x : values) {
      for (String y : values) {
        byte[] ex = encode(ColumnType.STRING, x);
        byte[] ey = encode(ColumnType.STRING, y);
        boolean prefix =
            ey.length >= ex.length && Arrays.equals(ex, 0, ex.length, ey, 0, ex.length);
        assertThat(prefix).as("%s is a prefix of %s", x, y).isEqualTo(x.equals(y));
      }
    }
  }

  @Test
  void aPartitionsSpaceIsItsRowKeysFirstColumnWhateverTheValue() {
    // Partitions by a signed-order string (lease paths), by bytes (retry cache), by a number.
    for (String holder : List.of("", "h", "a\0b", "\0", "é\0中", "x".repeat(300))) {
      assertPartitionSpace(LeasePathRow.TABLE.key(holder, -5L), holder);
      byte[] client = holder.getBytes(StandardCharsets.UTF_8);
      assertPartitionSpace(RetryCacheRow.TABLE.key(client, 7), client);
    }
    for (long parent : new long[] {0, 1, -1, Long.MAX_VALUE, 0x0001_0000_0000_0100L}) {
      assertPartitionSpace(InodeRow.TABLE.key(3L, parent, "name\0"), 3L);
    }
  }

  private static void assertPartitionSpace(Key key, Object partitionValue) {
    StoredTable<?> t = StoredTable.of(key.table());
    byte[] expected =
        t.layout.rowPrefix(List.of(key.table().keyColumns().get(0)), List.of(partitionValue));
    assertThat(t.partitionSpace(t.rowKeyBytes(key)).bytes()).as("%s", key).isEqualTo(expected);
  }

  @Test
  void prefixEndIsTheFirstKeyAfterEveryKeyWithThePrefix() {
    assertThat(OrderedBytes.prefixEnd(new byte[] {1, 2})).containsExactly(1, 3);
    assertThat(OrderedBytes.prefixEnd(new byte[] {1, (byte) 0xFF})).containsExactly(2);
    assertThat(OrderedBytes.prefixEnd(new byte[] {(byte) 0xFF})).isNull();
  }

  private void assertOrderPreserved(ColumnType type, List<Object> values) {
    for (int i = 0; i < values.size(); i++) {
      Object x = values.get(i);
      Object y = values.get(random.nextInt(values.size()));
      int expected = Integer.signum(natural(x, y));
      int actual = Integer.signum(Arrays.compareUnsigned(encode(type, x), encode(type, y)));
      assertThat(actual).as("%s vs %s", show(x), show(y)).isEqualTo(expected);
    }
    // And every neighbour pair of the fixed cases, which random pairing may miss.
    for (int i = 0; i + 1 < values.size(); i++) {
      Object x = values.get(i);
      Object y = values.get(i + 1);
      assertThat(Integer.signum(Arrays.compareUnsigned(encode(type, x), encode(type, y))))
          .as("%s vs %s", show(x), show(y))
          .isEqualTo(Integer.signum(natural(x, y)));
    }
  }

  private static int natural(Object x, Object y) {
    if (x instanceof Number a && y instanceof Number b) {
      return Long.compare(a.longValue(), b.longValue());
    }
    if (x instanceof String a && y instanceof String b) {
      return compareUtf8(a, b);
    }
    return Arrays.compareUnsigned((byte[]) x, (byte[]) y);
  }

  private static int compareUtf8(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] encode(ColumnType type, Object v) {
    return new OrderedBytes().value(type, v).toByteArray();
  }

  private String randomString(String alphabet) {
    int[] codePoints = alphabet.codePoints().toArray();
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      s.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
    }
    return s.toString();
  }

  private static String show(Object v) {
    return v instanceof byte[] b ? Arrays.toString(b) : String.valueOf(v).replace("\0", "\\0");
  }
}
