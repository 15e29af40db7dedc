package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The greatest key each table's rows and each unique index of a store have ever had, so that a key
 * above it (a row or an entry keyed by a newly allocated id, say) is known to be absent without a
 * read. A mark only rises while the store is open: a deleted key leaves it where it was, which is
 * safe (a key at or below the mark is read, as before).
 *
 * <p>Why a skipped read stays exact: a transaction inserts a row under its key's exclusive lock,
 * and claims a unique value under the value's ({@link UniqueValue}), and raises the mark after its
 * write is in the store and before it releases that lock, so a later insert or claim of the same
 * key finds the mark at or above it and reads. A mark is learnt from the store (the space's last
 * key) under its monitor, which every raise also takes, so no commit can fall between the two.
 * After a write whose outcome is unknown every mark is forgotten and learnt again.
 */
final class HighWaters {
  /** One space's mark; {@code known} false until learnt from the store. */
  private static final class Mark {
    private boolean known;
    private byte[] highest;
  }

  private final Map<KeyBytes, Mark> marks = new ConcurrentHashMap<>();

  /**
   * Whether the store has never held {@code key}, which starts with {@code space}: a table's row
   * prefix or a unique index's ({@link KeyLayout#indexColumnPrefix}).
   */
  boolean neverHeld(RowReader reader, KeyBytes space, byte[] key) throws StorageException {
    Mark m = marks.computeIfAbsent(space, c -> new Mark());
    synchronized (m) {
      if (!m.known) {
        m.highest = reader.lastKeyWithPrefix(space.bytes());
        m.known = true;
      }
      return m.highest == null || Arrays.compareUnsigned(key, m.highest) > 0;
    }
  }

  /** A committed batch put {@code key} in {@code space}. */
  void raise(KeyBytes space, byte[] key) {
    Mark m = marks.get(space);
    if (m == null) {
      return; // not learnt yet: learning it will find the key in the store
    }
    synchronized (m) {
      if (m.known && (m.highest == null || Arrays.compareUnsigned(key, m.highest) > 0)) {
        m.highest = key;
      }
    }
  }

  /** Forgets every mark, after a write that may or may not be in the store. */
  void forget() {
    for (Mark m : marks.values()) {
      synchronized (m) {
        m.known = false;
        m.highest = null;
      }
    }
  }
}
