package io.hops.dal.embedded;

import io.hops.dal.schema.AscendingKeys;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.RowsMostlyWithoutBytes;
import io.hops.dal.schema.Table;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A table as the store holds it: its key layout, its row codec, its indexed columns and which of
 * them are unique.
 */
final class StoredTable<R extends Record> {
  private static final Map<Table<?>, StoredTable<?>> ALL = new ConcurrentHashMap<>();

  final Table<R> table;
  final KeyLayout layout;
  final RowCodec<R> codec;
  final List<Column> indexed;
  final Set<Column> unique;

  /** The prefix of every row key, as a {@link HighWaters} space. */
  final KeyBytes rowSpace;

  /** The prefix of each unique index's entries ({@link KeyLayout#indexColumnPrefix}). */
  final Map<Column, KeyBytes> uniquePrefixes;

  /**
   * Whether all its rows may be shared from the {@link RowCache}: not if a column holds bytes,
   * which a caller could change in a row it was handed.
   */
  final boolean cacheable;

  /**
   * Whether the {@link RowCache} holds its rows: all of them if {@link #cacheable}; those whose
   * bytes columns are null ({@link #shares}) if the table says its rows mostly have none ({@link
   * RowsMostlyWithoutBytes}); else none.
   */
  final boolean rowCached;

  /** The positions of its bytes columns. */
  private final int[] bytesColumns;

  /**
   * The length of a partition's row-key prefix, the same for every partition (the partition column
   * is the first key column and of a fixed width), or -1: the table's partitions are not kept in
   * the {@link PartitionCache}.
   */
  final int partitionPrefixLength;

  /**
   * Whether each partition has a {@link HighWaters} mark of its own ({@link AscendingKeys}): a
   * lookup of a key above its partition's greatest is answered without a read.
   */
  final boolean partitionMarks;

  /** What a point read or a batched read of its rows is called in an error (not built per read). */
  final String rowRead;

  final String batchRead;

  private StoredTable(Table<R> table) {
    this.table = table;
    this.layout = new KeyLayout(table);
    this.codec = new RowCodec<>(table);
    this.indexed = table.columns().stream().filter(Column::indexed).toList();
    RecordComponent[] components = table.rowType().getRecordComponents();
    this.unique =
        indexed.stream()
            .filter(c -> components[c.position()].getAnnotation(Indexed.class).unique())
            .collect(Collectors.toUnmodifiableSet());
    this.rowSpace = new KeyBytes(layout.rowPrefix());
    this.uniquePrefixes =
        unique.stream()
            .collect(
                Collectors.toUnmodifiableMap(
                    c -> c, c -> new KeyBytes(layout.indexColumnPrefix(c))));
    this.bytesColumns =
        table.columns().stream()
            .filter(c -> c.type() == ColumnType.BYTES)
            .mapToInt(Column::position)
            .toArray();
    this.cacheable = bytesColumns.length == 0;
    this.rowCached = cacheable || table.rowType().isAnnotationPresent(RowsMostlyWithoutBytes.class);
    int width = table.partitionColumn().map(OrderedBytes::fixedKeyWidth).orElse(-1);
    this.partitionPrefixLength = cacheable && width > 0 ? layout.rowPrefix().length + width : -1;
    this.partitionMarks =
        table.rowType().isAnnotationPresent(AscendingKeys.class)
            && table.partitionColumn().isPresent();
    this.rowRead = "read of a row of " + table;
    this.batchRead = "batched read of rows of " + table;
  }

  /**
   * Whether {@code state} (a row, or {@link RowCache#ABSENT}) of a {@link #rowCached} table may be
   * shared from the {@link RowCache}: every row of a {@link #cacheable} table, a row of another
   * whose bytes columns are all null (nothing in it can be changed), and an absence.
   */
  boolean shares(Object state) {
    if (cacheable || !(state instanceof Record)) {
      return true;
    }
    for (int c : bytesColumns) {
      if (table.get(table.rowType().cast(state), c) != null) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code prefix} is the row-key prefix of one whole partition of a cached table. */
  boolean isPartition(byte[] prefix) {
    return partitionPrefixLength > 0 && prefix.length == partitionPrefixLength;
  }

  @SuppressWarnings("unchecked")
  static <R extends Record> StoredTable<R> of(Table<R> table) {
    // Kept on the table (every read and write of every transaction asks), else from the map,
    // whose one instance per table is what the table keeps.
    if (table.driverForm() instanceof StoredTable<?> kept) {
      return (StoredTable<R>) kept;
    }
    StoredTable<?> known = ALL.computeIfAbsent(table, StoredTable::new);
    if (table.driverForm() == null) {
      table.driverForm(known);
    }
    return (StoredTable<R>) known;
  }

  byte[] rowKey(Key key) {
    return layout.rowKey(key);
  }

  /**
   * The row key of {@code key} with its hash, encoded once per key object ({@link Key#encoded}).
   */
  KeyBytes rowKeyBytes(Key key) {
    if (key.table() != table) {
      return new KeyBytes(layout.rowKey(key)); // not this table's key: nothing to keep
    }
    if (key.encoded() instanceof KeyBytes k) {
      return k;
    }
    KeyBytes k = new KeyBytes(layout.rowKey(key));
    key.encoded(k);
    return k;
  }

  /**
   * The row-key prefix of a partition, as a {@link HighWaters} space: the first bytes of {@code
   * rowKey}, a row key of the partition, up to the end of its first (partition) column's value.
   */
  KeyBytes partitionSpace(KeyBytes rowKey) {
    byte[] key = rowKey.bytes();
    int end = OrderedBytes.keyValueEnd(table.keyColumns().get(0), key, layout.rowPrefix().length);
    return new KeyBytes(Arrays.copyOf(key, end));
  }

  byte[] rowKey(R row) {
    return layout.rowKey(table.keyOf(row));
  }
}
