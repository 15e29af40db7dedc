package io.hops.dal.embedded;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;

/**
 * The bounds of a store's caches: the {@link RowCache}'s heap and entries, the {@link
 * PartitionCache}'s heap ({@code docs/configuration.md}, the embedded engine's keys).
 */
record CacheBounds(long rowBytes, int rowEntries, long partitionBytes) {
  /** A row cache and a partition cache of {@code bytes} each, with no cap on entries. */
  static CacheBounds of(long bytes) {
    return new CacheBounds(bytes, Integer.MAX_VALUE, bytes);
  }

  /** The bounds {@code config} sets, with the defaults of {@link HopsConfig}. */
  static CacheBounds of(DalConfig config) {
    String entriesSet = config.get(HopsConfig.EMBEDDED_ROW_CACHE_ENTRIES, null);
    int entries = entriesSet == null ? Integer.MAX_VALUE : Integer.parseInt(entriesSet.trim());
    long rowBytes =
        config.getLong(
            HopsConfig.EMBEDDED_ROW_CACHE_BYTES, HopsConfig.embeddedCacheBytesDefault(2));
    long partitionDefault = HopsConfig.embeddedCacheBytesDefault(3);
    if (entriesSet != null) {
      partitionDefault =
          Math.min(partitionDefault, entries * HopsConfig.PARTITION_CACHE_BYTES_PER_ENTRY);
    }
    long partitionBytes =
        entries == 0
            ? 0
            : config.getLong(HopsConfig.EMBEDDED_PARTITION_CACHE_BYTES, partitionDefault);
    return new CacheBounds(rowBytes, entries, partitionBytes);
  }
}
