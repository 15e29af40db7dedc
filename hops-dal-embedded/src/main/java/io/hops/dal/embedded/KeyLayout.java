package io.hops.dal.embedded;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;

/**
 * Where a table's rows and index entries live in the one ordered key space of the store.
 *
 * <ul>
 *   <li>row: {@code ROWS table pk...} → the row's columns ({@link RowCodec}); the partition column
 *       is the first key column, so one partition is one contiguous prefix and a partition-pruned
 *       scan is one prefix iteration, in primary-key order (a {@link
 *       io.hops.dal.schema.SignedByteOrder} column with its sign bits flipped, so that order is
 *       HDFS's order of names);
 *   <li>index entry: {@code INDEX table column value pk...} → the row's key, so an index scan is a
 *       prefix iteration in (value, primary key) order followed by a batched read of the rows;
 *   <li>catalog: {@code CATALOG table} → empty, once the table is created.
 * </ul>
 *
 * Table and column names are in the keys (not numbers), so adding a table never moves another.
 */
final class KeyLayout {
  static final byte FORMAT = 0x00;
  static final byte CATALOG = 0x01;
  static final byte ROWS = 0x02;
  static final byte INDEX = 0x03;

  /** The one key outside every table: which on-disk format the store holds. */
  static final byte[] FORMAT_KEY =
      new OrderedBytes().raw(new byte[] {FORMAT}).raw(bytes("format")).toByteArray();

  private final Table<?> table;
  private final byte[] rowPrefix;
  private final byte[] indexPrefix;
  private final byte[] catalogKey;

  KeyLayout(Table<?> table) {
    List<Column> keys = table.keyColumns();
    if (table.partitionColumn().isPresent() && !keys.get(0).partitionKey()) {
      // Otherwise a partition would not be one contiguous range in primary-key order.
      throw new IllegalArgumentException(table + ": the partition column must be the first key");
    }
    this.table = table;
    this.rowPrefix = space(ROWS).value(ColumnType.STRING, table.name()).toByteArray();
    this.indexPrefix = space(INDEX).value(ColumnType.STRING, table.name()).toByteArray();
    this.catalogKey = space(CATALOG).value(ColumnType.STRING, table.name()).toByteArray();
  }

  byte[] rowKey(Key key) {
    List<Column> keys = table.keyColumns();
    int size = 0;
    for (int i = 0; i < keys.size(); i++) {
      size += OrderedBytes.keySize(keys.get(i), key.value(i));
    }
    // Sized for the key: no copy at the end unless a string needed escapes or was not ASCII.
    OrderedBytes out = new OrderedBytes(rowPrefix, size);
    for (int i = 0; i < keys.size(); i++) {
      out.keyValue(keys.get(i), key.value(i));
    }
    return out.toByteArray();
  }

  /** The primary key a row key encodes ({@link #rowKey}'s inverse). */
  Key keyOf(byte[] rowKey) {
    List<Column> keys = table.keyColumns();
    Object[] values = new Object[keys.size()];
    int[] at = {rowPrefix.length};
    for (int i = 0; i < values.length; i++) {
      values[i] = OrderedBytes.readKey(keys.get(i), rowKey, at);
    }
    return table.key(values);
  }

  /** Every row of the table starts with this. */
  byte[] rowPrefix() {
    return rowPrefix;
  }

  /** The rows whose leading columns equal {@code values} start with this. */
  byte[] rowPrefix(List<Column> leadingKeyColumns, List<Object> values) {
    OrderedBytes out = new OrderedBytes(rowPrefix);
    for (int i = 0; i < leadingKeyColumns.size(); i++) {
      out.keyValue(leadingKeyColumns.get(i), values.get(i));
    }
    return out.toByteArray();
  }

  /** Every index entry of the table starts with this. */
  byte[] indexPrefix() {
    return indexPrefix;
  }

  /** The entries of {@code column}'s index for {@code value} start with this. */
  byte[] indexPrefix(Column column, Object value) {
    return new OrderedBytes(indexPrefix)
        .value(ColumnType.STRING, column.name())
        .nullableValue(column.type(), value)
        .toByteArray();
  }

  /** Every entry of {@code column}'s index starts with this. */
  byte[] indexColumnPrefix(Column column) {
    return new OrderedBytes(indexPrefix).value(ColumnType.STRING, column.name()).toByteArray();
  }

  /** The entry of {@code column}'s index for a row with this value and row key. */
  byte[] indexKey(Column column, Object value, byte[] rowKey) {
    byte[] prefix = indexPrefix(column, value);
    byte[] key = new byte[prefix.length + rowKey.length - rowPrefix.length];
    System.arraycopy(prefix, 0, key, 0, prefix.length);
    System.arraycopy(
        rowKey, rowPrefix.length, key, prefix.length, rowKey.length - rowPrefix.length);
    return key;
  }

  byte[] catalogKey() {
    return catalogKey;
  }

  private static OrderedBytes space(byte tag) {
    return new OrderedBytes().raw(new byte[] {tag});
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
