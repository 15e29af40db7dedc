package io.hops.dal.schema;

import io.hops.dal.StorageException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A table's description, derived once from its row record: name, columns, primary key, partition
 * key and indexes. It converts rows to column values and back, builds keys, and checks column
 * limits. Drivers are generic over it, so a new table is a new record and a line in the DDL.
 */
public final class Table<R extends Record> {
  private final Class<R> rowType;
  private final String name;
  private final List<Column> columns;
  private final List<Column> keyColumns;
  private final Column partitionColumn;
  private final Function<Object, Object>[] accessors;

  /**
   * By column position: a primitive column's accessor returning its value widened to a long (a
   * boolean as 0 or 1), with no boxing; null for a column of a reference type.
   */
  private final ToLongFunction<Object>[] primitiveAccessors;

  private final MethodHandle constructor;

  /** The canonical constructor over (long[] primitives, Object[] references): {@link #newRow}. */
  private final MethodHandle unboxedConstructor;

  private final int[] keyPositions;

  /**
   * The columns {@link #validate} checks: those of a reference type, which may be null or too long
   * (a primitive column is neither, and reading it would box it).
   */
  private final List<Column> referenceColumns;

  /** By column position: the values a partial index holds ({@link Indexed#only}), else null. */
  private final long[][] partialIndexes;

  /**
   * A driver's own description of this table, kept with it ({@link #driverForm(Object)}): every
   * read and write of every transaction asks for it, and a field is cheaper than a map lookup.
   */
  private volatile Object driverForm;

  @SuppressWarnings("unchecked")
  private Table(Class<R> rowType) {
    this.rowType = rowType;
    TableName tableName = rowType.getAnnotation(TableName.class);
    if (tableName == null) {
      throw new IllegalArgumentException(rowType + " has no @TableName");
    }
    this.name = tableName.value();
    RecordComponent[] components = rowType.getRecordComponents();
    List<Column> cols = new ArrayList<>();
    List<Column> keys = new ArrayList<>();
    Column partition = null;
    this.accessors = new Function[components.length];
    this.primitiveAccessors = new ToLongFunction[components.length];
    Class<?>[] types = new Class<?>[components.length];
    this.partialIndexes = new long[components.length][];
    for (int i = 0; i < components.length; i++) {
      Column c = Column.of(components[i], i);
      Indexed indexed = components[i].getAnnotation(Indexed.class);
      if (indexed != null && indexed.only().length > 0) {
        if (indexed.unique()) {
          throw new IllegalArgumentException(
              rowType + "." + c.name() + ": a partial index is not unique");
        }
        partialIndexes[i] = indexed.only().clone();
      }
      cols.add(c);
      if (c.primaryKey()) {
        keys.add(c);
      }
      if (c.partitionKey()) {
        partition = c;
      }
      accessors[i] = accessor(rowType, components[i].getAccessor());
      primitiveAccessors[i] = primitiveAccessor(rowType, components[i].getAccessor(), accessors[i]);
      types[i] = components[i].getType();
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(rowType + " has no @Pk column");
    }
    this.columns = List.copyOf(cols);
    this.keyColumns = List.copyOf(keys);
    this.partitionColumn = partition;
    this.keyPositions = keys.stream().mapToInt(Column::position).toArray();
    this.referenceColumns =
        cols.stream().filter(c -> !components[c.position()].getType().isPrimitive()).toList();
    try {
      Constructor<R> canonical = rowType.getDeclaredConstructor(types);
      canonical.setAccessible(true);
      MethodHandle direct = MethodHandles.lookup().unreflectConstructor(canonical);
      this.constructor =
          direct
              .asSpreader(Object[].class, types.length)
              .asType(MethodType.methodType(Object.class, Object[].class));
      this.unboxedConstructor = unboxed(direct, types);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalArgumentException(rowType + " has no usable canonical constructor", e);
    }
  }

  /**
   * {@code constructor} taking each primitive parameter from a long[] (narrowed, a boolean as
   * nonzero) and each other one from an Object[], at its position: once compiled, the values go
   * from the arrays into the row with no boxing and no spreading of one Object[] per row.
   */
  private static MethodHandle unboxed(MethodHandle constructor, Class<?>[] types)
      throws NoSuchMethodException, IllegalAccessException {
    MethodHandle longAt = MethodHandles.arrayElementGetter(long[].class);
    MethodHandle referenceAt = MethodHandles.arrayElementGetter(Object[].class);
    MethodHandle isSet =
        MethodHandles.lookup()
            .findStatic(Table.class, "isSet", MethodType.methodType(boolean.class, long.class));
    MethodHandle[] arguments = new MethodHandle[types.length];
    int[] fromArray = new int[types.length];
    for (int i = 0; i < types.length; i++) {
      if (types[i].isPrimitive()) {
        MethodHandle at = MethodHandles.insertArguments(longAt, 1, i);
        arguments[i] =
            types[i] == boolean.class
                ? MethodHandles.filterReturnValue(at, isSet)
                : MethodHandles.explicitCastArguments(
                    at, MethodType.methodType(types[i], long[].class));
      } else {
        arguments[i] =
            MethodHandles.explicitCastArguments(
                MethodHandles.insertArguments(referenceAt, 1, i),
                MethodType.methodType(types[i], Object[].class));
        fromArray[i] = 1;
      }
    }
    return MethodHandles.permuteArguments(
            MethodHandles.filterArguments(constructor, 0, arguments),
            MethodType.methodType(constructor.type().returnType(), long[].class, Object[].class),
            fromArray)
        .asType(MethodType.methodType(Object.class, long[].class, Object[].class));
  }

  private static boolean isSet(long value) {
    return value != 0;
  }

  /**
   * A record component's accessor as a function: a generated class calling it directly, as fast as
   * a lambda. Rows are read column by column on every write and decode, where reflection's {@code
   * Method.invoke} cost a few percent of a metadata operation's CPU.
   */
  @SuppressWarnings("unchecked")
  private static Function<Object, Object> accessor(Class<?> rowType, Method method) {
    return (Function<Object, Object>)
        lambda(rowType, method, Function.class, "apply", Object.class, null);
  }

  /**
   * A primitive component's accessor widened to a long without boxing (a boolean through its boxed
   * accessor, whose two values are cached), or null for a component of a reference type.
   */
  @SuppressWarnings("unchecked")
  private static ToLongFunction<Object> primitiveAccessor(
      Class<?> rowType, Method method, Function<Object, Object> boxed) {
    Class<?> type = method.getReturnType();
    if (!type.isPrimitive()) {
      return null;
    }
    if (type == boolean.class) {
      return row -> (Boolean) boxed.apply(row) ? 1 : 0;
    }
    return (ToLongFunction<Object>)
        lambda(rowType, method, ToLongFunction.class, "applyAsLong", long.class, long.class);
  }

  /**
   * {@code method} as an instance of the functional interface {@code type}, whose method {@code
   * name} takes an Object and returns {@code erased}, {@code returned} when called (null: the
   * method's return type, boxed): a generated class calling it directly.
   */
  private static Object lambda(
      Class<?> rowType,
      Method method,
      Class<?> type,
      String name,
      Class<?> erased,
      Class<?> returned) {
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(rowType, MethodHandles.lookup());
      MethodHandle getter = lookup.unreflect(method);
      Class<?> instantiated = returned != null ? returned : getter.type().wrap().returnType();
      return LambdaMetafactory.metafactory(
              lookup,
              name,
              MethodType.methodType(type),
              MethodType.methodType(erased, Object.class),
              getter,
              MethodType.methodType(instantiated, rowType))
          .getTarget()
          .invoke();
    } catch (Throwable e) {
      throw new IllegalArgumentException("cannot read " + rowType.getName() + "." + method, e);
    }
  }

  /**
   * Whether {@code column}'s index holds the rows whose value is {@code value}: every value of a
   * full index, only its own values ({@link Indexed#only}) of a partial one.
   */
  public boolean indexHolds(Column column, Object value) {
    long[] only = partialIndexes[column.position()];
    if (only == null) {
      return true;
    }
    if (!(value instanceof Number n)) {
      return false;
    }
    for (long v : only) {
      if (v == n.longValue()) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code column}'s index is partial ({@link Indexed#only}). */
  public boolean partiallyIndexed(Column column) {
    return partialIndexes[column.position()] != null;
  }

  /**
   * Refuses a find by a value {@code column}'s index does not hold: the answer would depend on the
   * engine.
   */
  public void checkIndexHolds(Column column, Object value) {
    if (value != null && !indexHolds(column, value)) {
      throw new IllegalArgumentException(
          this
              + "."
              + column.name()
              + " is indexed only for the values "
              + java.util.Arrays.toString(partialIndexes[column.position()])
              + ", not for "
              + value);
    }
  }

  /** Describes the table of a row record annotated with {@link TableName}. */
  public static <R extends Record> Table<R> of(Class<R> rowType) {
    return new Table<>(rowType);
  }

  /** The form a driver kept with this table ({@link #driverForm(Object)}), or null. */
  public Object driverForm() {
    return driverForm;
  }

  /**
   * Keeps a driver's description of this table, which must depend on the table alone and be safe to
   * share between threads (immutable). One driver's: a driver that finds another's form keeps its
   * own elsewhere.
   */
  public void driverForm(Object form) {
    driverForm = form;
  }

  public String name() {
    return name;
  }

  public Class<R> rowType() {
    return rowType;
  }

  public List<Column> columns() {
    return columns;
  }

  public List<Column> keyColumns() {
    return keyColumns;
  }

  /**
   * The partition column, if the table is partitioned (docs/architecture.md, "Metadata schema").
   */
  public Optional<Column> partitionColumn() {
    return Optional.ofNullable(partitionColumn);
  }

  public Column column(String columnName) {
    for (Column c : columns) {
      if (c.name().equals(columnName)) {
        return c;
      }
    }
    throw new IllegalArgumentException("table " + name + " has no column " + columnName);
  }

  /** A key of this table from its key columns' values, in key order. */
  public Key key(Object... values) {
    if (values.length != keyColumns.size()) {
      throw new IllegalArgumentException(
          name + " has " + keyColumns.size() + " key columns, got " + values.length + " values");
    }
    Object[] normalized = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      normalized[i] = normalize(keyColumns.get(i), values[i]);
    }
    return new Key(this, normalized);
  }

  /** The primary key of a row. */
  public Key keyOf(R row) {
    Object[] values = new Object[keyPositions.length];
    for (int i = 0; i < keyPositions.length; i++) {
      values[i] = get(row, keyPositions[i]);
    }
    return new Key(this, values);
  }

  /** The value of column {@code position} of a row. */
  public Object get(R row, int position) {
    return accessors[position].apply(row);
  }

  /** Whether column {@code position} is of a primitive type, which {@link #getPrimitive} reads. */
  public boolean primitive(int position) {
    return primitiveAccessors[position] != null;
  }

  /**
   * The value of primitive column {@code position} of a row, widened to a long (a boolean as 0 or
   * 1), read without boxing it as {@link #get} does.
   */
  public long getPrimitive(R row, int position) {
    return primitiveAccessors[position].applyAsLong(row);
  }

  /** A row from its column values in column order. */
  public R newRow(Object[] values) {
    try {
      return rowType.cast((Object) constructor.invokeExact(values));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot build a " + name + " row", e);
    }
  }

  /**
   * A row from its column values by position: a primitive column's in {@code primitives}, widened
   * to a long (a boolean as 0 or 1), any other's in {@code references}; the other array's entry at
   * a position is ignored. Nothing is boxed, and the arrays are the caller's to reuse: a decoder's
   * way to build rows (a 1,000-entry listing page builds 1,001).
   */
  public R newRow(long[] primitives, Object[] references) {
    try {
      return rowType.cast((Object) unboxedConstructor.invokeExact(primitives, references));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot build a " + name + " row", e);
    }
  }

  /**
   * Refuses a row that a database would reject or truncate: a null in a NOT NULL column, or a
   * string or byte array over its column's limit. Called before anything is sent.
   */
  public void validate(R row) throws StorageException {
    for (Column c : referenceColumns) {
      Object v = get(row, c.position());
      if (v == null) {
        if (!c.nullable()) {
          throw new StorageException(
              "column " + name + "." + c.name() + " is NOT NULL but the row has null");
        }
        continue;
      }
      int length =
          switch (c.type()) {
            case STRING -> utf8Length((String) v, c.maxBytes());
            case BYTES -> ((byte[]) v).length;
            default -> 0;
          };
      if (length > c.maxBytes()) {
        throw new StorageException(
            "column "
                + name
                + "."
                + c.name()
                + " holds at most "
                + c.maxBytes()
                + " bytes, the row has "
                + length);
      }
    }
  }

  private static int utf8Length(String s, int limit) {
    // A char encodes to at most 3 bytes: a string that surely fits needs no encoding.
    return s.length() * 3 <= limit ? s.length() : s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static Object normalize(Column c, Object v) {
    if (v instanceof Number n && !c.type().javaClass().isInstance(v)) {
      return switch (c.type()) {
        case BIGINT -> n.longValue();
        case INT -> n.intValue();
        case SMALLINT -> n.shortValue();
        case TINYINT -> n.byteValue();
        default -> throw new IllegalArgumentException(c.name() + " is not numeric: " + v);
      };
    }
    return v;
  }

  @Override
  public String toString() {
    return name;
  }
}
