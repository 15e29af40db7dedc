package io.hops.namenode.faults;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The one seam where tests inject faults into a namenode: production code calls {@link #at} at a
 * few named {@link Point}s, which does nothing until a test arms the point (or, for tests of
 * namenodes in separate processes, a configuration key does: {@code
 * hops.namenode.subtree.fault.batch-delay.ms}). One per namenode, so a test can slow or break one
 * of several namenodes in a JVM. Nothing here is state the namespace depends on.
 */
public final class Faults {
  /** Where a fault can be injected. */
  public enum Point {
    /** Before every transaction of a subtree operation's quiesce and of a delete. */
    SUBTREE_STEP,
    /** Before a namenode removes its own subtree mark after a failed subtree operation. */
    SUBTREE_UNMARK,
    /**
     * In the transaction that sets a subtree mark, after it resolved the path (its ancestors read
     * committed) and before it takes the lock that serializes marks.
     */
    SUBTREE_MARK_RESOLVED,
    /**
     * Between writing a database file's hidden copy on datanodes and adopting it; an {@link Error}
     * there ends the move as the namenode's death would, leaving the hidden file and the record.
     */
    DATABASE_FILE_HIDDEN,
    /** Before every transaction of a full block report's differences. */
    FULL_REPORT_TRANSACTION,
    /** Before the transaction of a block recovery's {@code commitBlockSynchronization}. */
    COMMIT_BLOCK_SYNCHRONIZATION
  }

  /** What an armed point does when it is reached. */
  @FunctionalInterface
  public interface Fault {
    void hit() throws IOException;
  }

  private final Map<Point, Fault> armed = new ConcurrentHashMap<>();

  /** Reached {@code point}: runs its fault, if a test armed one. */
  public void at(Point point) throws IOException {
    Fault f = armed.get(point);
    if (f != null) {
      f.hit();
    }
  }

  /** From now on {@code point} runs {@code fault}; null disarms it. */
  public void arm(Point point, Fault fault) {
    if (fault == null) {
      armed.remove(point);
    } else {
      armed.put(point, fault);
    }
  }

  /** A fault that waits {@code delay} (none for zero), e.g. to stop a namenode in the middle. */
  public static Fault delay(Duration delay) {
    long millis = delay.toMillis();
    return () -> {
      if (millis <= 0) {
        return;
      }
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted");
      }
    };
  }

  /** A fault that throws the first {@code times} times it is hit, then passes. */
  public static Fault failing(int times, Supplier<? extends IOException> error) {
    AtomicInteger left = new AtomicInteger(times);
    return () -> {
      if (left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw error.get();
      }
    };
  }
}
