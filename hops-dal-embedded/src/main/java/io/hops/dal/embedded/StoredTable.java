package io.hops.dal.embedded;

import io.hops.dal.schema.Column;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A table as the store holds it: its key layout, its row codec and its indexed columns. */
final class StoredTable<R extends Record> {
  private static final Map<Table<?>, StoredTable<?>> ALL = new ConcurrentHashMap<>();

  final Table<R> table;
  final KeyLayout layout;
  final RowCodec<R> codec;
  final List<Column> indexed;

  private StoredTable(Table<R> table) {
    this.table = table;
    this.layout = new KeyLayout(table);
    this.codec = new RowCodec<>(table);
    this.indexed = table.columns().stream().filter(Column::indexed).toList();
  }

  @SuppressWarnings("unchecked")
  static <R extends Record> StoredTable<R> of(Table<R> table) {
    return (StoredTable<R>) ALL.computeIfAbsent(table, StoredTable::new);
  }

  byte[] rowKey(Key key) {
    return layout.rowKey(key);
  }

  byte[] rowKey(R row) {
    return layout.rowKey(table.keyOf(row));
  }
}
