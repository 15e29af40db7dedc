package io.hops.namenode.leases;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import java.util.List;

/**
 * Lease recovery of files without blocks: they are closed at once, as HDFS closes a file whose
 * blocks are all complete. A file with blocks is refused, never closed silently. The default hook
 * is {@link BlockRecovery}; this one stays for its {@link #close} (closing a file, which every
 * recovery and {@code complete} share) and for tests of the lease machinery alone.
 */
public final class ZeroLengthFileRecovery implements LeaseRecovery {

  @Override
  public Release prepare(LockPhase tx, InodeRow file) throws IOException {
    // The file's blocks are protected by the exclusive lock on its inode: read committed, one
    // partition-pruned scan.
    List<BlockInfoRow> blocks =
        tx.findByPartition(BlockInfoRow.TABLE, file.id(), LockMode.READ_COMMITTED);
    return (exec, inode, leases, now) -> {
      if (!blocks.isEmpty()) {
        throw new IOException(
            "cannot recover the lease of inode "
                + inode.id
                + " ("
                + inode.name
                + "): it has "
                + blocks.size()
                + " block(s); this recovery closes only files without blocks (BlockRecovery"
                + " recovers the others)");
      }
      close(exec, inode, leases, now);
      return true;
    };
  }

  /**
   * Closes a file under construction whose blocks are complete: no client, modification time now,
   * off its holder's lease (HDFS FSNamesystem.finalizeINodeFileUnderConstruction).
   */
  public static void close(ExecutePhase tx, MutableInode file, LeaseChanges leases, long now)
      throws IOException {
    String holder = file.clientName;
    file.underConstruction = false;
    file.clientName = null;
    file.clientMachine = null;
    file.modificationTime = now;
    tx.update(InodeRow.TABLE, file.toRow());
    leases.removeFile(tx, holder, file.id);
  }
}
