package io.hops.dal.embedded;

import io.hops.common.HopsConfig;
import io.hops.dal.StorageException;
import io.hops.dal.TableFullException;
import java.util.HashMap;
import java.util.Map;

/**
 * The configured capacity of tables of one store ({@link
 * HopsConfig#EMBEDDED_TABLE_MAX_BYTES_PREFIX}): RocksDB has no table size limit of its own, so this
 * is the embedded engine's counterpart of a MEMORY table's {@code max_heap_table_size}. A table's
 * use is the length of its encoded rows, measured by one scan the first time a commit writes to it,
 * then kept up to date by every commit of this process (the only one that may open the store). A
 * commit that would grow a table past its capacity fails with {@link TableFullException}; one that
 * shrinks it always passes.
 */
final class TableCapacities {
  private volatile Map<String, Long> max = Map.of();
  private final Map<String, Long> used = new HashMap<>();

  /** Adds the capacities of {@code byTable} (bytes by table name); later settings win. */
  synchronized void configure(Map<String, String> byTable) {
    Map<String, Long> merged = new HashMap<>(max);
    byTable.forEach((table, bytes) -> merged.put(table, Long.parseLong(bytes.trim())));
    max = Map.copyOf(merged);
  }

  /** Whether {@code table} has a capacity (read by every write of a commit: no lock). */
  boolean limits(String table) {
    return max.containsKey(table);
  }

  /**
   * Takes room for a commit's growth (bytes by table) or refuses it whole; {@link #release} gives
   * it back if the commit then fails.
   */
  synchronized void reserve(Map<StoredTable<?>, Long> growth, PrefixReads reader)
      throws StorageException {
    for (Map.Entry<StoredTable<?>, Long> e : growth.entrySet()) {
      String table = e.getKey().table.name();
      long now = usedOf(e.getKey(), reader);
      long limit = max.get(table);
      if (e.getValue() > 0 && now + e.getValue() > limit) {
        throw new TableFullException(
            "The table '"
                + table
                + "' is full: "
                + now
                + " of "
                + limit
                + " bytes used, a commit needs "
                + e.getValue()
                + " more ("
                + HopsConfig.EMBEDDED_TABLE_MAX_BYTES_PREFIX
                + table
                + ")",
            null);
      }
    }
    growth.forEach((t, bytes) -> used.merge(t.table.name(), bytes, Long::sum));
  }

  synchronized void release(Map<StoredTable<?>, Long> growth) {
    growth.forEach((t, bytes) -> used.merge(t.table.name(), -bytes, Long::sum));
  }

  private long usedOf(StoredTable<?> t, PrefixReads reader) throws StorageException {
    Long now = used.get(t.table.name());
    if (now == null) {
      now = reader.valueBytesWithPrefix(t.layout.rowPrefix());
      used.put(t.table.name(), now);
    }
    return now;
  }
}
