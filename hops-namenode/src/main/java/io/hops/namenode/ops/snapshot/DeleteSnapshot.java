package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * {@code deleteSnapshot} (hdfs dfs -deleteSnapshot; HDFS FSDirSnapshotOp.deleteSnapshot), by the
 * directory's owner or the superuser: the directory's row locked exclusively, its snapshots read
 * (one pruned scan), the snapshot's row deleted, and the directory's {@code snapshot_id} set back
 * to its latest remaining snapshot (0: none), so that its live rows stop being covered.
 */
public final class DeleteSnapshot extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private final String snapshotName;
  private ResolvedPath resolved;
  private List<SnapshotRow> snapshots = List.of();

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
    long latest = 0;
    for (SnapshotRow s : snapshots) {
      if (s.snapshotId() != doomed.snapshotId()) {
        latest = Math.max(latest, s.snapshotId());
      }
    }
    MutableInode m = MutableInode.of(dir);
    m.snapshotId = latest;
    m.modificationTime = Math.max(m.modificationTime, System.currentTimeMillis());
    tx.update(InodeRow.TABLE, m.toRow());
    return null;
  }
}
