package io.hops.namenode.leases;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Housekeeping: releases one file of a lease past its hard limit, or looks at one file of a
 * recovery holder (whose block recovery may be due to be sent or started again). The file is found
 * by its inode id (its lease path's key), so a rename while it was open does not matter: an index
 * lookup read committed, then the inode by primary key, exclusively, then the lease row and the
 * lease path (docs/architecture.md, "Lock order"). Everything is checked again under the locks: a
 * holder that renewed in the meantime keeps its file. With {@link #NO_FILE}, drops the holder's
 * lease if it has no files: with the lease row locked exclusively (which waits for every create
 * that holds it shared), an index read of the holder's lease paths. After releasing a file, the
 * lease goes too if that was its last (HDFS removes a lease with its last file); else a later pass
 * drops it.
 */
final class ReleaseLease extends Operation<Boolean> {
  static final long NO_FILE = -1;

  private final LeaseManager manager;
  private final String holder;
  private final long inodeId;
  private InodeRow file;
  private LeasePathRow leasePath;
  private LeaseChanges leases;
  private LeaseRecovery.Release release;

  /** The holder's lease paths, read under the exclusive lock on its lease row. */
  private List<LeasePathRow> holderFiles;

  ReleaseLease(LeaseManager manager, String holder, long inodeId) {
    this.manager = manager;
    this.holder = holder;
    this.inodeId = inodeId;
  }

  @Override
  public String name() {
    return "releaseLease";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    if (inodeId != NO_FILE) {
      List<InodeRow> seen = tx.findByIndex(InodeRow.TABLE, "id", inodeId, LockMode.READ_COMMITTED);
      if (!seen.isEmpty()) {
        InodeRow s = seen.get(0);
        file = tx.find(InodeRow.TABLE, Inodes.key(s.parentId(), s.name()), LockMode.EXCLUSIVE);
        if (file == null || file.id() != inodeId) {
          throw new TransientStorageException("inode " + inodeId + " moved while being locked");
        }
      }
    }
    leases = LeaseChanges.lock(tx, Set.of(holder));
    holderFiles = tx.findByPartition(LeasePathRow.TABLE, holder, LockMode.READ_COMMITTED);
    if (inodeId != NO_FILE) {
      leasePath =
          tx.find(LeasePathRow.TABLE, LeasePathRow.key(holder, inodeId), LockMode.EXCLUSIVE);
      if (heldByHolder()) {
        release = manager.recovery().prepare(tx, file);
        release.countIn(io.hops.namenode.quota.AncestorQuotas.lockAbove(tx, file));
      }
    }
  }

  private boolean heldByHolder() {
    return file != null && file.underConstruction() && holder.equals(file.clientName());
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    LeaseRow lease = leases.read(holder);
    if (lease == null || !manager.needsRelease(lease, manager.now())) {
      return false; // gone or renewed since the scan
    }
    if (inodeId == NO_FILE) {
      if (holderFiles.isEmpty()) {
        tx.delete(LeaseRow.TABLE, lease);
      }
      return false;
    }
    boolean closed = false;
    boolean stillHolds = false;
    if (heldByHolder()) {
      MutableInode m = MutableInode.of(file);
      closed = release.release(tx, m, leases, manager.now());
      stillHolds = !closed && holder.equals(m.clientName);
    } else if (leasePath != null) {
      // A lease path whose file is gone or no longer written by the holder.
      leases.removeFile(tx, holder, inodeId);
    }
    leases.flush(tx);
    if (!stillHolds && holderFiles.stream().allMatch(p -> p.inodeId() == inodeId)) {
      tx.delete(LeaseRow.TABLE, lease); // its last file is released
    }
    return closed;
  }
}
