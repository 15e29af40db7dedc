package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * For tests: big deletes answer once their subtree is unlinked and free its rows in the background
 * ({@code Inodes.DETACHED}); tests that count rows, blocks or marks wait for that to end.
 */
public final class Reclaims {
  private Reclaims() {}

  /** The roots of deleted subtrees whose rows are not all freed yet. */
  public static List<InodeRow> pending(Storage storage) throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx.findByPartition(InodeRow.TABLE, Inodes.DETACHED, LockMode.READ_COMMITTED);
    }
  }

  /** Waits until every deleted subtree is reclaimed; fails after {@code timeout}. */
  public static void await(Storage storage, Duration timeout) throws IOException {
    long end = System.nanoTime() + timeout.toNanos();
    List<InodeRow> left = pending(storage);
    while (!left.isEmpty()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("deleted subtrees not reclaimed after " + timeout + ": " + left);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
      left = pending(storage);
    }
  }

  /** {@link #await(Storage, Duration)} with a minute. */
  public static void await(Storage storage) throws IOException {
    await(storage, Duration.ofMinutes(1));
  }
}
