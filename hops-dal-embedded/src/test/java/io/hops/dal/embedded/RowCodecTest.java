package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The stored value of a row, byte for byte: encoding without boxing changed no stored byte. */
class RowCodecTest {
  @TableName("every_type")
  record EveryTypeRow(
      @Pk long id,
      int count,
      short small,
      byte tiny,
      boolean flag,
      @MaxBytes(1000) String name,
      @MaxBytes(1000) byte[] data,
      Long boxedLong,
      Integer boxedInt,
      Short boxedShort,
      Byte boxedByte,
      Boolean boxedFlag) {}

  private static final RowCodec<EveryTypeRow> CODEC = new RowCodec<>(Table.of(EveryTypeRow.class));

  @Test
  void primitiveAndReferenceColumnsAreStoredInColumnOrder() {
    String name = "é".repeat(100); // 200 bytes of UTF-8: a two-byte length
    byte[] data = {1, 2, 3};
    EveryTypeRow row =
        new EveryTypeRow(
            -2L,
            1 << 30,
            (short) -300,
            (byte) -7,
            true,
            name,
            data,
            Long.MIN_VALUE,
            -5,
            (short) 1000,
            (byte) 100,
            false);

    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(12); // columns
    expected.writeBytes(new byte[] {0, 0}); // no null
    expected.writeBytes(ByteBuffer.allocate(8).putLong(-2L).array());
    expected.writeBytes(ByteBuffer.allocate(4).putInt(1 << 30).array());
    expected.writeBytes(ByteBuffer.allocate(2).putShort((short) -300).array());
    expected.write(-7);
    expected.write(1);
    expected.writeBytes(new byte[] {(byte) (200 & 0x7F | 0x80), (byte) (200 >>> 7)});
    expected.writeBytes(name.getBytes(StandardCharsets.UTF_8));
    expected.write(3);
    expected.writeBytes(data);
    expected.writeBytes(ByteBuffer.allocate(8).putLong(Long.MIN_VALUE).array());
    expected.writeBytes(ByteBuffer.allocate(4).putInt(-5).array());
    expected.writeBytes(ByteBuffer.allocate(2).putShort((short) 1000).array());
    expected.write(100);
    expected.write(0);

    byte[] encoded = CODEC.encode(row);
    assertThat(encoded).isEqualTo(expected.toByteArray());
    EveryTypeRow decoded = CODEC.decode(encoded);
    assertThat(decoded).usingRecursiveComparison().isEqualTo(row);
  }

  @Test
  void nullColumnsAreBitsOfTheBitmapAndTakeNoBytes() {
    EveryTypeRow row =
        new EveryTypeRow(
            7L, 0, (short) 0, (byte) 0, false, null, null, null, null, null, null, null);

    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(12);
    // Columns 5-11 (name to boxedFlag) are null: bits 5, 6, 7 of the first byte, 0-3 of the second.
    expected.writeBytes(new byte[] {(byte) 0xE0, 0x0F});
    expected.writeBytes(ByteBuffer.allocate(8).putLong(7L).array());
    expected.writeBytes(new byte[4 + 2 + 1 + 1]);

    byte[] encoded = CODEC.encode(row);
    assertThat(encoded).isEqualTo(expected.toByteArray());
    assertThat(CODEC.decode(encoded)).usingRecursiveComparison().isEqualTo(row);
  }
}
