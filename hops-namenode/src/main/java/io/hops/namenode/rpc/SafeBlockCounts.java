package io.hops.namenode.rpc;

import java.util.Arrays;

/**
 * How many datanodes hold each block, as the starting leader last read them, and how many blocks
 * reach the minimum (HDFS's safe blocks, BlockManagerSafeMode.blockSafe): a cache of the database
 * for {@link StartupSafeMode}, kept up to date a datanode at a time from the difference between
 * what it held and what it holds. The block ids are one sorted array, their counts beside them; the
 * differences of a judgement are sorted and merged into it in one pass, which reads memory in order
 * (a hash table of a million blocks cost ten times as much, a cache miss per block).
 */
final class SafeBlockCounts {
  private final int min;
  private long[] ids = new long[0];
  private int[] counts = new int[0];
  private long safe;
  private long[] added = new long[0];
  private int addedSize;
  private long[] removed = new long[0];
  private int removedSize;

  /** Blocks are safe on at least {@code min} datanodes (at least one). */
  SafeBlockCounts(int min) {
    this.min = Math.max(1, min);
  }

  /** The blocks on at least the minimum number of datanodes. */
  long safe() {
    if (addedSize > 0 || removedSize > 0) {
      merge();
    }
    return safe;
  }

  /**
   * A datanode held {@code before} and holds {@code after} now (each sorted, without repeats; empty
   * for none).
   */
  void replace(long[] before, long[] after) {
    int i = 0;
    int j = 0;
    while (i < before.length || j < after.length) {
      if (j == after.length || (i < before.length && before[i] < after[j])) {
        removed = push(removed, removedSize++, before[i++]);
      } else if (i == before.length || after[j] < before[i]) {
        added = push(added, addedSize++, after[j++]);
      } else {
        i++;
        j++;
      }
    }
  }

  private static long[] push(long[] to, int at, long id) {
    long[] out = at < to.length ? to : Arrays.copyOf(to, Math.max(1024, 2 * to.length));
    out[at] = id;
    return out;
  }

  /** Merges the differences noted since the last merge into the counts, and counts the safe. */
  private void merge() {
    Arrays.sort(added, 0, addedSize);
    Arrays.sort(removed, 0, removedSize);
    long[] outIds = new long[ids.length + addedSize];
    int[] outCounts = new int[outIds.length];
    int n = 0;
    long safeNow = 0;
    int i = 0;
    int a = 0;
    int r = 0;
    while (i < ids.length || a < addedSize || r < removedSize) {
      long id = Long.MAX_VALUE;
      if (i < ids.length) {
        id = ids[i];
      }
      if (a < addedSize && added[a] < id) {
        id = added[a];
      }
      if (r < removedSize && removed[r] < id) {
        id = removed[r];
      }
      int count = 0;
      if (i < ids.length && ids[i] == id) {
        count = counts[i++];
      }
      while (a < addedSize && added[a] == id) {
        count++;
        a++;
      }
      while (r < removedSize && removed[r] == id) {
        count--;
        r++;
      }
      if (count > 0) {
        outIds[n] = id;
        outCounts[n++] = count;
        if (count >= min) {
          safeNow++;
        }
      }
    }
    ids = Arrays.copyOf(outIds, n);
    counts = Arrays.copyOf(outCounts, n);
    safe = safeNow;
    addedSize = 0;
    removedSize = 0;
    added = new long[0];
    removed = new long[0];
  }
}
