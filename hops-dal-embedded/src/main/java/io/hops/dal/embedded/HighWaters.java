package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The greatest key each table's rows and each unique index of a store have ever had, so that a key
 * above it (a row or an entry keyed by a newly allocated id, say) is known to be absent without a
 * read, and so is every key of a prefix above it (a partition of a table that never held a row of
 * it, such as the corrupt replicas of every file while none was ever reported). A mark only rises
 * while the store is open: a deleted key leaves it where it was, which is safe (a key at or below
 * the mark is read, as before).
 *
 * <p>Why a skipped read stays exact: a commit raises the marks of the keys it puts <em>before</em>
 * its write reaches the store, so a mark is at or above every key the store holds or is about to
 * hold. A reader that finds a key above the mark reads a state before that key's commit, which it
 * may (a read committed read that ran first), and one that saw the key once, in any read, finds the
 * mark at or above it afterwards. A transaction inserts a row under its key's exclusive lock, and
 * claims a unique value under the value's ({@link UniqueValue}), so a later insert or claim of the
 * same key finds the mark at or above it and reads. A mark not yet learnt keeps what was raised
 * meanwhile, and learning it (from the space's last key in the store, under its monitor, which
 * every raise also takes) keeps the greater of the two; a write whose outcome is unknown was raised
 * before it ran, so the marks stay upper bounds and are only learnt again.
 *
 * <p>A table whose new keys come last in their partition ({@link io.hops.dal.schema.AscendingKeys})
 * also has a mark per partition, under the same rules: the retry cache's lookup of a client's next
 * call id, a key that is never there, then costs no read. Keys do not arrive in order, though: a
 * client's concurrent calls reach the store a few ids apart. So a partition's mark also remembers
 * which of the {@link #WINDOW} keys just below it were raised ({@link Mark#held}), and a key there
 * that was not is known to be absent too.
 */
final class HighWaters {
  /** Partition marks kept before the settled ones are dropped (about 100 bytes each). */
  static final int PARTITION_MARKS = 1 << 16;

  /** One space's mark; {@code known} false until learnt from the store. */
  private static final class Mark {
    private boolean known;
    private byte[] highest;

    /** Raises whose batch is still being written (partition marks only). */
    private int inFlight;

    /** Dropped from the map: a raise that finds it so takes a fresh mark. */
    private boolean dropped;

    /**
     * Partition marks only: bit {@code i} is set unless the key {@code i} below {@code highest}
     * (see {@link #below}) is known never to have been held. Learning the mark from the store sets
     * every bit, as nothing is known of the keys below the store's last.
     */
    private long held = -1L;
  }

  /** How many keys at and below a partition's mark it remembers one by one. */
  static final int WINDOW = Long.SIZE;

  private final Map<KeyBytes, Mark> marks = new ConcurrentHashMap<>();

  /**
   * The marks of the partitions of {@link io.hops.dal.schema.AscendingKeys} tables, by partition
   * prefix: the retry cache's, one per client. Unlike a table's, these are many, so when they
   * outgrow {@link #capacity} the settled ones are dropped and learnt again when next needed. A
   * mark with a raise in flight is kept: learnt again while its batch is not yet in the store, it
   * would fall below a key that is about to be there.
   */
  private final Map<KeyBytes, Mark> partitionMarks = new ConcurrentHashMap<>();

  private final int capacity;

  HighWaters() {
    this(PARTITION_MARKS);
  }

  HighWaters(int partitionCapacity) {
    this.capacity = partitionCapacity;
  }

  /**
   * Whether the store has never held {@code key}, which starts with {@code space}: a table's row
   * prefix or a unique index's ({@link KeyLayout#indexColumnPrefix}).
   */
  boolean neverHeld(PrefixReads reader, KeyBytes space, byte[] key) throws StorageException {
    Mark m = marks.computeIfAbsent(space, c -> new Mark());
    synchronized (m) {
      if (!m.known) {
        m.highest = greater(reader.lastKeyWithPrefix(space.bytes()), m.highest);
        m.known = true;
      }
      return m.highest == null || Arrays.compareUnsigned(key, m.highest) > 0;
    }
  }

  /** A batch about to be written puts {@code key} in {@code space}: before it is in the store. */
  void raise(KeyBytes space, byte[] key) {
    Mark m = marks.computeIfAbsent(space, c -> new Mark());
    synchronized (m) {
      m.highest = greater(m.highest, key);
    }
  }

  private static byte[] greater(byte[] a, byte[] b) {
    if (a == null) {
      return b;
    }
    return b == null || Arrays.compareUnsigned(a, b) >= 0 ? a : b;
  }

  /**
   * Learns every mark again, after a write that may or may not be in the store (its keys were
   * raised before it ran: what a mark holds stays an upper bound).
   */
  void forget() {
    for (Mark m : marks.values()) {
      synchronized (m) {
        m.known = false;
      }
    }
    for (Mark m : partitionMarks.values()) {
      synchronized (m) {
        m.known = false;
      }
    }
  }

  /**
   * Whether the store has never held {@code key}, which starts with {@code partition}, the row-key
   * prefix of one partition of an {@link io.hops.dal.schema.AscendingKeys} table.
   */
  boolean partitionNeverHeld(PrefixReads reader, KeyBytes partition, byte[] key)
      throws StorageException {
    while (true) {
      Mark m = partitionMark(partition);
      synchronized (m) {
        if (m.dropped) {
          continue;
        }
        if (!m.known) {
          learn(m, reader.lastKeyWithPrefix(partition.bytes()));
        }
        if (m.highest == null || Arrays.compareUnsigned(key, m.highest) > 0) {
          return true;
        }
        long d = below(m.highest, key);
        return d >= 0 && d < WINDOW && (m.held >>> d & 1) == 0;
      }
    }
  }

  /**
   * Learns partition mark {@code m} from {@code last}, its partition's last key in the store (null:
   * none). Keys raised since the mark was made and still above {@code last} stay known, and so do
   * the keys between them that were not raised: every key written is raised first, and the store
   * held none above {@code last}.
   */
  private static void learn(Mark m, byte[] last) {
    if (last != null) {
      if (m.highest == null || Arrays.compareUnsigned(last, m.highest) > 0) {
        m.highest = last;
        m.held = -1L;
      } else {
        long d = below(m.highest, last);
        m.held |= d < 0 ? -1L : d < WINDOW ? -1L << d : 0L;
      }
    }
    m.known = true;
  }

  /**
   * How many keys {@code key} is below {@code highest} (one length, equal but in their last eight
   * bytes, read as an unsigned number), or -1 if they differ before those bytes or in length, or
   * {@code key} is above it.
   */
  static long below(byte[] highest, byte[] key) {
    int n = highest.length;
    if (key.length != n) {
      return -1;
    }
    int from = Math.max(0, n - Long.BYTES);
    if (!Arrays.equals(highest, 0, from, key, 0, from)) {
      return -1;
    }
    long h = 0;
    long k = 0;
    for (int i = from; i < n; i++) {
      h = h << 8 | (highest[i] & 0xff);
      k = k << 8 | (key[i] & 0xff);
    }
    return Long.compareUnsigned(h, k) < 0 ? -1 : h - k;
  }

  /**
   * A batch about to be written puts {@code key} in {@code partition}; {@link #settlePartition}
   * follows once the write has returned or failed.
   */
  void raisePartition(KeyBytes partition, byte[] key) {
    while (true) {
      Mark m = partitionMark(partition);
      synchronized (m) {
        if (m.dropped) {
          continue;
        }
        if (m.highest == null) {
          m.held = 1L;
        } else if (Arrays.compareUnsigned(key, m.highest) > 0) {
          // The keys between the old mark and this one were never held. A mark of another length
          // or other leading bytes tells nothing of the keys just below this one.
          long d = below(key, m.highest);
          m.held = d < 0 ? -1L : d < WINDOW ? m.held << d | 1L : 1L;
        } else {
          long d = below(m.highest, key);
          if (d >= 0 && d < WINDOW) {
            m.held |= 1L << d;
          }
        }
        m.highest = greater(m.highest, key);
        m.inFlight++;
        return;
      }
    }
  }

  /** The write of a batch that raised {@code partition}'s mark has returned or failed. */
  void settlePartition(KeyBytes partition) {
    Mark m = partitionMarks.get(partition); // not dropped while in flight
    synchronized (m) {
      m.inFlight--;
    }
  }

  /** How many partition marks are kept now. */
  int partitionMarks() {
    return partitionMarks.size();
  }

  private Mark partitionMark(KeyBytes partition) {
    Mark m = partitionMarks.get(partition);
    if (m != null) {
      return m;
    }
    if (partitionMarks.size() >= capacity) {
      dropSettled();
    }
    return partitionMarks.computeIfAbsent(partition, c -> new Mark());
  }

  /** Drops every partition mark without a raise in flight. */
  private void dropSettled() {
    for (Map.Entry<KeyBytes, Mark> e : partitionMarks.entrySet()) {
      Mark m = e.getValue();
      synchronized (m) {
        if (m.inFlight == 0 && !m.dropped) {
          m.dropped = true;
          partitionMarks.remove(e.getKey(), m);
        }
      }
    }
  }
}
