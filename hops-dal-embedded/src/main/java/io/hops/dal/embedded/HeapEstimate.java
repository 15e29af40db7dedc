package io.hops.dal.embedded;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * The heap an entry of the engine's caches takes, for their bounds in bytes: object headers (12
 * bytes, compressed class pointers), fields (4 bytes a reference, compressed oops), arrays (16
 * bytes and their elements), each object rounded up to 8 bytes, as HotSpot lays them out below a 32
 * GB heap. A decoded row is weighed by its record's components: primitives, strings (a {@code
 * String} of Latin-1 bytes), byte arrays, boxed numbers; any other component as a small object.
 * {@code HeapEstimateTest} checks the estimates against what the heap grows by. Public for the
 * namenode's own caches (names, receipts), bounded in bytes the same way.
 */
public final class HeapEstimate {
  private HeapEstimate() {}

  public static final int HEADER = 12;
  public static final int REF = 4;
  public static final int ARRAY = 16;

  /** A {@link java.util.concurrent.ConcurrentHashMap}'s node and its share of the table. */
  public static final int MAP_ENTRY = 32 + 2 * REF;

  /** A {@link java.util.LinkedHashMap}'s entry (with its two links) and its share of the table. */
  public static final int LINKED_MAP_ENTRY = 40 + 2 * REF;

  /** A boxed {@code Long} or {@code Integer} that is not one of the small shared ones. */
  public static final int BOXED = 16;

  /** A {@link KeyBytes} of {@code length} bytes: the object and its array. */
  static long key(int length) {
    return align(HEADER + REF + 4) + array(length);
  }

  /** A {@code byte[]} of {@code length}. */
  public static long array(int length) {
    return align(ARRAY + length);
  }

  /** A {@code String} and its array: a byte a character if all are Latin-1, else two. */
  public static long string(String s) {
    int perChar = 1;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0xFF) {
        perChar = 2;
        break;
      }
    }
    return align(HEADER + REF + 4 + 4) + array(perChar * s.length());
  }

  /** An object of {@code fields} bytes of fields, with its header, rounded up. */
  public static long object(int fields) {
    return align(HEADER + fields);
  }

  public static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }

  /** A decoded row (a record of the DAL), or 0 for {@link RowCache#ABSENT} and the like. */
  static long row(Object row) {
    if (row == null || row == RowCache.ABSENT || row == RowCache.UNSHARED) {
      return 0;
    }
    return LAYOUTS.get(row.getClass()).bytes(row);
  }

  /** The rows of a kept partition, with their keys and the chunk arrays that hold them. */
  static long keptRows(List<byte[]> keys, List<?> rows) {
    long bytes = align(HEADER + 4 * REF);
    for (int i = 0; i < rows.size(); i++) {
      bytes += array(keys.get(i).length) + row(rows.get(i)) + 2 * REF;
    }
    int chunks = (rows.size() + KeptRows.FILLED_CHUNK_ROWS - 1) / KeptRows.FILLED_CHUNK_ROWS;
    return bytes + chunks * (2L * ARRAY + 2 * (KeptRows.CHUNK_ROWS - KeptRows.FILLED_CHUNK_ROWS));
  }

  /** How a record's class is weighed: its fixed part, and the components that vary. */
  private static final ClassValue<Layout> LAYOUTS =
      new ClassValue<>() {
        @Override
        protected Layout computeValue(Class<?> type) {
          return Layout.of(type);
        }
      };

  /**
   * The type every accessor is adapted to once, so that {@link Layout#bytes} calls it exactly: a
   * plain {@code invoke} of a handle that is not a constant adapts its type on every call.
   */
  private static final MethodType AS_OBJECT = MethodType.methodType(Object.class, Object.class);

  private record Layout(long fixed, MethodHandle[] varying) {
    static Layout of(Class<?> type) {
      if (!type.isRecord()) {
        return new Layout(align(HEADER + 4 * 8), new MethodHandle[0]);
      }
      long fields = 0;
      List<MethodHandle> varying = new java.util.ArrayList<>();
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      for (RecordComponent c : type.getRecordComponents()) {
        Class<?> t = c.getType();
        if (t == long.class || t == double.class) {
          fields += 8;
        } else if (t == boolean.class || t == byte.class) {
          fields += 1;
        } else if (t == short.class || t == char.class) {
          fields += 2;
        } else if (t.isPrimitive()) {
          fields += 4;
        } else {
          fields += REF;
          try {
            varying.add(lookup.unreflect(c.getAccessor()).asType(AS_OBJECT));
          } catch (IllegalAccessException e) {
            fields += 24; // cannot look: as a small object
          }
        }
      }
      return new Layout(align(HEADER + fields), varying.toArray(new MethodHandle[0]));
    }

    long bytes(Object row) {
      long bytes = fixed;
      for (MethodHandle m : varying) {
        Object v;
        try {
          v = (Object) m.invokeExact(row);
        } catch (Throwable e) {
          v = null;
        }
        bytes += value(v);
      }
      return bytes;
    }
  }

  /** A component's value, beside the reference to it. */
  private static long value(Object v) {
    if (v == null || v instanceof Boolean || v instanceof Enum<?>) {
      return 0; // shared
    }
    if (v instanceof String s) {
      return string(s);
    }
    if (v instanceof byte[] b) {
      return array(b.length);
    }
    if (v instanceof Long || v instanceof Double) {
      return align(HEADER + 8);
    }
    if (v instanceof Number) {
      return align(HEADER + 4);
    }
    return align(HEADER + 4 * REF);
  }
}
