package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded engine's caches stay under their bounds in bytes under a workload that fills them
 * many times over, and answer as a store with its caches off does (a differential check: the same
 * writes and reads on both, compared after each step). The estimate of a row's heap that the bounds
 * count in is checked against what the heap grows by.
 */
class CacheBoundsTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private static final int DIRS = 150;
  private static final int CHILDREN = 20;

  private final List<Storage> open = new ArrayList<>();

  @AfterEach
  void close() {
    open.forEach(Storage::close);
  }

  @Test
  void rowCacheStaysUnderItsBoundAndAnswersAsTheStore() throws Exception {
    long bound = 64 << 10;
    Storage cached =
        open(
            DalConfig.embeddedInMemory("row-bound-" + UUID.randomUUID())
                .with(HopsConfig.EMBEDDED_ROW_CACHE_BYTES, bound)
                .with(HopsConfig.EMBEDDED_PARTITION_CACHE_BYTES, 0));
    Storage plain = uncached();
    RowCache rows = ((EmbeddedStorage) cached).store().rows();
    long most = workload(cached, plain, rows::bytes, false);
    assertThat(most).isPositive().isLessThanOrEqualTo(bound);
    // The workload read far more than the bound holds: it turned over, and it was used.
    assertThat(rows.stats().misses()).isGreaterThan(DIRS * CHILDREN / 2);
    assertThat(rows.stats().hits()).isPositive();
  }

  @Test
  void partitionCacheStaysUnderItsBoundAndAnswersAsTheStore() throws Exception {
    long bound = 256 << 10;
    Storage cached =
        open(
            DalConfig.embeddedInMemory("partition-bound-" + UUID.randomUUID())
                .with(HopsConfig.EMBEDDED_ROW_CACHE_BYTES, 16 << 10)
                .with(HopsConfig.EMBEDDED_PARTITION_CACHE_BYTES, bound));
    Storage plain = uncached();
    PartitionCache partitions = ((EmbeddedStorage) cached).store().partitions();
    long most = workload(cached, plain, partitions::bytes, true);
    // Each generation turns over once past half the bound: by at most the entry that carried it
    // there, here a directory of up to CHILDREN children.
    List<byte[]> keys = new ArrayList<>();
    List<InodeRow> rows = new ArrayList<>();
    for (int c = 0; c < CHILDREN; c++) {
      keys.add(new byte[48]);
      rows.add(child(0, c));
    }
    long entry = KeptRows.of(keys, rows).bytes() + 256;
    assertThat(most).isPositive().isLessThanOrEqualTo(bound + 2 * entry);
    assertThat(partitions.stats().hits()).isPositive();
    assertThat(partitions.stats().misses()).isGreaterThan(DIRS);
  }

  /**
   * A heap that grows by N decoded inode rows grows by about N times what {@link HeapEstimate} says
   * one takes (within 30%), so a bound in bytes is a bound on the heap.
   */
  @Test
  void aRowsEstimateIsWhatTheHeapGrowsBy() {
    int n = 50_000;
    Object[] held = new Object[n];
    long estimated = 0;
    long before = usedHeap();
    for (int i = 0; i < n; i++) {
      InodeRow row = child(i % DIRS, 1_000_000L + i);
      held[i] = row;
      estimated += HeapEstimate.row(row);
    }
    long grown = usedHeap() - before;
    assertThat(held).doesNotContainNull();
    assertThat((double) estimated).isBetween(grown * 0.7, grown * 1.3);
  }

  private static long usedHeap() {
    Runtime r = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return r.totalMemory() - r.freeMemory();
  }

  private Storage open(DalConfig config) throws Exception {
    Storage s = Storages.open(config);
    open.add(s);
    s.schema().createOrUpgrade();
    return s;
  }

  private Storage uncached() throws Exception {
    return open(
        DalConfig.embeddedInMemory("uncached-" + UUID.randomUUID())
            .with(HopsConfig.EMBEDDED_ROW_CACHE_ENTRIES, 0));
  }

  /**
   * Creates {@link #DIRS} directories of {@link #CHILDREN} children on both stores, then reads,
   * renames (a delete and an insert) and updates at random, comparing every answer; returns the
   * most the cache held, sampled after each step.
   */
  private static long workload(
      Storage cached, Storage plain, java.util.function.LongSupplier size, boolean scans)
      throws Exception {
    long most = 0;
    for (int d = 0; d < DIRS; d++) {
      int dir = d;
      both(
          cached,
          plain,
          tx -> {
            for (int c = 0; c < CHILDREN; c++) {
              tx.insert(T, child(dir, dir * 1000L + c));
            }
          });
    }
    Random random = new Random(59);
    for (int step = 0; step < 3_000; step++) {
      int dir = random.nextInt(DIRS);
      long id = dir * 1000L + random.nextInt(CHILDREN);
      switch (random.nextInt(4)) {
        case 0 -> {
          InodeRow moved = SampleRows.with(T, child(dir, id), "modification_time", (long) step);
          both(cached, plain, tx -> tx.update(T, moved));
        }
        case 1 -> {
          InodeRow row = child(dir, id);
          both(
              cached,
              plain,
              tx -> {
                if (tx.find(T, T.keyOf(row), LockMode.EXCLUSIVE) != null) {
                  tx.delete(T, T.keyOf(row));
                } else {
                  tx.insert(T, row);
                }
              });
        }
        default -> {
          InodeRow row = child(dir, id);
          assertThat(find(cached, row)).isEqualTo(find(plain, row));
          if (scans) {
            assertThat(scan(cached, dir)).isEqualTo(scan(plain, dir));
          }
        }
      }
      most = Math.max(most, size.getAsLong());
    }
    for (int dir = 0; dir < DIRS; dir++) {
      assertThat(scan(cached, dir)).isEqualTo(scan(plain, dir));
    }
    return most;
  }

  /** Child {@code id} of directory {@code dir}, with a name of about HDFS's usual length. */
  private static InodeRow child(long dir, long id) {
    InodeRow row = SampleRows.typical(T, id);
    row = SampleRows.inPartition(T, row, dir);
    row = SampleRows.with(T, row, "parent_id", dir);
    row = SampleRows.with(T, row, "id", id);
    return SampleRows.with(
        T, row, "name", "part-" + String.format("%05d", id) + "-of-a-job.parquet");
  }

  @FunctionalInterface
  private interface Writes {
    void apply(Transaction tx) throws Exception;
  }

  private static void both(Storage a, Storage b, Writes writes) throws Exception {
    for (Storage s : List.of(a, b)) {
      try (Transaction tx = s.begin()) {
        writes.apply(tx);
        tx.commit();
      }
    }
  }

  private static InodeRow find(Storage s, InodeRow row) throws Exception {
    try (Transaction tx = s.begin()) {
      return tx.find(T, T.keyOf(row), LockMode.READ_COMMITTED);
    }
  }

  private static List<InodeRow> scan(Storage s, long dir) throws Exception {
    try (Transaction tx = s.begin()) {
      return tx.findByPartition(T, dir, LockMode.READ_COMMITTED);
    }
  }
}
