package io.hops.bench.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When the operations of a measured window completed, over all threads of a session: the longest
 * stretch without a completed operation (what a client sees of a failover) and the completions of
 * each second (the throughput dip). Times are offsets from the window's start; the window's start
 * and end count as completions, so a stall at either edge is a gap too.
 */
final class CompletionClock {
  private final long startNanos;
  private final long endNanos;
  private final AtomicLong latest = new AtomicLong();
  private final AtomicLongArray perSecond;
  private long longestGap;
  private long longestGapAt;

  CompletionClock(long startNanos, long endNanos) {
    this.startNanos = startNanos;
    this.endNanos = endNanos;
    this.perSecond =
        new AtomicLongArray((int) Math.max(1, (endNanos - startNanos + 999_999_999) / 1e9));
  }

  /** An operation completed at {@code nanos} ({@link System#nanoTime()}). */
  void completed(long nanos) {
    long at = nanos - startNanos;
    if (at < 0 || nanos - endNanos > 0) {
      return;
    }
    perSecond.incrementAndGet((int) Math.min(perSecond.length() - 1, at / 1_000_000_000L));
    long before = latest.getAndAccumulate(at, Math::max);
    if (at - before > 0) {
      gap(before, at - before);
    }
  }

  private synchronized void gap(long from, long length) {
    if (length > longestGap) {
      longestGap = length;
      longestGapAt = from;
    }
  }

  /** The longest gap in milliseconds, the end of the window included. */
  synchronized long longestGapMillis() {
    long tail = (endNanos - startNanos) - latest.get();
    if (tail > longestGap) {
      longestGap = tail;
      longestGapAt = latest.get();
    }
    return TimeUnit.NANOSECONDS.toMillis(longestGap);
  }

  /** Where the longest gap began, in milliseconds into the window. */
  synchronized long longestGapAtMillis() {
    longestGapMillis();
    return TimeUnit.NANOSECONDS.toMillis(longestGapAt);
  }

  List<Long> perSecond() {
    List<Long> out = new ArrayList<>(perSecond.length());
    for (int i = 0; i < perSecond.length(); i++) {
      out.add(perSecond.get(i));
    }
    return out;
  }
}
