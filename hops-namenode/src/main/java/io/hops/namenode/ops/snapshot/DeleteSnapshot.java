package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * {@code deleteSnapshot} (hdfs dfs -deleteSnapshot; HDFS FSDirSnapshotOp.deleteSnapshot), by the
 * directory's owner or the superuser: the directory's row locked exclusively, its snapshots read
 * (one pruned scan), the snapshot's row deleted, and the directory's {@code snapshot_id} set to 0
 * when none remains, so that its live rows stop being covered (else it stays). Files kept for
 * snapshots that no remaining snapshot may have are released ({@link KeptFiles}), a bounded batch
 * here and the rest by {@link ReleaseKeptFiles} afterwards (a pending row, written here when a rest
 * is left, lets the leader finish it if this namenode stops).
 */
public final class DeleteSnapshot extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private final String snapshotName;
  private ResolvedPath resolved;
  private List<SnapshotRow> snapshots = List.of();
  private KeptFiles kept;
  private KeptFiles.Left left = KeptFiles.Left.NONE;
  private SnapshotVersionLogRow reclaim;

  public DeleteSnapshot(PermissionChecker pc, String path, String snapshotName) {
    this.pc = pc;
    this.path = path;
    this.snapshotName = snapshotName;
  }

  @Override
  public String name() {
    return "deleteSnapshot";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target != null && target.isDir()) {
      snapshots = tx.findByPartition(SnapshotRow.TABLE, target.id(), LockMode.READ_COMMITTED);
      SnapshotRow doomed = SnapshotRoots.byName(snapshots, snapshotName);
      if (doomed != null && target.snapshottable()) {
        List<SnapshotRow> remaining = new java.util.ArrayList<>(snapshots);
        remaining.remove(doomed);
        kept = KeptFiles.read(tx, target.id(), remaining, keptUpTo(target, doomed), false);
      }
    }
  }

  /** The files kept for the directory's snapshots up to this id may be released. */
  private static long keptUpTo(InodeRow dir, SnapshotRow doomed) {
    return Math.max(doomed.snapshotId(), dir.snapshotId());
  }

  /**
   * After the commit, before the answer: releases what this one left to later transactions (holds
   * found due, more kept files), each bounded ({@link ReleaseKeptFiles#drain}), as HDFS frees the
   * quota usage before it answers; and hands the reclaim of the versions no snapshot reads any more
   * ({@link ReclaimVersions}), which no client can observe, to {@code reclaims}, to run after the
   * answer.
   */
  public void releaseRest(TransactionRunner runner, VersionReclaimer reclaims) throws IOException {
    ReleaseKeptFiles.drain(runner, left, reclaims::submit);
    if (reclaim != null) {
      reclaims.submit(reclaim);
    }
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    SnapshotRoots.checkOwner(pc, resolved, path);
    InodeRow dir = SnapshotRoots.snapshottable(resolved);
    SnapshotRow doomed = SnapshotRoots.byName(snapshots, snapshotName);
    if (doomed == null) {
      throw new SnapshotException(
          "Cannot delete snapshot "
              + snapshotName
              + " from path "
              + resolved.path()
              + ": the snapshot does not exist.");
    }
    tx.delete(SnapshotRow.TABLE, doomed);
    MutableInode m = MutableInode.of(dir);
    // While any snapshot remains, snapshot_id stays the latest one ever taken, deleted or not: the
    // versions written at a deleted snapshot's id still answer the older ones, so an entry that
    // has one needs no other; set back to an older id, the next change would write a second
    // version at that id, holding the entry as it is now rather than as the older snapshot had it.
    // A directory made snapshottable while held keeps its hold when its last snapshot goes.
    m.snapshotId = snapshots.size() > 1 ? dir.snapshotId() : kept == null ? 0 : kept.heldAt();
    m.modificationTime = Math.max(m.modificationTime, System.currentTimeMillis());
    tx.update(InodeRow.TABLE, m.toRow());
    if (kept != null) {
      left = ReleaseKeptFiles.recordLeft(tx, kept.release(tx));
    }
    // The versions the deleted snapshot may have been the last to read: judged after the commit.
    reclaim = ReclaimVersions.afterDelete(dir.id(), doomed.snapshotId(), snapshots.size() == 1);
    tx.insertIfAbsent(SnapshotVersionLogRow.TABLE, reclaim);
    return null;
  }
}
