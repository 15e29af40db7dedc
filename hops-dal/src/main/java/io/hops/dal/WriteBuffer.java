package io.hops.dal;

import io.hops.dal.schema.Key;
import io.hops.dal.schema.Tables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A transaction's buffered writes, one net change per row: an insert then an update is one insert,
 * an insert then a delete is nothing, a delete then an insert is both (flushed in that order), so
 * the flush sends each row at most twice.
 */
final class WriteBuffer {
  /** The net change of one row. */
  private record Pending(boolean deleteFirst, WriteOp.Kind kind, Record row) {}

  private final Map<Key, Pending> pending = new LinkedHashMap<>();

  boolean isEmpty() {
    return pending.isEmpty();
  }

  void insert(Key key, Record row) throws StorageException {
    Pending p = pending.get(key);
    if (p == null) {
      pending.put(key, new Pending(false, WriteOp.Kind.INSERT, row));
    } else if (p.kind() == WriteOp.Kind.DELETE) {
      pending.put(key, new Pending(true, WriteOp.Kind.INSERT, row));
    } else {
      throw new StorageException("row " + key + " inserted twice in one transaction");
    }
  }

  /**
   * After a delete of the row it is an insert; after an insert or another insert-if-absent the row
   * is there and it changes nothing.
   */
  void insertIfAbsent(Key key, Record row) {
    Pending p = pending.get(key);
    if (p == null) {
      pending.put(key, new Pending(false, WriteOp.Kind.INSERT_IF_ABSENT, row));
    } else if (p.kind() == WriteOp.Kind.DELETE) {
      pending.put(key, new Pending(true, WriteOp.Kind.INSERT, row));
    }
  }

  void update(Key key, Record row) throws StorageException {
    Pending p = pending.get(key);
    if (p == null) {
      pending.put(key, new Pending(false, WriteOp.Kind.UPDATE, row));
    } else if (p.kind() == WriteOp.Kind.DELETE) {
      throw new StorageException("row " + key + " updated after its delete");
    } else if (p.kind() == WriteOp.Kind.INSERT_IF_ABSENT) {
      throw new StorageException("row " + key + " updated after an insert if absent");
    } else {
      pending.put(key, new Pending(p.deleteFirst(), p.kind(), row));
    }
  }

  void delete(Key key) {
    Pending p = pending.get(key);
    if (p != null && p.kind() == WriteOp.Kind.INSERT && !p.deleteFirst()) {
      pending.remove(key);
    } else {
      pending.put(key, new Pending(false, WriteOp.Kind.DELETE, null));
    }
  }

  /**
   * The writes in flush order: all deletes, then all updates, then all inserts (so a row moved to a
   * new key never meets its old self in a unique index), each in the table order of {@link Tables},
   * rows of one table in the order they were first written.
   */
  List<WriteOp> inFlushOrder() {
    int tables = Tables.ALL.size();
    List<Ordered> ordered = new ArrayList<>(pending.size() + 1);
    for (Map.Entry<Key, Pending> e : pending.entrySet()) {
      Key key = e.getKey();
      Pending p = e.getValue();
      int table = Tables.order(key.table());
      if (p.deleteFirst()) {
        ordered.add(
            new Ordered(
                WriteOp.Kind.DELETE.ordinal() * tables + table,
                new WriteOp(WriteOp.Kind.DELETE, key.table(), key, null)));
      }
      ordered.add(
          new Ordered(
              p.kind().ordinal() * tables + table,
              new WriteOp(p.kind(), key.table(), key, p.row())));
    }
    // A stable sort: rows of one group stay in the order they were first written.
    ordered.sort(Comparator.comparingInt(Ordered::group));
    List<WriteOp> out = new ArrayList<>(ordered.size());
    for (Ordered o : ordered) {
      out.add(o.op());
    }
    return out;
  }

  /** A write and its group in flush order: kind, then table. */
  private record Ordered(int group, WriteOp op) {}
}
