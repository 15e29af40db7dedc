package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshottableDirRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.ops.CheckPath;
import io.hops.namenode.ops.Checks;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * {@code disallowSnapshot} (dfsadmin -disallowSnapshot; HDFS SnapshotManager.resetSnapshottable),
 * for the superuser, checked by the caller: refused while the directory has snapshots (its {@code
 * snapshots} rows: a directory made snapshottable while held has its hold as {@code snapshot_id}
 * and none); a directory that is not snapshottable is left as it is. A held one keeps its hold in
 * {@code snapshot_id}, and its own hold row goes (docs/architecture.md, "Snapshots").
 */
public final class DisallowSnapshot extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private ResolvedPath resolved;
  private boolean hasSnapshots;
  private SnapshotKeptFileRow ownHold;

  public DisallowSnapshot(PermissionChecker pc, String path) {
    this.pc = pc;
    this.path = path;
  }

  @Override
  public String name() {
    return "disallowSnapshot";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target != null && target.snapshottable()) {
      tx.find(VariableRow.TABLE, SnapshotIds.KEY, LockMode.EXCLUSIVE);
      hasSnapshots =
          !tx.findByPartition(SnapshotRow.TABLE, target.id(), LockMode.READ_COMMITTED).isEmpty();
      if (!hasSnapshots && target.snapshotId() > 0) {
        ownHold =
            tx.find(
                SnapshotKeptFileRow.TABLE,
                SnapshotKeptFileRow.TABLE.keyOf(
                    SnapshotKeptFileRow.hold(target.id(), target.snapshotId(), target.id())),
                LockMode.EXCLUSIVE);
      }
    }
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow dir = CheckPath.directory(resolved);
    if (!dir.snapshottable()) {
      return null;
    }
    if (hasSnapshots) {
      throw new SnapshotException(
          "The directory "
              + resolved.path()
              + " has snapshot(s). Please redo the operation after removing all the snapshots.");
    }
    MutableInode m = MutableInode.of(dir);
    m.snapshottable = false;
    tx.update(InodeRow.TABLE, m.toRow());
    tx.delete(SnapshottableDirRow.TABLE, new SnapshottableDirRow(dir.id()));
    if (ownHold != null) {
      tx.delete(SnapshotKeptFileRow.TABLE, ownHold);
    }
    return null;
  }
}
