package io.hops.dal.embedded;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.KeyRange;
import io.hops.dal.StorageException;
import io.hops.dal.WriteOp;
import io.hops.dal.schema.Column;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.rocksdb.WriteBatch;

/**
 * Turns a transaction's writes into one atomic {@link WriteBatch}: rows and their index entries
 * together. The caller holds the exclusive lock of every written key, so the committed rows read
 * here cannot change before the batch is written: an insert's duplicate check and an update's index
 * maintenance are exact.
 *
 * <p>As in SQL, an update or delete of a missing row changes nothing, and an insert of an existing
 * key, or a write of a value a unique index already holds for another row, fails with {@link
 * DuplicateKeyException}. A unique value is locked ({@link UniqueValue}) before it is checked. An
 * inserted key above every key its table ever held ({@link HighWaters}), a unique value above every
 * value its index ever held or whose entry this batch deletes, is free without a read.
 *
 * <p>Deletes go last, and only of keys the batch does not put again: a row that moves keeps its
 * unique entries' keys, which are rewritten in place rather than deleted and put. Range deletes go
 * first, one range tombstone each; their rows are not read, so a range of a table whose rows the
 * caches keep makes the commit drop the caches, and a table with a capacity (which counts the bytes
 * of the rows it deletes) refuses them.
 */
final class CommitBatch {
  /** Takes the exclusive lock of a unique value for the committing transaction. */
  @FunctionalInterface
  interface ValueLocker {
    void lock(UniqueValue value) throws StorageException;
  }

  /**
   * The bytes a write usually adds to the batch (a row of a few dozen bytes of key and about a
   * hundred of value, and an index entry or two): the batch's buffer is sized once, not grown.
   */
  private static final int BYTES_PER_WRITE = 256;

  private final RowReader reader;
  private final Map<KeyBytes, Object> lockedReads;
  private final ValueLocker locker;
  private final TableCapacities capacities;
  private final HighWaters highWaters;
  private final BatchBytes records;

  /** The RocksDB batch of {@link #records}, once asked for. */
  private WriteBatch batch;

  /** How many bytes of encoded rows this batch adds to each table with a capacity. */
  private final Map<StoredTable<?>, Long> growth = new HashMap<>();

  /**
   * What the commit tells the {@link RowCache}: the state of each row of a {@link
   * StoredTable#rowCached} table as this batch leaves it, {@link RowCache#ABSENT} once deleted,
   * {@link RowCache#UNSHARED} for a row the cache may not share ({@link StoredTable#shares}: it
   * holds bytes). Handed to the cache as it is: no copy at commit.
   */
  private final Map<KeyBytes, Object> written = new HashMap<>();

  /**
   * The state of the rows {@link #written} does not hold as they are: of tables not {@link
   * StoredTable#rowCached}, and those it holds as {@link RowCache#UNSHARED}.
   */
  private final Map<KeyBytes, Object> ownRows = new HashMap<>();

  /** Keys (rows and index entries) this batch deletes at its end, unless it puts them again. */
  private final Set<KeyBytes> deletes = new LinkedHashSet<>();

  /** The unique values this batch gives rows (value → row key). */
  private final Map<ByteBuffer, ByteBuffer> claimedValues = new HashMap<>();

  /** The unique entries this batch puts, and their indexes' prefixes: the marks to raise. */
  private final List<KeyBytes> newKeySpaces = new ArrayList<>();

  private final List<byte[]> newKeys = new ArrayList<>();

  /** The partitions of {@link StoredTable#partitionMarks} tables this batch inserts rows into. */
  private final List<KeyBytes> newKeyPartitions = new ArrayList<>();

  private final List<byte[]> newPartitionKeys = new ArrayList<>();

  /**
   * The rows this batch writes in partitions of cached tables, as it leaves them, by partition
   * ({@link PartitionCache}).
   */
  private final Map<KeyBytes, Map<KeyBytes, Object>> partitions = new HashMap<>();

  private int keysPut;
  private int keysDeleted;

  /** Whether a range delete removed rows the row or partition caches may hold. */
  private boolean forgetsCachedRows;

  /**
   * Whether the transaction reads once ({@link EmbeddedTransaction#readOnce}): the rows it writes
   * replace those the row cache holds, and no other is added ({@link RowCache#committedPast}); the
   * rows an insert must find absent are read from the store.
   */
  private final boolean readOnce;

  /**
   * Rows (or {@link RowCache#ABSENT}) of keys this batch inserts, read from the store in one batch
   * before its writes are added ({@link #prefetchInserted}), by row key; empty unless it reads
   * once.
   */
  private final Map<KeyBytes, Object> prefetched = new HashMap<>();

  private CommitBatch(
      RowReader reader,
      Map<KeyBytes, Object> lockedReads,
      ValueLocker locker,
      TableCapacities capacities,
      HighWaters highWaters,
      boolean readOnce,
      int writes) {
    this.reader = reader;
    this.readOnce = readOnce;
    this.records = new BatchBytes(writes * BYTES_PER_WRITE);
    this.lockedReads = lockedReads;
    this.locker = locker;
    this.capacities = capacities;
    this.highWaters = highWaters;
  }

  /**
   * Builds the batch; on failure it is closed and nothing is written. {@code lockedReads}: rows (or
   * {@link RowCache#ABSENT}) the transaction read under locks it still holds, by row key.
   */
  static CommitBatch of(
      RowReader reader,
      Map<KeyBytes, Object> lockedReads,
      ValueLocker locker,
      TableCapacities capacities,
      HighWaters highWaters,
      boolean readOnce,
      List<KeyRange> ranges,
      List<WriteOp> ops)
      throws StorageException {
    CommitBatch b =
        new CommitBatch(
            reader,
            lockedReads,
            locker,
            capacities,
            highWaters,
            readOnce,
            ranges.size() + ops.size());
    try {
      for (KeyRange r : ranges) {
        b.deleteRange(r);
      }
      if (readOnce && ops.size() >= PointReads.ORDERED_BATCH_MIN) {
        b.prefetchInserted(ops);
      }
      for (WriteOp op : ops) {
        b.add(op);
      }
      for (KeyBytes k : b.deletes) {
        b.records.delete(k.bytes());
      }
      b.keysDeleted = b.deletes.size() + ranges.size();
      return b;
    } catch (StorageException | RuntimeException e) {
      b.close();
      throw e;
    }
  }

  WriteBatch batch() {
    if (batch == null) {
      batch = records.toWriteBatch();
    }
    return batch;
  }

  /** The growth of each table with a capacity, in bytes of encoded rows (may be negative). */
  Map<StoredTable<?>, Long> growth() {
    return growth;
  }

  /**
   * The rows of {@link StoredTable#rowCached} tables as this batch leaves them, by row key; those
   * the cache may not share as {@link RowCache#UNSHARED}.
   */
  Map<KeyBytes, Object> cachedRows() {
    return written;
  }

  /**
   * The rows this batch writes in partitions of cached tables (row or {@link RowCache#ABSENT} by
   * row key), by row-key prefix.
   */
  Map<KeyBytes, Map<KeyBytes, Object>> writtenPartitions() {
    return partitions;
  }

  /** Whether its commit adds no row to the row cache ({@link RowCache#committedPast}). */
  boolean readOnce() {
    return readOnce;
  }

  /** Whether the caches must forget what they hold once this batch is in the store. */
  boolean forgetsCachedRows() {
    return forgetsCachedRows;
  }

  /** Keys (rows and index entries) this batch puts. */
  int keysPut() {
    return keysPut;
  }

  /** Keys (rows and index entries) this batch deletes. */
  int keysDeleted() {
    return keysDeleted;
  }

  /**
   * Tells the marks of the tables and unique indexes what this batch puts, before it is written.
   */
  void raiseMarks() {
    for (int i = 0; i < newKeys.size(); i++) {
      highWaters.raise(newKeySpaces.get(i), newKeys.get(i));
    }
    for (int i = 0; i < newPartitionKeys.size(); i++) {
      highWaters.raisePartition(newKeyPartitions.get(i), newPartitionKeys.get(i));
    }
  }

  /** The write of this batch, after {@link #raiseMarks}, has returned or failed. */
  void settleMarks() {
    for (KeyBytes p : newKeyPartitions) {
      highWaters.settlePartition(p);
    }
  }

  void close() {
    if (batch != null) {
      batch.close();
    }
  }

  /**
   * One range tombstone from the first key's row key to just past the last's: the last row key with
   * a zero byte appended, the next byte string after it, which no other row key of the table begins
   * with (a key's columns are fixed width or terminated).
   */
  private void deleteRange(KeyRange r) throws StorageException {
    StoredTable<?> t = StoredTable.of(r.table());
    if (capacities.limits(t.table.name())) {
      throw new StorageException(
          "a range delete of "
              + t.table
              + ": the table has a capacity, which counts the bytes of each row deleted");
    }
    byte[] last = t.rowKey(r.last());
    records.deleteRange(t.rowKey(r.first()), Arrays.copyOf(last, last.length + 1));
    forgetsCachedRows |= t.rowCached || t.partitionPrefixLength > 0;
  }

  /**
   * Reads, in one batch per table, the rows of the keys {@code ops} insert that no row read under a
   * lock and no {@link HighWaters} mark answers for (those the marks answer are noted absent here),
   * so that {@link #current} need not read them one by one, nor ask the marks again. A full
   * report's new replica rows are such keys once any replica with a higher key was written (the
   * replica table's mark is above them): read one by one, each asks every sorted run's bloom
   * filter, and in a starting cluster, where many reports write at once and the memtables are
   * flushed into many runs, that was half of a first report's CPU. Read in one batch, mostly in key
   * order ({@link PointReads#orderedGet}), the keys of a file's blocks cost a step of an iterator
   * each. Only a batch that reads once reads from the store there; the locks of every key are held,
   * so a row read here is what {@link #current} would read.
   */
  @SuppressWarnings("unchecked")
  private void prefetchInserted(List<WriteOp> ops) throws StorageException {
    Map<StoredTable<Record>, List<KeyBytes>> unknown = new HashMap<>();
    for (WriteOp op : ops) {
      if (op.kind() != WriteOp.Kind.INSERT && op.kind() != WriteOp.Kind.INSERT_IF_ABSENT) {
        continue;
      }
      StoredTable<Record> t = (StoredTable<Record>) StoredTable.of(op.table());
      KeyBytes k = t.rowKeyBytes(op.key());
      if (lockedReads.containsKey(k)) {
        continue;
      }
      if (markedAbsent(t, k)) {
        prefetched.put(k, RowCache.ABSENT); // asked once: not again as the write is added
        continue;
      }
      unknown.computeIfAbsent(t, x -> new ArrayList<>()).add(k);
    }
    for (Map.Entry<StoredTable<Record>, List<KeyBytes>> e : unknown.entrySet()) {
      List<KeyBytes> keys = e.getValue();
      if (keys.size() < PointReads.ORDERED_BATCH_MIN) {
        continue;
      }
      List<Record> rows = reader.getAllOnce(e.getKey(), keys);
      for (int i = 0; i < keys.size(); i++) {
        Record row = rows.get(i);
        prefetched.put(keys.get(i), row == null ? RowCache.ABSENT : row);
      }
    }
  }

  /** Whether the {@link HighWaters} marks tell that no row of {@code k} was ever committed. */
  private boolean markedAbsent(StoredTable<Record> t, KeyBytes k) throws StorageException {
    return t.partitionMarks
        ? highWaters.partitionNeverHeld(reader.prefixes(), t.partitionSpace(k), k.bytes())
        : highWaters.neverHeld(reader.prefixes(), t.rowSpace, k.bytes());
  }

  @SuppressWarnings("unchecked")
  private void add(WriteOp op) throws StorageException {
    StoredTable<Record> t = (StoredTable<Record>) StoredTable.of(op.table());
    // One encoding and one hash of the row key for the batch, the maps and the caches.
    KeyBytes k = t.rowKeyBytes(op.key());
    byte[] key = k.bytes();
    KeyBytes space = t.partitionMarks ? t.partitionSpace(k) : null;
    Record old =
        current(
            t,
            k,
            space,
            op.kind() == WriteOp.Kind.INSERT || op.kind() == WriteOp.Kind.INSERT_IF_ABSENT);
    switch (op.kind()) {
      case DELETE -> {
        if (old != null) {
          deletes.add(k);
          if (capacities.limits(t.table.name())) {
            grow(t, -t.codec.encode(old).length);
          }
          removeIndexEntries(t, old, key);
          leave(t, k, RowCache.ABSENT);
        }
      }
      case UPDATE -> {
        if (old != null) {
          put(t, k, old, op.row());
        }
      }
      case INSERT -> {
        if (old != null) {
          throw new DuplicateKeyException(
              "insert of " + op.key() + ": a row with this primary key exists", null, op.key());
        }
        inserted(t, k, space, op);
      }
      case INSERT_IF_ABSENT -> {
        if (old == null) {
          inserted(t, k, space, op);
        }
      }
    }
  }

  /**
   * {@code space}: the partition's {@link HighWaters} space when the table has marks by partition.
   */
  private void inserted(StoredTable<Record> t, KeyBytes k, KeyBytes space, WriteOp op)
      throws StorageException {
    put(t, k, null, op.row());
    if (t.partitionMarks) {
      newKeyPartitions.add(space);
      newPartitionKeys.add(k.bytes());
    }
  }

  private void put(StoredTable<Record> t, KeyBytes k, Record old, Record row)
      throws StorageException {
    byte[] key = k.bytes();
    for (Column c : t.indexed) {
      Object value = t.table.get(row, c.position());
      Object oldValue = old == null ? null : t.table.get(old, c.position());
      if (old != null && Objects.deepEquals(value, oldValue)) {
        continue;
      }
      if (old != null && t.table.indexHolds(c, oldValue)) {
        deleteEntry(t, c, oldValue, key);
      }
      if (!t.table.indexHolds(c, value)) {
        continue; // a partial index without this value
      }
      byte[] entry = entryKey(t, c, value, key);
      if (value != null && t.unique.contains(c)) {
        claimUnique(t, c, value, key);
        newKeySpaces.add(t.uniquePrefixes.get(c));
        newKeys.add(entry);
      }
      records.put(entry, key);
      keysPut++;
      if (!deletes.isEmpty()) {
        deletes.remove(new KeyBytes(entry));
      }
    }
    byte[] encoded = t.codec.encode(row);
    records.put(key, encoded);
    keysPut++;
    if (old == null) {
      newKeySpaces.add(t.rowSpace);
      newKeys.add(key);
      if (!deletes.isEmpty()) {
        deletes.remove(k);
      }
    }
    if (capacities.limits(t.table.name())) {
      grow(t, encoded.length - (old == null ? 0 : t.codec.encode(old).length));
    }
    leave(t, k, row);
  }

  private void grow(StoredTable<Record> t, long bytes) {
    growth.merge(t, bytes, Long::sum);
  }

  private void leave(StoredTable<Record> t, KeyBytes k, Object state) {
    byte[] key = k.bytes();
    if (t.cacheable) {
      written.put(k, state);
    } else if (!t.rowCached) {
      ownRows.put(k, state);
    } else if (t.shares(state)) {
      written.put(k, state);
      ownRows.remove(k); // an earlier write of the key in this batch held bytes
    } else {
      written.put(k, RowCache.UNSHARED);
      ownRows.put(k, state);
    }
    if (t.partitionPrefixLength > 0) {
      partitions
          .computeIfAbsent(
              new KeyBytes(Arrays.copyOf(key, t.partitionPrefixLength)), p -> new HashMap<>(4))
          .put(k, state);
    }
  }

  private void removeIndexEntries(StoredTable<Record> t, Record old, byte[] key) {
    for (Column c : t.indexed) {
      Object value = t.table.get(old, c.position());
      if (t.table.indexHolds(c, value)) {
        deleteEntry(t, c, value, key);
      }
    }
  }

  private void deleteEntry(StoredTable<Record> t, Column c, Object value, byte[] key) {
    byte[] entry = entryKey(t, c, value, key);
    deletes.add(new KeyBytes(entry));
    if (value != null && t.unique.contains(c)) {
      claimedValues.remove(ByteBuffer.wrap(t.layout.indexPrefix(c, value)), ByteBuffer.wrap(key));
    }
  }

  /**
   * Refuses a unique value that another row holds: committed (and not deleted by this batch) or
   * given to another row earlier in this batch. The value's lock keeps the check true until commit.
   */
  private void claimUnique(StoredTable<Record> t, Column c, Object value, byte[] key)
      throws StorageException {
    byte[] prefix = t.layout.indexPrefix(c, value);
    locker.lock(UniqueValue.of(prefix));
    ByteBuffer mine = ByteBuffer.wrap(key);
    ByteBuffer claimed = claimedValues.get(ByteBuffer.wrap(prefix));
    boolean taken = claimed != null && !claimed.equals(mine);
    // The value's one entry is keyed by the value: a point read, not a scan, and none for a value
    // whose entry this batch deletes or that is above every value the index ever held.
    taken |=
        !deletes.contains(new KeyBytes(prefix))
            && !highWaters.neverHeld(reader.prefixes(), t.uniquePrefixes.get(c), prefix)
            && reader.raw(prefix) != null;
    if (taken) {
      throw new DuplicateKeyException(
          "write of "
              + t.table
              + " row: another row has "
              + t.table
              + "."
              + c.name()
              + " = "
              + value,
          null);
    }
    claimedValues.put(ByteBuffer.wrap(prefix), mine);
  }

  /**
   * The key of a row's entry in {@code c}'s index: the value and the row key, or the value alone
   * for a unique index, whose one entry per value a claim finds by a point read.
   */
  private static byte[] entryKey(StoredTable<Record> t, Column c, Object value, byte[] key) {
    return value != null && t.unique.contains(c)
        ? t.layout.indexPrefix(c, value)
        : t.layout.indexKey(c, value, key);
  }

  /** The row as the store holds it after the writes added so far. */
  private Record current(StoredTable<Record> t, KeyBytes k, KeyBytes space, boolean inserting)
      throws StorageException {
    byte[] key = k.bytes();
    Object known = t.cacheable ? written.get(k) : ownRows.get(k);
    if (known == null && !t.cacheable && t.rowCached) {
      known = written.get(k); // a row it shares
    }
    if (known == null) {
      known = lockedReads.get(k);
    }
    if (known == null) {
      known = prefetched.get(k); // read, or found absent by the marks, before the writes
    }
    if (known != null) {
      return known == RowCache.ABSENT ? null : (Record) known;
    }
    if (t.partitionMarks) {
      // The partition's mark, learnt before this insert raises it, so that it knows the keys
      // just below this one that no commit put (HighWaters.WINDOW).
      if (highWaters.partitionNeverHeld(reader.prefixes(), space, key)) {
        return null;
      }
    } else if (inserting && highWaters.neverHeld(reader.prefixes(), t.rowSpace, key)) {
      return null;
    }
    return readOnce ? reader.getOnce(t, k) : reader.get(t, k);
  }
}
