package io.hops.dal.embedded;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.StorageException;
import io.hops.dal.WriteOp;
import io.hops.dal.schema.Column;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Turns a transaction's writes into one atomic {@link WriteBatch}: rows and their index entries
 * together. The caller holds the exclusive lock of every written key, so the committed rows read
 * here cannot change before the batch is written: an insert's duplicate check and an update's index
 * maintenance are exact.
 *
 * <p>As in SQL, an update or delete of a missing row changes nothing, and an insert of an existing
 * key fails with {@link DuplicateKeyException}.
 */
final class CommitBatch {
  /** The state of a row as this batch leaves it; {@link #ABSENT} once deleted. */
  private static final Object ABSENT = new Object();

  private final RowReader reader;
  private final WriteBatch batch = new WriteBatch();
  private final Map<ByteBuffer, Object> written = new HashMap<>();

  CommitBatch(RowReader reader) {
    this.reader = reader;
  }

  /** Builds the batch; on failure it is closed and nothing is written. */
  static CommitBatch of(RowReader reader, List<WriteOp> ops) throws StorageException {
    CommitBatch b = new CommitBatch(reader);
    try {
      for (WriteOp op : ops) {
        b.add(op);
      }
      return b;
    } catch (StorageException | RuntimeException e) {
      b.close();
      throw e;
    } catch (RocksDBException e) {
      b.close();
      throw Errors.of("building the write batch", e);
    }
  }

  WriteBatch batch() {
    return batch;
  }

  void close() {
    batch.close();
  }

  @SuppressWarnings("unchecked")
  private void add(WriteOp op) throws StorageException, RocksDBException {
    StoredTable<Record> t = (StoredTable<Record>) StoredTable.of(op.table());
    byte[] key = t.rowKey(op.key());
    Record old = current(t, key);
    switch (op.kind()) {
      case DELETE -> {
        if (old != null) {
          batch.delete(key);
          removeIndexEntries(t, old, key);
          written.put(ByteBuffer.wrap(key), ABSENT);
        }
      }
      case UPDATE -> {
        if (old != null) {
          put(t, key, old, op.row());
        }
      }
      case INSERT -> {
        if (old != null) {
          throw new DuplicateKeyException(
              "insert of " + op.key() + ": a row with this primary key exists", null);
        }
        put(t, key, null, op.row());
      }
    }
  }

  private void put(StoredTable<Record> t, byte[] key, Record old, Record row)
      throws RocksDBException {
    batch.put(key, t.codec.encode(row));
    for (Column c : t.indexed) {
      Object value = t.table.get(row, c.position());
      Object oldValue = old == null ? null : t.table.get(old, c.position());
      if (old != null && Objects.deepEquals(value, oldValue)) {
        continue;
      }
      if (old != null) {
        batch.delete(t.layout.indexKey(c, oldValue, key));
      }
      batch.put(t.layout.indexKey(c, value, key), key);
    }
    written.put(ByteBuffer.wrap(key), row);
  }

  private void removeIndexEntries(StoredTable<Record> t, Record old, byte[] key)
      throws RocksDBException {
    for (Column c : t.indexed) {
      batch.delete(t.layout.indexKey(c, t.table.get(old, c.position()), key));
    }
  }

  /** The row as the store holds it after the writes added so far. */
  private Record current(StoredTable<Record> t, byte[] key) throws StorageException {
    Object mine = written.get(ByteBuffer.wrap(key));
    if (mine != null) {
      return mine == ABSENT ? null : (Record) mine;
    }
    return reader.get(t, key);
  }
}
