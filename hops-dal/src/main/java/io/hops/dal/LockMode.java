package io.hops.dal;

/** How strongly a read locks the rows it returns. Locks are held until commit or rollback. */
public enum LockMode {
  /** Sees the latest committed version, takes no lock and never blocks. */
  READ_COMMITTED,
  /** A shared row lock: other shared readers proceed, writers wait. */
  SHARED,
  /** An exclusive row lock: every other locking reader and writer waits. */
  EXCLUSIVE;

  /** Whether a lock held in this mode lets another transaction take {@code other}. */
  public boolean compatibleWith(LockMode other) {
    return this == READ_COMMITTED || other == READ_COMMITTED || (this == SHARED && other == SHARED);
  }
}
