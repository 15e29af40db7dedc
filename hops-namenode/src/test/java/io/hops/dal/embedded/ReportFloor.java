package io.hops.dal.embedded;

import io.hops.dal.Storage;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Column;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The floor of a first full report on the embedded engine: the RocksDB work no implementation of it
 * can avoid with normalized replica rows, done straight on the engine's RocksDB with the keys and
 * rows the DAL's tables encode, and none of the DAL's transaction (no locks, caches, marks or
 * per-row maps). For {@code count} reported blocks: a {@code multiGet} of their lookup rows (block
 * id to file), the rows decoded, a {@code multiGet} of their block rows (the block's state and
 * generation stamp), decoded, then one write batch of a replica row and its {@code storage_id}
 * index entry per block, written as a commit writes. In the engine's package, to reach its key
 * layout and row codec; used by {@code io.hops.namenode.bench.BlockReportThroughput}.
 */
public final class ReportFloor {
  private ReportFloor() {}

  /** The wall times of the three steps and the CPU time of the thread that did them, in ms. */
  public record Times(double lookups, double blocks, double write, double cpu) {
    public double total() {
      return lookups + blocks + write;
    }
  }

  /**
   * Reads the lookup and block rows of blocks {@code from} to {@code from + count - 1} of {@code
   * storage} (an embedded one, holding them), {@code readBatch} keys per {@code multiGet}, and
   * writes their replica rows on {@code storageId}.
   */
  public static Times measure(Storage storage, long from, int count, int storageId, int readBatch)
      throws Exception {
    RocksStore store = ((EmbeddedStorage) storage).store();
    StoredTable<BlockLookupRow> lookups = StoredTable.of(BlockLookupRow.TABLE);
    StoredTable<BlockInfoRow> blocks = StoredTable.of(BlockInfoRow.TABLE);
    StoredTable<ReplicaRow> replicas = StoredTable.of(ReplicaRow.TABLE);
    Column storageColumn = ReplicaRow.TABLE.column("storage_id");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    List<byte[]> keys = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      keys.add(lookups.rowKey(BlockLookupRow.TABLE.key(from + i)));
    }
    List<byte[]> values = multiGet(store, keys, readBatch);
    long[] inodes = new long[count];
    for (int i = 0; i < count; i++) {
      inodes[i] = lookups.codec.decode(values.get(i)).inodeId();
    }
    long looked = System.nanoTime();
    keys.clear();
    for (int i = 0; i < count; i++) {
      keys.add(blocks.rowKey(BlockInfoRow.TABLE.key(inodes[i], from + i)));
    }
    List<byte[]> blockValues = multiGet(store, keys, readBatch);
    long stamps = 0;
    for (int i = 0; i < count; i++) {
      stamps += blocks.codec.decode(blockValues.get(i)).generationStamp();
    }
    long read = System.nanoTime();
    if (stamps != 1001L * count) {
      throw new IllegalStateException("the floor read other blocks than the bench made");
    }
    try (WriteBatch batch = new WriteBatch();
        WriteOptions options = new WriteOptions().setSync(false)) {
      for (int i = 0; i < count; i++) {
        ReplicaRow row = new ReplicaRow(inodes[i], from + i, storageId, 0);
        byte[] key = replicas.rowKey(row);
        batch.put(key, replicas.codec.encode(row));
        batch.put(replicas.layout.indexKey(storageColumn, storageId, key), key);
      }
      store.use(
          "floor",
          db -> {
            db.write(options, batch);
            return null;
          });
    }
    long written = System.nanoTime();
    return new Times(
        (looked - start) / 1e6,
        (read - looked) / 1e6,
        (written - read) / 1e6,
        (threads.getCurrentThreadCpuTime() - cpu) / 1e6);
  }

  /**
   * As {@link #measure}, the rows read in key order as the engine reads a big batch ({@link
   * PointReads#orderedGet}: the report sorted by block id, the lookup rows keyed by it, the block
   * rows by file and id) and the replica rows and index entries written as two sorted table files
   * ingested into the store (no memtable, no log).
   */
  public static Times measureBulk(Storage storage, long from, int count, int storageId)
      throws Exception {
    RocksStore store = ((EmbeddedStorage) storage).store();
    StoredTable<BlockLookupRow> lookups = StoredTable.of(BlockLookupRow.TABLE);
    StoredTable<BlockInfoRow> blocks = StoredTable.of(BlockInfoRow.TABLE);
    StoredTable<ReplicaRow> replicas = StoredTable.of(ReplicaRow.TABLE);
    Column storageColumn = ReplicaRow.TABLE.column("storage_id");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    List<byte[]> keys = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      keys.add(lookups.rowKey(BlockLookupRow.TABLE.key(from + i)));
    }
    List<byte[]> values = store.use("floor", db -> PointReads.orderedGet(db, keys));
    long[] inodes = new long[count];
    for (int i = 0; i < count; i++) {
      inodes[i] = lookups.codec.decode(values.get(i)).inodeId();
    }
    long looked = System.nanoTime();
    keys.clear();
    for (int i = 0; i < count; i++) {
      keys.add(blocks.rowKey(BlockInfoRow.TABLE.key(inodes[i], from + i)));
    }
    List<byte[]> blockValues = store.use("floor", db -> PointReads.orderedGet(db, keys));
    long stamps = 0;
    for (int i = 0; i < count; i++) {
      stamps += blocks.codec.decode(blockValues.get(i)).generationStamp();
    }
    long read = System.nanoTime();
    if (stamps != 1001L * count) {
      throw new IllegalStateException("the floor read other blocks than the bench made");
    }
    byte[][] rowKeys = new byte[count][];
    byte[][] rowValues = new byte[count][];
    Integer[] order = new Integer[count];
    for (int i = 0; i < count; i++) {
      ReplicaRow row = new ReplicaRow(inodes[i], from + i, storageId, 0);
      rowKeys[i] = replicas.rowKey(row);
      rowValues[i] = replicas.codec.encode(row);
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(rowKeys[a], rowKeys[b]));
    String dir = store.use("floor", db -> db.getName()) + "/floor-load";
    if (!store.name().startsWith(OpenStores.MEM_PREFIX)) {
      java.nio.file.Files.createDirectories(java.nio.file.Path.of(dir));
    }
    String rowsFile = dir + "/rows-" + storageId + ".sst";
    String indexFile = dir + "/index-" + storageId + ".sst";
    store.use(
        "floor",
        db -> {
          try (EnvOptions env = new EnvOptions()) {
            try (SstFileWriter w = new SstFileWriter(env, store.options())) {
              w.open(rowsFile);
              for (int i : order) {
                w.put(rowKeys[i], rowValues[i]);
              }
              w.finish();
            }
            try (SstFileWriter w = new SstFileWriter(env, store.options())) {
              w.open(indexFile);
              for (int i : order) {
                w.put(replicas.layout.indexKey(storageColumn, storageId, rowKeys[i]), rowKeys[i]);
              }
              w.finish();
            }
          }
          try (IngestExternalFileOptions o =
              new IngestExternalFileOptions()
                  .setMoveFiles(true)
                  .setSnapshotConsistency(true)
                  .setAllowGlobalSeqNo(true)
                  .setAllowBlockingFlush(true)) {
            db.ingestExternalFile(List.of(rowsFile, indexFile), o);
          }
          return null;
        });
    long written = System.nanoTime();
    return new Times(
        (looked - start) / 1e6,
        (read - looked) / 1e6,
        (written - read) / 1e6,
        (threads.getCurrentThreadCpuTime() - cpu) / 1e6);
  }

  /**
   * Compacts the whole store: its rows read as a store that has settled since they were written.
   */
  public static void settle(Storage storage) throws Exception {
    ((EmbeddedStorage) storage)
        .store()
        .use(
            "floor",
            db -> {
              db.compactRange();
              return null;
            });
  }

  private static List<byte[]> multiGet(RocksStore store, List<byte[]> keys, int batch)
      throws Exception {
    List<byte[]> out = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i += batch) {
      List<byte[]> part = keys.subList(i, Math.min(keys.size(), i + batch));
      out.addAll(store.use("floor", db -> db.multiGetAsList(part)));
    }
    return out;
  }
}
