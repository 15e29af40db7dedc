package io.hops.namenode.blocks;

import java.util.Arrays;
import java.util.Collection;

/**
 * Sets of block ids as sorted arrays without repeats, as a storage's replica index answers them:
 * the form startup safe mode keeps a datanode's blocks in, merged in one pass.
 */
public final class BlockIdSets {
  private BlockIdSets() {}

  /** The ids of {@code parts} (each in any order), sorted, without repeats. */
  public static long[] of(Collection<long[]> parts) {
    int size = 0;
    for (long[] p : parts) {
      size += p.length;
    }
    long[] all = new long[size];
    int at = 0;
    for (long[] p : parts) {
      System.arraycopy(p, 0, all, at, p.length);
      at += p.length;
    }
    Arrays.sort(all);
    int n = 0;
    for (long id : all) {
      if (n == 0 || id != all[n - 1]) {
        all[n++] = id;
      }
    }
    return n == all.length ? all : Arrays.copyOf(all, n);
  }

  /** The ids of two sets (sorted, without repeats), sorted, without repeats. */
  public static long[] union(long[] a, long[] b) {
    long[] out = new long[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      long next = j == b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
      out[n++] = next;
      while (i < a.length && a[i] == next) {
        i++;
      }
      while (j < b.length && b[j] == next) {
        j++;
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }
}
