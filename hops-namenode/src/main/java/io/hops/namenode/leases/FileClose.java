package io.hops.namenode.leases;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import java.io.IOException;

/**
 * Closing a file under construction whose blocks are complete, which {@code complete}, a block
 * recovery's {@code commitBlockSynchronization} and a lease release that finds nothing to recover
 * share (HDFS FSNamesystem.finalizeINodeFileUnderConstruction).
 */
public final class FileClose {
  private FileClose() {}

  /** Closes {@code file}: no client, modification time now, off its holder's lease. */
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
