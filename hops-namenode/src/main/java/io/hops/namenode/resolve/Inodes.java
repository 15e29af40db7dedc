package io.hops.namenode.resolve;

import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;

/**
 * Where inodes live: the root's fixed identity and the partitioning rule of docs/architecture.md,
 * "Metadata schema".
 */
public final class Inodes {
  /** The root directory's id; its parent id is {@link #NO_PARENT} and its name is empty. */
  public static final long ROOT_ID = 1;

  public static final long NO_PARENT = 0;

  /**
   * The parent id of deleted subtrees whose rows are still being reclaimed (a big delete unlinks
   * its root from the namespace at once and frees the rows below afterwards, see {@code
   * SubtreeOperations}). No inode has this id, so no path reaches below it; the roots waiting are
   * named by their own ids and share one partition, which is the queue of reclaims.
   */
  public static final long DETACHED = -(1L << 40);

  /** Top-level directories spread over this many pseudo-random partitions. */
  private static final int ROOT_CHILD_PARTITIONS = 1 << 16;

  private static final Key ROOT_KEY = InodeRow.TABLE.key(NO_PARENT, NO_PARENT, "");

  private Inodes() {}

  /**
   * The partition of a child: its parent's id, except under the root, where a hash of the name
   * spreads top-level directories over shards. Negative, so it never equals an inode id.
   */
  public static long partitionOf(long parentId, String name) {
    if (parentId != ROOT_ID) {
      return parentId;
    }
    // String.hashCode is specified by the JLS: every namenode computes the same partition.
    return -1L - Math.floorMod(name.hashCode(), ROOT_CHILD_PARTITIONS);
  }

  /** The primary key of {@code name} under {@code parentId}. */
  public static Key key(long parentId, String name) {
    return InodeRow.TABLE.key(partitionOf(parentId, name), parentId, name);
  }

  /** Where a deleted subtree's root {@code id} waits for its rows to be reclaimed. */
  public static Key detachedKey(long id) {
    return key(DETACHED, Long.toString(id));
  }

  public static Key rootKey() {
    return ROOT_KEY; // keys are immutable
  }
}
