package io.hops.dal.schema;

import java.lang.reflect.RecordComponent;

/**
 * One column of a table, derived from a record component: {@code parentId} becomes {@code
 * parent_id}. Primitive components are NOT NULL; reference components are nullable unless they are
 * part of the primary key. A {@link SignedByteOrder} key column orders its UTF-8 bytes as signed
 * values.
 */
public record Column(
    String name,
    ColumnType type,
    int maxBytes,
    boolean nullable,
    boolean primaryKey,
    boolean partitionKey,
    boolean indexed,
    int position,
    boolean signedByteOrder) {

  static Column of(RecordComponent component, int position) {
    ColumnType type = ColumnType.of(component.getType());
    boolean pk = component.isAnnotationPresent(Pk.class);
    boolean partition = component.isAnnotationPresent(PartitionKey.class);
    MaxBytes max = component.getAnnotation(MaxBytes.class);
    boolean sized = type == ColumnType.STRING || type == ColumnType.BYTES;
    if (sized != (max != null)) {
      throw new IllegalArgumentException(
          component + ": string and byte[] columns, and only they, must declare @MaxBytes");
    }
    boolean signed = component.isAnnotationPresent(SignedByteOrder.class);
    if (signed && (!pk || type != ColumnType.STRING)) {
      throw new IllegalArgumentException(component + ": only a string key column orders signed");
    }
    if (partition && !pk) {
      throw new IllegalArgumentException(component + ": the partition key must be in the key");
    }
    return new Column(
        snakeCase(component.getName()),
        type,
        max == null ? 0 : max.value(),
        !component.getType().isPrimitive() && !pk,
        pk,
        partition,
        component.isAnnotationPresent(Indexed.class),
        position,
        signed);
  }

  /**
   * The top bit of every byte flipped: unsigned order of the result is signed order of {@code b}.
   */
  public static byte[] flipSignBits(byte[] b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) (b[i] ^ 0x80);
    }
    return out;
  }

  static String snakeCase(String camel) {
    StringBuilder out = new StringBuilder(camel.length() + 4);
    for (char c : camel.toCharArray()) {
      if (Character.isUpperCase(c)) {
        out.append('_').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
