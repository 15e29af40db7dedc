package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.config.Limits;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * {@code renameSnapshot} (hdfs dfs -renameSnapshot; HDFS FSDirSnapshotOp.renameSnapshot and
 * DirectorySnapshottableFeature.renameSnapshot), by the directory's owner or the superuser: the
 * directory's row locked exclusively, its snapshots read, and the snapshot's row renamed with the
 * time of the rename as its modification time (as HDFS's snapshot root).
 */
public final class RenameSnapshot extends Operation<Void> {
  private final Limits limits;
  private final PermissionChecker pc;
  private final String path;
  private final String oldName;
  private final String newName;
  private ResolvedPath resolved;
  private List<SnapshotRow> snapshots = List.of();

  public RenameSnapshot(
      Limits limits, PermissionChecker pc, String path, String oldName, String newName) {
    this.limits = limits;
    this.pc = pc;
    this.path = path;
    this.oldName = oldName;
    this.newName = newName;
  }

  @Override
  public String name() {
    return "renameSnapshot";
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
    SnapshotRoots.checkName(limits, newName, path);
    SnapshotRoots.snapshottable(resolved);
    SnapshotRow old = SnapshotRoots.byName(snapshots, oldName);
    if (old == null) {
      throw new SnapshotException(
          "The snapshot " + oldName + " does not exist for directory " + path);
    }
    if (newName.equals(oldName)) {
      return null;
    }
    if (SnapshotRoots.byName(snapshots, newName) != null) {
      throw new SnapshotException(
          "The snapshot " + newName + " already exists for directory " + path);
    }
    tx.update(
        SnapshotRow.TABLE,
        new SnapshotRow(
            old.dirId(),
            old.snapshotId(),
            newName,
            System.currentTimeMillis(),
            old.accessTime(),
            old.permission(),
            old.userId(),
            old.groupId(),
            old.childrenCount()));
    return null;
  }
}
