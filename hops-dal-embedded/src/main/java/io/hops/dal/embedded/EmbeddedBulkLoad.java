package io.hops.dal.embedded;

import io.hops.dal.BulkLoad;
import io.hops.dal.StorageException;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * The embedded engine's {@link BulkLoad}: a flush sorts its rows and index entries (encoded as
 * {@link CommitBatch} encodes an insert's: {@link KeyLayout}, {@link RowCodec}) into one table file
 * per key space (a table's rows, one index's entries) and has RocksDB ingest them ({@code
 * ingestExternalFile}): no row locks, no write-ahead log, no memtable. A flush whose key ranges
 * overlap no file of the store joins it at its bottom level, so a load of new ids a range at a time
 * leaves nothing for compactions to rewrite.
 *
 * <p>What a commit keeps in step is kept here too: the {@link HighWaters} marks are raised to each
 * space's last key before the files are ingested (as a commit raises them before its write), the
 * row and partition caches start over once they are in, and a table with a capacity ({@link
 * TableCapacities}) is charged for its rows or the flush refused. A table with partition marks
 * ({@link io.hops.dal.schema.AscendingKeys}) is refused: its marks remember keys one by one.
 */
final class EmbeddedBulkLoad implements BulkLoad {
  /** Names the staging files of every load of the process apart. */
  private static final AtomicLong FILES = new AtomicLong();

  /** One key and its value, with the key space it sorts in. */
  private record Entry(byte[] key, byte[] value, Space space) {}

  /**
   * A key space: a table's rows or one index's entries; {@code mark} its {@link HighWaters} space
   * (null: not marked, a non-unique index).
   */
  private record Space(String name, KeyBytes mark) {}

  private static final Comparator<Entry> KEY_ORDER = (a, b) -> Arrays.compareUnsigned(a.key, b.key);

  private final EmbeddedStorage storage;
  private final RocksStore store;
  private final String stagingDir;
  private final Map<Object, Space> spaces = new HashMap<>();
  private final Map<StoredTable<?>, Long> growth = new HashMap<>();
  private List<Entry> entries = new ArrayList<>();

  EmbeddedBulkLoad(EmbeddedStorage storage) throws StorageException {
    this.storage = storage;
    this.store = storage.store();
    this.stagingDir = store.use("bulk load", db -> db.getName()) + "/bulk-load";
  }

  @Override
  @SuppressWarnings("unchecked")
  public synchronized <R extends Record> void insert(Table<R> table, R row)
      throws StorageException {
    StoredTable<Record> t = (StoredTable<Record>) StoredTable.of(table);
    if (t.partitionMarks) {
      throw new StorageException(
          "a bulk load of " + table + ": its partitions' marks remember keys one by one");
    }
    byte[] key = t.rowKey(row);
    for (Column c : t.indexed) {
      Object value = table.get(row, c.position());
      if (!table.indexHolds(c, value)) {
        continue; // a partial index without this value
      }
      boolean unique = value != null && t.unique.contains(c);
      // A unique index's one entry per value is keyed by the value alone (CommitBatch#entryKey).
      byte[] entry = unique ? t.layout.indexPrefix(c, value) : t.layout.indexKey(c, value, key);
      entries.add(new Entry(entry, key, indexSpace(t, c)));
    }
    byte[] encoded = t.codec.encode(row);
    entries.add(new Entry(key, encoded, rowSpace(t)));
    if (store.capacities().limits(table.name())) {
      growth.merge(t, (long) encoded.length, Long::sum);
    }
  }

  private Space rowSpace(StoredTable<?> t) {
    return spaces.computeIfAbsent(t, k -> new Space(t.table.name(), t.rowSpace));
  }

  private Space indexSpace(StoredTable<?> t, Column c) {
    return spaces.computeIfAbsent(
        List.of(t, c), k -> new Space(t.table.name() + "." + c.name(), t.uniquePrefixes.get(c)));
  }

  @Override
  public void flush() throws StorageException {
    List<Entry> sorted;
    Map<StoredTable<?>, Long> charged;
    synchronized (this) {
      sorted = entries;
      charged = new HashMap<>(growth);
      entries = new ArrayList<>();
      growth.clear();
    }
    if (sorted.isEmpty()) {
      return;
    }
    sorted.sort(KEY_ORDER);
    List<String> files = new ArrayList<>();
    try {
      writeFiles(sorted, files);
      if (!charged.isEmpty()) {
        store.capacities().reserve(charged, storage.reader().prefixes());
      }
      try {
        raiseMarks(sorted);
        ingest(files);
      } catch (StorageException | RuntimeException e) {
        store.capacities().release(charged);
        store.highWaters().forget();
        throw e;
      } finally {
        store.forgetCachedRows();
      }
    } finally {
      for (String f : files) {
        deleteStaged(f);
      }
    }
  }

  /** One sorted table file per key space, in {@link #stagingDir}. */
  private void writeFiles(List<Entry> sorted, List<String> files) throws StorageException {
    if (!store.name().startsWith(OpenStores.MEM_PREFIX)) {
      try {
        Files.createDirectories(java.nio.file.Path.of(stagingDir));
      } catch (IOException e) {
        throw new StorageException("bulk load: cannot create " + stagingDir, e);
      }
    }
    store.use(
        "bulk load: writing table files",
        db -> {
          try (EnvOptions env = new EnvOptions()) {
            int from = 0;
            while (from < sorted.size()) {
              Space space = sorted.get(from).space;
              String file = stagingDir + "/" + FILES.incrementAndGet() + ".sst";
              files.add(file);
              try (SstFileWriter writer = new SstFileWriter(env, store.options())) {
                writer.open(file);
                for (; from < sorted.size() && sorted.get(from).space == space; from++) {
                  Entry e = sorted.get(from);
                  writer.put(e.key, e.value);
                }
                writer.finish();
              } catch (RocksDBException e) {
                throw new RocksDBException(
                    "the bulk load's keys of " + space.name + ": " + e.getMessage(), e.getStatus());
              }
            }
          }
          return null;
        });
  }

  /** Each marked space's mark raised to its last key: before the keys are in the store. */
  private void raiseMarks(List<Entry> sorted) {
    for (int i = 0; i < sorted.size(); i++) {
      Entry e = sorted.get(i);
      boolean lastOfSpace = i + 1 == sorted.size() || sorted.get(i + 1).space != e.space;
      if (lastOfSpace && e.space.mark != null) {
        store.highWaters().raise(e.space.mark, e.key);
      }
    }
  }

  /**
   * The files join the store in one ingestion: moved (hard-linked) rather than copied where the
   * file system allows, each at the lowest level it overlaps nothing in, after a flush of the
   * memtable if it holds keys in their ranges.
   */
  private void ingest(List<String> files) throws StorageException {
    store.use(
        "bulk load: ingesting " + files.size() + " table files",
        db -> {
          try (IngestExternalFileOptions options =
              new IngestExternalFileOptions()
                  .setMoveFiles(true)
                  .setSnapshotConsistency(true)
                  .setAllowGlobalSeqNo(true)
                  .setAllowBlockingFlush(true)) {
            db.ingestExternalFile(files, options);
          }
          return null;
        });
  }

  /**
   * Removes a staged file an ingestion did not move into the store (all of them if it failed). An
   * in-memory store's staged files stay in memory, gone with the process.
   */
  private void deleteStaged(String file) {
    if (store.name().startsWith(OpenStores.MEM_PREFIX)) {
      return;
    }
    try {
      Files.deleteIfExists(java.nio.file.Path.of(file));
    } catch (IOException e) {
      // Not one of the store's files: RocksDB never reads it.
    }
  }

  @Override
  public synchronized void close() {
    entries = new ArrayList<>();
    growth.clear();
  }
}
