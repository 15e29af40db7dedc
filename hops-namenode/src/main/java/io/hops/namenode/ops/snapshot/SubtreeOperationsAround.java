package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.resolve.SubtreeMarkedException;
import io.hops.namenode.tx.LockPhase;

/**
 * How {@code allowSnapshot} and {@code createSnapshot} pass the subtree protocol's marks
 * (docs/architecture.md, "Snapshots", snapshots and subtree operations): with the snapshot id
 * counter locked exclusively, which every mark locks shared in its own transaction, they read the
 * table of subtree operations in progress and back off, as a mark would, while one runs at, above
 * or below the directory. So a snapshot is never taken above a delete half done in place, nor of a
 * directory a subtree operation above is removing or moving; and an operation marked after the
 * snapshot sees it. Each is one transaction, so it writes no mark of its own.
 */
final class SubtreeOperationsAround {
  /** Every row of {@code on_going_subtree_ops} is in this partition. */
  private static final int PARTITION = 0;

  private SubtreeOperationsAround() {}

  /**
   * Throws {@link SubtreeMarkedException} (transient: the runner retries with backoff, and clears a
   * dead namenode's mark) if a subtree operation in progress is at, above or below {@code p}'s
   * target. The counter row must be locked already.
   */
  static void backOff(LockPhase tx, ResolvedPath p) throws StorageException {
    String path = PathNames.prefix(p.components(), p.depth());
    for (OnGoingSubtreeOpRow o :
        tx.findByPartition(OnGoingSubtreeOpRow.TABLE, PARTITION, LockMode.READ_COMMITTED)) {
      if (o.path() != null && (covers(o.path(), path) || covers(path, o.path()))) {
        throw new SubtreeMarkedException(
            "the subtree operation on " + o.path(), o.inodeId(), o.namenodeId());
      }
    }
  }

  /** Whether {@code a} is {@code b} or an ancestor of it, by path. */
  private static boolean covers(String a, String b) {
    if (a.equals(b) || a.equals("/")) {
      return true;
    }
    return b.startsWith(a) && b.length() > a.length() && b.charAt(a.length()) == '/';
  }
}
