package io.hops.dal.schema;

import java.lang.reflect.RecordComponent;

/**
 * One column of a table, derived from a record component: {@code parentId} becomes {@code
 * parent_id}. Primitive components are NOT NULL; reference components are nullable unless they are
 * part of the primary key.
 */
public record Column(
    String name,
    ColumnType type,
    int maxBytes,
    boolean nullable,
    boolean primaryKey,
    boolean partitionKey,
    boolean indexed,
    int position) {

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
        position);
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
