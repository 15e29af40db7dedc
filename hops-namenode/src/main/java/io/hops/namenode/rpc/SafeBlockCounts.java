package io.hops.namenode.rpc;

/**
 * How many datanodes hold each block, as the starting leader last read them, and how many blocks
 * reach the minimum (HDFS's safe blocks, BlockManagerSafeMode.blockSafe): a cache of the database
 * for {@link StartupSafeMode}, kept up to date a datanode at a time from the difference between
 * what it held and what it holds. An open-addressing table of block ids, counts beside them (a
 * block that drops to no datanode keeps its slot, with 0).
 */
final class SafeBlockCounts {
  private final int min;
  private long[] ids = new long[1 << 10];
  private int[] counts = new int[1 << 10]; // 0: a free slot; else the count plus one
  private int used;
  private long safe;

  /** Blocks are safe on at least {@code min} datanodes (at least one). */
  SafeBlockCounts(int min) {
    this.min = Math.max(1, min);
  }

  /**
   * Makes room for {@code blocks} blocks while it counts none yet, so that the first datanodes read
   * do not grow the table again and again.
   */
  void expect(long blocks) {
    if (used > 0) {
      return;
    }
    int size = ids.length;
    while (size < 2 * blocks && size < (1 << 30)) {
      size *= 2;
    }
    if (size > ids.length) {
      ids = new long[size];
      counts = new int[size];
    }
  }

  /** The blocks on at least the minimum number of datanodes. */
  long safe() {
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
        if (add(before[i++], -1) == min - 1) {
          safe--;
        }
      } else if (i == before.length || after[j] < before[i]) {
        if (add(after[j++], 1) == min) {
          safe++;
        }
      } else {
        i++;
        j++;
      }
    }
  }

  /** Adds {@code delta} to the block's count; answers the new count. */
  private int add(long id, int delta) {
    if (2 * (used + 1) > ids.length) {
      grow();
    }
    int mask = ids.length - 1;
    int at = slot(id, mask);
    while (counts[at] != 0 && ids[at] != id) {
      at = (at + 1) & mask;
    }
    if (counts[at] == 0) {
      ids[at] = id;
      counts[at] = 1;
      used++;
    }
    counts[at] += delta;
    return counts[at] - 1;
  }

  private void grow() {
    long[] oldIds = ids;
    int[] oldCounts = counts;
    ids = new long[oldIds.length * 2];
    counts = new int[oldIds.length * 2];
    int mask = ids.length - 1;
    for (int k = 0; k < oldIds.length; k++) {
      if (oldCounts[k] != 0) {
        int at = slot(oldIds[k], mask);
        while (counts[at] != 0) {
          at = (at + 1) & mask;
        }
        ids[at] = oldIds[k];
        counts[at] = oldCounts[k];
      }
    }
  }

  private static int slot(long id, int mask) {
    long h = id * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
