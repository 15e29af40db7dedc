package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.namenode.tx.LockPhase;

/**
 * The ids of an open file's last two blocks that its lease path row keeps, so that the blocks of a
 * file being written are read as a tail and not whole ({@link FileBlocks}). The row belongs to the
 * lease ({@code leases/LeaseChanges} writes it); what its block columns mean is the blocks'
 * business.
 */
public final class LeasePathTail {
  /** A lease path's block columns before the file has blocks. */
  public static final long NO_BLOCK = -1;

  /**
   * A lease path's block column when the tail of the file is not known (a file reopened for append
   * or recovery, or whose penultimate block was abandoned): the next tail read reads every block.
   */
  public static final long UNKNOWN_BLOCK = -2;

  private LeasePathTail() {}

  /**
   * Lock phase: the lease path of the open {@code file} at {@code mode}, by key (its holder is the
   * inode's {@code clientName}); null for a file no client writes, or whose lease path is gone.
   */
  public static LeasePathRow pathOf(LockPhase tx, InodeRow file, LockMode mode)
      throws StorageException {
    return file.clientName() == null
        ? null
        : tx.find(LeasePathRow.TABLE, LeasePathRow.key(file.clientName(), file.id()), mode);
  }
}
