package io.hops.dal.embedded;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The row keys of a partition (its names), for a write's lookup of a key that is not there. Unlike
 * {@link KeptRows} they change in place: every commit that writes the partition adds the keys it
 * puts and removes those it deletes before it releases their locks, so a reader that holds a key's
 * lock finds it here exactly when the store has it. Adding a key twice or removing it twice changes
 * nothing, so the same names may sit in both generations and a commit apply to them twice.
 */
final class KeptNames {
  private final Set<KeyBytes> keys;

  KeptNames(List<byte[]> read) {
    keys = ConcurrentHashMap.newKeySet(read.size()); // sized once for what was read
    for (byte[] k : read) {
      keys.add(new KeyBytes(k));
    }
  }

  /** Whether the partition has a row of {@code rowKey}. */
  boolean holds(KeyBytes rowKey) {
    return keys.contains(rowKey);
  }

  int size() {
    return keys.size();
  }

  /**
   * Applies a commit's rows (a row, or {@link RowCache#ABSENT}, by row key); returns how many keys
   * it added.
   */
  int apply(Map<KeyBytes, Object> written) {
    int added = 0;
    for (Map.Entry<KeyBytes, Object> w : written.entrySet()) {
      // A look first: most keys a commit puts are there already (a row updated, or the same
      // names applied to in both generations), and a look takes no lock.
      KeyBytes key = w.getKey();
      if (w.getValue() == RowCache.ABSENT) {
        if (keys.contains(key)) {
          keys.remove(key);
        }
      } else if (!keys.contains(key) && keys.add(key)) {
        added++;
      }
    }
    return added;
  }

  /** The heap these names take: each a set's entry and a {@link KeyBytes}. */
  long bytes() {
    long bytes = 0;
    for (KeyBytes k : keys) {
      bytes += nameBytes(k.bytes().length);
    }
    return bytes;
  }

  /** The heap one name of {@code length} bytes takes in a set of names. */
  static long nameBytes(int length) {
    return HeapEstimate.MAP_ENTRY + HeapEstimate.key(length);
  }
}
