package io.hops.namenode.leases;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;

/**
 * The lease-expiry hook: what releasing a file's lease does to the file, when its holder's lease
 * expired (housekeeping), another client's create meets an abandoned file, or a client calls {@code
 * recoverLease}. HDFS closes a file whose blocks are all complete at once and otherwise starts
 * block recovery on a datanode (FSNamesystem.internalReleaseLease): {@link BlockRecovery}.
 */
public interface LeaseRecovery {

  /**
   * Lock phase, after the file's inode (locked exclusively) and the lease rows: reads what
   * releasing {@code file} needs (its blocks, ...).
   */
  Release prepare(LockPhase tx, InodeRow file) throws IOException;

  /** Releasing one file, in the execute phase, over what {@link #prepare} read. */
  interface Release {
    /**
     * The quota rows above the file, locked by the caller: a release that drops an empty last block
     * gives its space back there.
     */
    default void countIn(io.hops.namenode.quota.AncestorQuotas quotas) {}

    /**
     * Closes {@code file} now and returns true, or starts a recovery that closes it later and
     * returns false. Writes the inode row itself, and takes the file off its holder's lease through
     * {@code leases} (the caller flushes them).
     */
    boolean release(ExecutePhase tx, MutableInode file, LeaseChanges leases, long now)
        throws IOException;
  }
}
