package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;

/**
 * A directory's hold that no snapshot needs any more, cleared (docs/architecture.md, "Snapshots",
 * holds): run for a hold row ({@link SnapshotKeptFileRow#hold}) that a {@code deleteSnapshot} of
 * its holder found due. The row goes; unless the directory is held for good (by two directories),
 * its {@code snapshot_id} goes back to 0 when it is still this hold (so changes below it write no
 * more versions), its own hold row goes if it was made snapshottable since, and the files kept in
 * its partition up to the hold are released ({@link KeptFiles}): the first batch here, the rest as
 * after a {@code deleteSnapshot}. A directory deleted since only has its kept files released.
 */
final class ClearHold extends Operation<KeptFiles.Left> {
  private final SnapshotKeptFileRow hold;
  private InodeRow dir;
  private SnapshotKeptFileRow found;
  private boolean clears;
  private SnapshotKeptFileRow ownHold;
  private KeptFiles kept;

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
    if (seen != null) {
      dir = tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(seen), LockMode.EXCLUSIVE);
      if (dir == null || dir.id() != seen.id()) {
        throw new TransientStorageException("clearing a hold: directory " + seen.id() + " moved");
      }
    }
    found = tx.find(SnapshotKeptFileRow.TABLE, keyOf(hold), LockMode.EXCLUSIVE);
    if (found == null) {
      return; // cleared by another namenode
    }
    long id = hold.heldId();
    long s = hold.snapshotId();
    boolean forGood =
        tx.find(
                SnapshotKeptFileRow.TABLE,
                keyOf(SnapshotKeptFileRow.hold(0, 0, id)),
                LockMode.READ_COMMITTED)
            != null;
    // Still this hold, or one a snapshottable directory's own later snapshots took over.
    clears =
        !forGood
            && (dir == null
                || dir.snapshotId() == s
                || (dir.snapshottable() && dir.snapshotId() > s));
    if (!clears) {
      return;
    }
    List<SnapshotRow> own = List.of();
    long upTo = s;
    if (dir != null && dir.snapshottable()) {
      ownHold =
          tx.find(
              SnapshotKeptFileRow.TABLE,
              keyOf(SnapshotKeptFileRow.hold(id, s, id)),
              LockMode.EXCLUSIVE);
      own = tx.findByPartition(SnapshotRow.TABLE, id, LockMode.READ_COMMITTED);
      upTo = Math.max(s, dir.snapshotId());
    }
    kept = KeptFiles.read(tx, id, own, upTo, true);
  }

  private static io.hops.dal.schema.Key keyOf(SnapshotKeptFileRow row) {
    return SnapshotKeptFileRow.TABLE.keyOf(row);
  }

  @Override
  protected KeptFiles.Left execute(ExecutePhase tx) throws IOException {
    if (found == null) {
      return KeptFiles.Left.NONE;
    }
    tx.delete(SnapshotKeptFileRow.TABLE, found);
    if (!clears) {
      return KeptFiles.Left.NONE;
    }
    if (dir != null && dir.snapshotId() == hold.snapshotId()) {
      MutableInode m = MutableInode.of(dir);
      m.snapshotId = 0;
      tx.update(InodeRow.TABLE, m.toRow());
    }
    if (ownHold != null) {
      tx.delete(SnapshotKeptFileRow.TABLE, ownHold);
    }
    // The versions below it up to the hold: no snapshot of its holder reads them any more.
    tx.insertIfAbsent(
        SnapshotVersionLogRow.TABLE, ReclaimVersions.afterHold(hold.heldId(), hold.snapshotId()));
    return kept.release(tx);
  }
}
