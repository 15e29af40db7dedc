package io.hops.namenode.resolve;

import io.hops.dal.TransientStorageException;

/**
 * An operation met an inode marked by a subtree operation (docs/architecture.md, "Subtree
 * operations"): it rolls back and is retried with backoff, as for any transient failure; the runner
 * first clears the mark if its owner is no longer a live namenode. After the retry bound the client
 * gets a {@code RetriableException}.
 */
public final class SubtreeMarkedException extends TransientStorageException {
  private static final long serialVersionUID = 1L;

  private final long inodeId;
  private final long owner;

  public SubtreeMarkedException(String what, long inodeId, long owner) {
    super(what + " is locked by a subtree operation of namenode " + owner + "; retry later");
    this.inodeId = inodeId;
    this.owner = owner;
  }

  /** The marked inode. */
  public long inodeId() {
    return inodeId;
  }

  /** The namenode id that owns the mark. */
  public long owner() {
    return owner;
  }
}
