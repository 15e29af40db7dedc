package io.hops.dal.schema;

/** The column types the DAL maps; each engine's DDL spells them in its own dialect. */
public enum ColumnType {
  BIGINT(long.class, Long.class),
  INT(int.class, Integer.class),
  SMALLINT(short.class, Short.class),
  TINYINT(byte.class, Byte.class),
  BOOLEAN(boolean.class, Boolean.class),
  /** Text stored as UTF-8 bytes: exact, case-sensitive comparison, no trailing-space padding. */
  STRING(String.class, String.class),
  BYTES(byte[].class, byte[].class);

  private final Class<?> primitive;
  private final Class<?> boxed;

  ColumnType(Class<?> primitive, Class<?> boxed) {
    this.primitive = primitive;
    this.boxed = boxed;
  }

  static ColumnType of(Class<?> javaType) {
    for (ColumnType t : values()) {
      if (t.primitive == javaType || t.boxed == javaType) {
        return t;
      }
    }
    throw new IllegalArgumentException("no column type for " + javaType);
  }

  /** The boxed Java class values of this column have. */
  public Class<?> javaClass() {
    return boxed;
  }
}
