package io.hops.dal;

import java.util.Arrays;

/**
 * Counts of database accesses by kind and lock mode: one transaction's, or a storage's totals.
 * Immutable; {@link #toString()} reads like the design's cost table, e.g. {@code B + PK(EXCLUSIVE)
 * x2 + W}. Besides the accesses, the rows they read and wrote: an access's cost grows with its
 * rows, so a test that an operation does not grow with what it does not touch counts both. Equality
 * and the cost-table text compare the accesses only.
 */
public final class AccessCounts {
  private static final LockMode[] LOCK_MODES = LockMode.values();
  private static final int MODES = LOCK_MODES.length;
  public static final AccessCounts NONE =
      new AccessCounts(new long[AccessKind.values().length * MODES], 0, 0, new long[3]);

  private final long[] counts;
  private final long rowsRead;
  private final long rowsWritten;

  /** Keys read, put and deleted in a key-value engine's store ({@link AccessCounter#countKeys}). */
  private final long[] keys;

  AccessCounts(long[] counts, long rowsRead, long rowsWritten, long[] keys) {
    this.counts = counts;
    this.rowsRead = rowsRead;
    this.rowsWritten = rowsWritten;
    this.keys = keys;
  }

  /** Keys a key-value engine read by point lookups that reached its store (not its row cache). */
  public long keysRead() {
    return keys[0];
  }

  /** Keys (rows and index entries) a key-value engine's commits put. */
  public long keysPut() {
    return keys[1];
  }

  /** Keys (rows and index entries) a key-value engine's commits deleted. */
  public long keysDeleted() {
    return keys[2];
  }

  /** The key counts as text, e.g. {@code put 4, deleted 1, read 2}. */
  public String keys() {
    return "put " + keysPut() + ", deleted " + keysDeleted() + ", read " + keysRead();
  }

  /** Rows returned by the reads (a missing row of a key read counts none). */
  public long rowsRead() {
    return rowsRead;
  }

  /** Rows inserted, updated or deleted by the write batches. */
  public long rowsWritten() {
    return rowsWritten;
  }

  static int slot(AccessKind kind, LockMode mode) {
    return kind.ordinal() * MODES + mode.ordinal();
  }

  /** Accesses of this kind, whatever their lock mode. */
  public long get(AccessKind kind) {
    long sum = 0;
    for (LockMode m : LOCK_MODES) {
      sum += counts[slot(kind, m)];
    }
    return sum;
  }

  /** Accesses of this kind at this lock mode (write batches count as {@code EXCLUSIVE}). */
  public long get(AccessKind kind, LockMode mode) {
    return counts[slot(kind, mode)];
  }

  /** All accesses of every kind. */
  public long total() {
    long sum = 0; // once per operation: a loop, not a stream
    for (long c : counts) {
      sum += c;
    }
    return sum;
  }

  /** What happened between {@code earlier} and this snapshot. */
  public AccessCounts minus(AccessCounts earlier) {
    long[] d = new long[counts.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = counts[i] - earlier.counts[i];
    }
    long[] k = new long[keys.length];
    for (int i = 0; i < k.length; i++) {
      k[i] = keys[i] - earlier.keys[i];
    }
    return new AccessCounts(d, rowsRead - earlier.rowsRead, rowsWritten - earlier.rowsWritten, k);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AccessCounts a && Arrays.equals(a.counts, counts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(counts);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (AccessKind k : AccessKind.values()) {
      for (LockMode m : LockMode.values()) {
        long n = counts[slot(k, m)];
        if (n == 0) {
          continue;
        }
        if (out.length() > 0) {
          out.append(" + ");
        }
        out.append(k.label());
        if (k != AccessKind.WRITE_BATCH && m != LockMode.READ_COMMITTED) {
          out.append('(').append(m).append(')');
        }
        if (n > 1) {
          out.append(" x").append(n);
        }
      }
    }
    return out.length() == 0 ? "none" : out.toString();
  }
}
