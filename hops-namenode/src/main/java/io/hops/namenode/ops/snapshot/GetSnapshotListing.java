package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.ops.Checks;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;

/**
 * {@code getSnapshotListing} (hdfs lsSnapshot; HDFS SnapshotManager.getSnapshotListing): READ on
 * the directory, then its snapshots in name order, each as HDFS's snapshot root: the directory's
 * attributes as they were when it was taken, the snapshot's name and time, and the directory's path
 * as the parent. One pruned scan of the directory's snapshots.
 */
public final class GetSnapshotListing extends Operation<SnapshotStatus[]> {
  private final UsersAndGroups users;
  private final PermissionChecker pc;
  private final String path;
  private ResolvedPath resolved;
  private List<SnapshotRow> snapshots = List.of();

  public GetSnapshotListing(UsersAndGroups users, PermissionChecker pc, String path) {
    this.users = users;
    this.pc = pc;
    this.path = path;
  }

  @Override
  public String name() {
    return "getSnapshotListing";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
    InodeRow target = resolved.target();
    if (target != null && target.isDir()) {
      snapshots = tx.findByPartition(SnapshotRow.TABLE, target.id(), LockMode.READ_COMMITTED);
    }
  }

  @Override
  protected SnapshotStatus[] execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    if (resolved.target() != null) {
      pc.check(resolved.target(), path, FsAction.READ);
    }
    InodeRow dir = SnapshotRoots.snapshottable(resolved);
    List<SnapshotRow> sorted = new ArrayList<>(snapshots);
    sorted.sort(SnapshotRoots.BY_NAME);
    byte[] parent = resolved.path().getBytes(StandardCharsets.UTF_8);
    SnapshotStatus[] out = new SnapshotStatus[sorted.size()];
    for (int i = 0; i < out.length; i++) {
      SnapshotRow s = sorted.get(i);
      out[i] =
          new SnapshotStatus(
              s.modificationTime(),
              s.accessTime(),
              new FsPermission((short) (s.permission() & InodeFlags.MODE)),
              EnumSet.noneOf(HdfsFileStatus.Flags.class),
              users.userName(s.userId()),
              users.groupName(s.groupId()),
              s.name().getBytes(StandardCharsets.UTF_8),
              dir.id(),
              s.childrenCount(),
              (int) s.snapshotId(),
              false,
              parent);
    }
    return out;
  }
}
