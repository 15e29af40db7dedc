package io.hops.dal.embedded;

import io.hops.dal.BulkLoad;
import io.hops.dal.Storage;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Column;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
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

  /** How a floor reads a batch of keys: values aligned with them, null where missing. */
  private interface Reads {
    List<byte[]> of(List<byte[]> keys) throws Exception;
  }

  /** How a floor writes the replica rows: of blocks {@code from} on, of files {@code inodes}. */
  private interface Writes {
    void of(long[] inodes, long from, int storageId) throws Exception;
  }

  /**
   * Reads the lookup and block rows of blocks {@code from} to {@code from + count - 1} of {@code
   * storage} (an embedded one, holding them), {@code readBatch} keys per {@code multiGet}, and
   * writes their replica rows on {@code storageId} in one write batch.
   */
  public static Times measure(Storage storage, long from, int count, int storageId, int readBatch)
      throws Exception {
    RocksStore store = ((EmbeddedStorage) storage).store();
    return measure(
        storage,
        from,
        count,
        storageId,
        keys -> multiGet(store, keys, readBatch),
        writeBatch(store));
  }

  /**
   * As {@link #measure(Storage, long, int, int, int)}, the rows read in key order as the engine
   * reads a big batch ({@link PointReads#orderedGet}: the report sorted by block id, the lookup
   * rows keyed by it, the block rows by file and id) and the replica rows and index entries written
   * by the engine's bulk load (sorted table files ingested into the store: no memtable, no log).
   */
  public static Times measureBulk(Storage storage, long from, int count, int storageId)
      throws Exception {
    RocksStore store = ((EmbeddedStorage) storage).store();
    Writes bulk =
        (inodes, first, on) -> {
          try (BulkLoad load = storage.bulkLoad().orElseThrow()) {
            for (int i = 0; i < inodes.length; i++) {
              load.insert(ReplicaRow.TABLE, new ReplicaRow(inodes[i], first + i, on, 0));
            }
            load.flush();
          }
        };
    return measure(
        storage,
        from,
        count,
        storageId,
        keys -> store.use("floor", db -> PointReads.orderedGet(db, keys)),
        bulk);
  }

  private static Times measure(
      Storage storage, long from, int count, int storageId, Reads reads, Writes writes)
      throws Exception {
    StoredTable<BlockLookupRow> lookups = StoredTable.of(BlockLookupRow.TABLE);
    StoredTable<BlockInfoRow> blocks = StoredTable.of(BlockInfoRow.TABLE);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    List<byte[]> keys = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      keys.add(lookups.rowKey(BlockLookupRow.TABLE.key(from + i)));
    }
    List<byte[]> values = reads.of(keys);
    long[] inodes = new long[count];
    for (int i = 0; i < count; i++) {
      inodes[i] = lookups.codec.decode(values.get(i)).inodeId();
    }
    long looked = System.nanoTime();
    keys.clear();
    for (int i = 0; i < count; i++) {
      keys.add(blocks.rowKey(BlockInfoRow.TABLE.key(inodes[i], from + i)));
    }
    List<byte[]> blockValues = reads.of(keys);
    long stamps = 0;
    for (int i = 0; i < count; i++) {
      stamps += blocks.codec.decode(blockValues.get(i)).generationStamp();
    }
    long read = System.nanoTime();
    if (stamps != 1001L * count) {
      throw new IllegalStateException("the floor read other blocks than the bench made");
    }
    writes.of(inodes, from, storageId);
    long written = System.nanoTime();
    return new Times(
        (looked - start) / 1e6,
        (read - looked) / 1e6,
        (written - read) / 1e6,
        (threads.getCurrentThreadCpuTime() - cpu) / 1e6);
  }

  /** The replica rows and their {@code storage_id} entries in one write batch, as a commit. */
  private static Writes writeBatch(RocksStore store) {
    StoredTable<ReplicaRow> replicas = StoredTable.of(ReplicaRow.TABLE);
    Column storageColumn = ReplicaRow.TABLE.column("storage_id");
    return (inodes, from, storageId) -> {
      try (WriteBatch batch = new WriteBatch();
          WriteOptions options = new WriteOptions().setSync(false)) {
        for (int i = 0; i < inodes.length; i++) {
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
    };
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
