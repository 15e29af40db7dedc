package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongFunction;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * Reads of the raw entries under a key prefix, nothing decoded and nothing cached: a table's row
 * count and bytes, an index's values, a prefix's last key (the {@link HighWaters} learn theirs so),
 * whether any key is there. Each reads one consistent state of the store (an iterator reads at the
 * sequence number it was created at).
 */
final class PrefixReads {
  private final RocksStore store;

  PrefixReads(RocksStore store) {
    this.store = store;
  }

  /** How many rows the table holds: its keys counted, no row decoded or kept. */
  long count(StoredTable<?> t) throws StorageException {
    return sumWithPrefix("count of " + t.table, t.layout.rowPrefix(), value -> 1);
  }

  /** The values of the entries whose keys start with {@code prefix}, in key order. */
  List<byte[]> valuesWithPrefix(byte[] prefix) throws StorageException {
    return store.use(
        "index scan",
        db -> {
          List<byte[]> values = new ArrayList<>();
          try (ReadOptions options = new ReadOptions()) {
            forEachWithPrefix(db, prefix, options, (k, v) -> values.add(v));
          }
          return values;
        });
  }

  /**
   * The 8-byte big-endian values at {@code offset} of the keys that start with {@code prefix}, each
   * read as {@link OrderedBytes} encodes a {@code BIGINT}: an index scan that wants one fixed-width
   * column of each entry's primary key, copying each key into one reused array instead of a new one
   * per entry.
   */
  long[] longsInKeysWithPrefix(byte[] prefix, int offset) throws StorageException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    return store.use(
        "index scan",
        db -> {
          long[] out = new long[64];
          int n = 0;
          byte[] key = new byte[offset + 64];
          try (ReadOptions options = new ReadOptions();
              Slice upper = end == null ? null : new Slice(end)) {
            if (upper != null) {
              options.setIterateUpperBound(upper);
            }
            try (RocksIterator it = db.newIterator(options)) {
              for (it.seek(prefix); it.isValid(); it.next()) {
                int length = it.key(key);
                if (length > key.length) {
                  key = new byte[length];
                  it.key(key);
                }
                if (n == out.length) {
                  out = Arrays.copyOf(out, n * 2);
                }
                out[n++] = OrderedBytes.readBigint(key, offset);
              }
              it.status();
            }
          }
          return Arrays.copyOf(out, n);
        });
  }

  /** The total length of the values of the entries whose keys start with {@code prefix}. */
  long valueBytesWithPrefix(byte[] prefix) throws StorageException {
    return sumWithPrefix("full table scan", prefix, value -> value.length);
  }

  /**
   * The sum of {@code weight} over the values of the entries whose keys start with {@code prefix}.
   */
  private long sumWithPrefix(String what, byte[] prefix, ToLongFunction<byte[]> weight)
      throws StorageException {
    return store.use(
        what,
        db -> {
          long[] total = {0};
          try (ReadOptions options = new ReadOptions()) {
            forEachWithPrefix(
                db,
                prefix,
                options,
                (k, v) -> {
                  total[0] += weight.applyAsLong(v);
                  return true;
                });
          }
          return total[0];
        });
  }

  /** At most {@code limit} keys that start with {@code prefix}, in key order; no value copied. */
  List<byte[]> keys(StoredTable<?> t, byte[] prefix, int limit) throws StorageException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    return store.use(
        "keys of " + t.table,
        db -> {
          List<byte[]> keys = new ArrayList<>();
          try (ReadOptions options = new ReadOptions();
              Slice upper = end == null ? null : new Slice(end)) {
            if (upper != null) {
              options.setIterateUpperBound(upper);
            }
            try (RocksIterator it = db.newIterator(options)) {
              for (it.seek(prefix); it.isValid() && keys.size() < limit; it.next()) {
                keys.add(it.key());
              }
              it.status();
            }
          }
          return keys;
        });
  }

  /** The greatest key that starts with {@code prefix}, or null: one seek backwards. */
  byte[] lastKeyWithPrefix(byte[] prefix) throws StorageException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    return store.use(
        "last key",
        db -> {
          try (ReadOptions options = new ReadOptions();
              RocksIterator it = db.newIterator(options)) {
            if (end == null) {
              it.seekToLast();
            } else {
              it.seekForPrev(end);
              if (it.isValid() && Arrays.equals(it.key(), end)) {
                it.prev();
              }
            }
            byte[] key = it.isValid() ? it.key() : null;
            it.status();
            return key != null
                    && key.length >= prefix.length
                    && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)
                ? key
                : null;
          }
        });
  }

  /** Whether any key starts with {@code prefix}. */
  boolean any(byte[] prefix) throws StorageException {
    return store.use(
        "scan",
        db -> {
          boolean[] found = {false};
          try (ReadOptions options = new ReadOptions()) {
            forEachWithPrefix(
                db,
                prefix,
                options,
                (k, v) -> {
                  found[0] = true;
                  return false;
                });
          }
          return found[0];
        });
  }

  /** Visits each entry whose key starts with {@code prefix}, in key order, while it says so. */
  static void forEachWithPrefix(
      RocksDB db, byte[] prefix, ReadOptions options, EntryVisitor visitor)
      throws RocksDBException {
    forEachWithPrefix(db, prefix, prefix, false, options, visitor);
  }

  /**
   * As above, from the first key at or after {@code start} (which starts with the prefix); the
   * visitor gets each key only if {@code keys} (else null): copying a key out of RocksDB is a JNI
   * call and an array per entry, and most scans only want the values.
   */
  static void forEachWithPrefix(
      RocksDB db,
      byte[] prefix,
      byte[] start,
      boolean keys,
      ReadOptions options,
      EntryVisitor visitor)
      throws RocksDBException {
    byte[] end = OrderedBytes.prefixEnd(prefix);
    try (Slice upper = end == null ? null : new Slice(end)) {
      if (upper != null) {
        // Stops the iterator at the prefix's end instead of stepping over what lies beyond it
        // (deleted entries included).
        options.setIterateUpperBound(upper);
      }
      try (RocksIterator it = db.newIterator(options)) {
        for (it.seek(start); it.isValid(); it.next()) {
          if (!visitor.visit(keys ? it.key() : null, it.value())) {
            break;
          }
        }
        it.status();
      }
    }
  }

  @FunctionalInterface
  interface EntryVisitor {
    /** Returns whether to go on; {@code key} is null unless keys were asked for. */
    boolean visit(byte[] key, byte[] value);
  }
}
