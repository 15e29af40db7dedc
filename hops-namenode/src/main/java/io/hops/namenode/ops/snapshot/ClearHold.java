package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;

/**
 * A directory's hold that no snapshot of one of its holders needs any more, cleared
 * (docs/architecture.md, "Snapshots", holds): run for a hold row ({@link SnapshotKeptFileRow#hold})
 * that a {@code deleteSnapshot} of its holder found due. The row goes. A directory held by several
 * (moved out again, or out of a second snapshottable directory) has one row per holder, found by
 * the rows' index on the held id: while another holder's row remains, nothing else changes (its
 * snapshots may read anything kept below the directory). The last one's clearing sets the
 * directory's {@code snapshot_id} back to 0 unless it has snapshots of its own (so changes below it
 * write no more versions), deletes its own hold row if it was made snapshottable since, and
 * releases the files kept in its partition up to its latest hold ({@link KeptFiles}): the first
 * batch here, the rest as after a {@code deleteSnapshot}. Those kept past its holds, for the
 * snapshots of a directory it sits below now, go to that directory's partition, or are released
 * when none covers it, and those a snapshottable directory below it may read go to that one's too
 * ({@link KeptBeyondHold}). A directory deleted since only has its kept files released, up to the
 * largest of its holds: one that ended while another remained is remembered in its own partition
 * ({@link EndedHolds}), since no row of its own says it, and its delete wrote one past every row
 * ({@link DeletedHeldDirectory}). A row under directory 0 (a second hold written before schema
 * version 12) is a holder that never goes.
 */
final class ClearHold extends Operation<KeptFiles.Left> {
  private final SnapshotKeptFileRow hold;
  private InodeRow dir;
  private SnapshotKeptFileRow found;
  private boolean clears;
  private boolean ownSnapshots;
  private SnapshotKeptFileRow ownHold;
  private KeptFiles kept;
  private long upTo;

  ClearHold(SnapshotKeptFileRow hold) {
    this.hold = hold;
  }

  @Override
  public String name() {
    return "clearSnapshotHold";
  }

  @Override
  public Object partitionHint() {
    return hold.heldId();
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    InodeRow seen = tx.inodePaths().byId(hold.heldId());
    // Where the files kept past its holds go if this is the last one (its heir locked first).
    KeptBeyondHold beyond = KeptBeyondHold.afterHolds(tx, seen);
    if (seen != null) {
      dir = tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(seen), LockMode.EXCLUSIVE);
      if (dir == null || dir.id() != seen.id()) {
        throw new TransientStorageException("clearing a hold: directory " + seen.id() + " moved");
      }
      beyond.lockInner(tx, seen, dir);
    }
    long id = hold.heldId();
    // Every holder's row, locked in the index's order, so that two holders' clearings of a
    // directory deleted since (no row to lock) cannot both see the other's row and both keep.
    boolean others = false;
    for (SnapshotKeptFileRow r :
        tx.findByIndex(SnapshotKeptFileRow.TABLE, "inode_id", -id, LockMode.EXCLUSIVE)) {
      if (r.equals(hold)) {
        found = r;
      } else if (r.dirId() == id) {
        ownHold = r;
      } else {
        others = true;
      }
    }
    if (found == null) {
      return; // cleared by another namenode
    }
    // A store upgraded from before version 12 may hold it for good with a row its index lacks.
    clears =
        !others
            && tx.find(
                    SnapshotKeptFileRow.TABLE,
                    SnapshotKeptFileRow.TABLE.keyOf(SnapshotKeptFileRow.hold(0, 0, id)),
                    LockMode.READ_COMMITTED)
                == null;
    if (!clears) {
      return;
    }
    List<SnapshotRow> own = List.of();
    upTo = hold.snapshotId();
    if (dir == null && ownHold != null) {
      // A deleted directory whose larger hold ended first: its files kept up to that hold go too.
      upTo = Math.max(upTo, ownHold.snapshotId());
    }
    if (dir != null) {
      // The latest hold (a directory's holds only raise its snapshot_id), or its own latest.
      upTo = Math.max(upTo, dir.snapshotId());
      if (dir.snapshottable()) {
        own = tx.findByPartition(SnapshotRow.TABLE, id, LockMode.READ_COMMITTED);
        ownSnapshots = !own.isEmpty();
      }
    }
    // A subtree a big delete detached below a snapshot is no snapshot's any more if this ends its
    // holds: its charge goes with them.
    boolean freedRoot = dir != null && dir.parentId() == Inodes.DETACHED && own.isEmpty();
    kept = KeptFiles.read(tx, id, own, upTo, true, beyond, freedRoot);
  }

  @Override
  protected KeptFiles.Left execute(ExecutePhase tx) throws IOException {
    if (found == null) {
      return KeptFiles.Left.NONE;
    }
    tx.delete(SnapshotKeptFileRow.TABLE, found);
    if (!clears) {
      if (dir == null) {
        EndedHolds.remember(tx, found, ownHold);
      }
      return KeptFiles.Left.NONE;
    }
    if (dir != null && dir.snapshotId() != 0 && !ownSnapshots) {
      MutableInode m = MutableInode.of(dir);
      m.snapshotId = 0;
      tx.update(InodeRow.TABLE, m.toRow());
    }
    if (ownHold != null) {
      tx.delete(SnapshotKeptFileRow.TABLE, ownHold);
    }
    // The versions below it up to the hold: no snapshot of its holder reads them any more. For a
    // directory deleted since, up to the largest of its holds (its delete recorded one past every
    // row: DeletedHeldDirectory), which the leader's rounds resume from the pending row.
    tx.insertIfAbsent(
        SnapshotVersionLogRow.TABLE,
        ReclaimVersions.afterHold(hold.heldId(), dir == null ? upTo : hold.snapshotId()));
    return ReleaseKeptFiles.recordLeft(tx, kept.release(tx));
  }
}
