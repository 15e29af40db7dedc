package io.hops.dal.embedded;

import io.hops.dal.AccessCounter;
import io.hops.dal.AccessCounts;
import io.hops.dal.IdAllocator;
import io.hops.dal.IdRange;
import io.hops.dal.SchemaAdmin;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import java.util.concurrent.atomic.AtomicBoolean;

/** One namenode's handle on a shared {@link RocksStore}. */
final class EmbeddedStorage implements Storage {
  private final RocksStore store;
  private final RowReader reader;
  private final AccessCounter totals = new AccessCounter();
  private final EmbeddedSchemaAdmin schema;
  private final AtomicBoolean closed = new AtomicBoolean();

  EmbeddedStorage(RocksStore store) {
    this.store = store;
    this.reader = new RowReader(store);
    this.schema = new EmbeddedSchemaAdmin(store, reader);
  }

  @Override
  public String engine() {
    return "embedded";
  }

  @Override
  public Transaction begin(Object partitionHint) throws StorageException {
    if (closed.get()) {
      throw new StorageException("the embedded storage is closed");
    }
    return new EmbeddedTransaction(this);
  }

  @Override
  public IdRange allocateIds(String counter, int count) throws StorageException {
    return IdAllocator.allocate(this, counter, count);
  }

  @Override
  public java.util.concurrent.CompletionStage<Void> durable() throws StorageException {
    return store.writes().durable();
  }

  @Override
  public java.util.Map<String, Long> engineCounters() {
    java.util.Map<String, Long> counters = new java.util.LinkedHashMap<>();
    counters.put("RowCacheHits", store.rows().stats().hits());
    counters.put("RowCacheMisses", store.rows().stats().misses());
    counters.put("PartitionCacheHits", store.partitions().stats().hits());
    counters.put("PartitionCacheMisses", store.partitions().stats().misses());
    WalSync sync = store.walSync();
    if (sync != null) {
      counters.put("LogSyncs", sync.syncs());
      counters.put("LogSyncedCommits", sync.syncedCommits());
      counters.put("LogSyncsDelayed", sync.delayedSyncs());
    }
    return counters;
  }

  @Override
  public java.util.Map<String, Long> engineGauges() {
    java.util.Map<String, Long> gauges = new java.util.LinkedHashMap<>();
    gauges.put("RowCacheBytes", store.rows().bytes());
    gauges.put("RowCacheEntries", (long) store.rows().entries());
    gauges.put("PartitionCacheBytes", store.partitions().bytes());
    gauges.put("PartitionCacheEntries", (long) store.partitions().entries());
    gauges.putAll(RocksOptions.memoryGauges());
    try {
      gauges.putAll(store.shape());
    } catch (StorageException closed) {
      // A closed store has no shape to show: its gauges are left out.
    }
    return gauges;
  }

  @Override
  public java.util.Optional<io.hops.dal.BulkLoad> bulkLoad() throws StorageException {
    return java.util.Optional.of(new EmbeddedBulkLoad(this));
  }

  @Override
  public SchemaAdmin schema() {
    return schema;
  }

  @Override
  public AccessCounts accessCounts() {
    return totals.snapshot();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      OpenStores.release(store);
    }
  }

  RocksStore store() {
    return store;
  }

  RowReader reader() {
    return reader;
  }

  AccessCounter totals() {
    return totals;
  }
}
