package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.security.AccessControlException;

/**
 * {@code getFileInfo} (stat): the ancestors in one batch read-committed, the target with a shared
 * lock: B + PK(SHARED). Null when the path does not exist, as HDFS returns.
 */
public final class GetFileInfo extends Operation<HdfsFileStatus> {
  private final FileStatuses statuses;
  private final SnapshotSettings snapshotSettings;
  private final PermissionChecker pc;
  private final String path;
  private final String opName;
  private ResolvedPath resolved;
  private SnapshotView snapshot;

  public GetFileInfo(
      FileStatuses statuses,
      SnapshotSettings snapshotSettings,
      PermissionChecker pc,
      String path,
      String opName) {
    this.statuses = statuses;
    this.snapshotSettings = snapshotSettings;
    this.pc = pc;
    this.path = path;
    this.opName = opName;
  }

  @Override
  public String name() {
    return opName;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
    snapshot = SnapshotView.read(snapshotSettings, tx, resolved, false);
  }

  @Override
  protected HdfsFileStatus execute(ExecutePhase tx) throws IOException {
    try {
      if (snapshot != null) {
        return snapshot.fileInfo(statuses, pc);
      }
      Checks.traverseNotCreating(pc, resolved);
    } catch (AccessControlException e) {
      // HDFS: the superuser gets null rather than an error for a file in the middle of the path.
      if (pc.isSuperuser()) {
        return null;
      }
      throw e;
    }
    return resolved.exists()
        ? statuses.status(
            resolved.target(),
            HdfsFileStatus.EMPTY_NAME,
            io.hops.namenode.blocks.StoragePolicies.effective(resolved.inodes()))
        : null;
  }
}
