package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.LockPhase;

/** Lock-phase steps several operations share. */
final class Locks {
  private Locks() {}

  /**
   * Reads component {@code i} of a resolved path again, now with {@code mode}: for an operation
   * that learns only from resolution which inode it must lock (the deepest existing ancestor). If
   * the inode changed in between, the operation is retried.
   */
  static InodeRow relock(LockPhase tx, ResolvedPath p, int i, LockMode mode)
      throws StorageException {
    InodeRow seen = p.inodes().get(i);
    InodeRow locked =
        tx.find(
            InodeRow.TABLE,
            i == 0 ? Inodes.rootKey() : Inodes.key(seen.parentId(), seen.name()),
            mode);
    // The quota flag decides which quota rows the operation locks and counts in: it must be the
    // one the lock now protects.
    if (locked == null || locked.id() != seen.id() || locked.hasQuota() != seen.hasQuota()) {
      throw new TransientStorageException(p.path() + " changed while it was being resolved");
    }
    return locked;
  }
}
