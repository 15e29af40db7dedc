package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * For a write that missed its row in both caches: reads the row's whole partition, or the
 * partition's names if it is too large for that ({@link PartitionCache#fillOnWrite}), and keeps
 * what it read, so that the next writes into the partition, a directory's new names above all, are
 * answered from memory.
 */
final class FillOnWrite {
  private final RocksStore store;
  private final RowReader.KeyReads keyReads;
  private final PartitionScans scans;
  private final PrefixReads prefixes;

  FillOnWrite(
      RocksStore store, RowReader.KeyReads keyReads, PartitionScans scans, PrefixReads prefixes) {
    this.store = store;
    this.keyReads = keyReads;
    this.scans = scans;
    this.prefixes = prefixes;
  }

  /**
   * The row of {@code rowKey} (or {@link RowCache#ABSENT}) from what the fill read, or null if it
   * is to be looked up: the partition is not to be read now, another write is reading it, its rows
   * were too many and the key lies beyond those read, or the key is among its names. The caller
   * holds the row's lock, so what the read found of it is the row, even if a commit to the
   * partition (to other rows) keeps the read from filling.
   */
  Object fill(StoredTable<?> t, KeyBytes partition, KeyBytes rowKey) throws StorageException {
    PartitionCache cache = store.partitions();
    if (t.partitionMarks || cache.names(partition) != null) {
      return null; // the names hold the key: it is there
    }
    Generation g = cache.current(); // before the store is read
    return switch (cache.fillOnWrite(g, partition)) {
      case NOTHING -> null;
      case ROWS -> rows(t, cache, g, partition, rowKey);
      case NAMES -> names(t, cache, g, partition, rowKey);
    };
  }

  private Object rows(
      StoredTable<?> t, PartitionCache cache, Generation g, KeyBytes partition, KeyBytes rowKey)
      throws StorageException {
    PartitionClaim claim = cache.claim(g, partition);
    if (claim == null) {
      return null;
    }
    int limit = PartitionCache.MAX_ROWS_FILLED_ON_WRITE + 1;
    List<byte[]> keys = new ArrayList<>();
    List<? extends Record> rows = null;
    boolean whole = false;
    try {
      rows = scans.fromStore(t, partition.bytes(), null, limit, keys);
      whole = rows.size() < limit;
    } finally {
      cache.fill(claim, keys, whole ? rows : null);
    }
    keyReads.read(keys.size());
    if (!whole) {
      cache.tooLargeToFillOnWrite(g, partition);
    }
    byte[] key = rowKey.bytes();
    int i = Collections.binarySearch(keys, key, Arrays::compareUnsigned);
    if (i >= 0) {
      return rows.get(i);
    }
    return whole || -i - 1 < keys.size() ? RowCache.ABSENT : null;
  }

  private Object names(
      StoredTable<?> t, PartitionCache cache, Generation g, KeyBytes partition, KeyBytes rowKey)
      throws StorageException {
    NamesClaim claim = cache.claimNames(g, partition);
    if (claim == null) {
      return null;
    }
    List<byte[]> keys = null;
    try {
      keys = prefixes.keys(t, partition.bytes(), PartitionCache.MAX_NAMES + 1);
    } finally {
      cache.fillNames(claim, keys);
    }
    keyReads.read(keys.size());
    int i = Collections.binarySearch(keys, rowKey.bytes(), Arrays::compareUnsigned);
    return i >= 0 || keys.size() > PartitionCache.MAX_NAMES ? null : RowCache.ABSENT;
  }
}
