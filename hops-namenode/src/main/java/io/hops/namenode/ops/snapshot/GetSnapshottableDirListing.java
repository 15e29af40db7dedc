package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;

/**
 * {@code getSnapshottableDirListing} (hdfs lsSnapshottableDir; HDFS
 * SnapshotManager.getSnapshottableDirListing): every snapshottable directory for the superuser,
 * those the caller owns for anyone else, in HDFS's order (parent path, then name); null when no
 * directory is snapshottable. Reads the list ({@link SnapshottableDirs}) and each directory's
 * snapshots, committed.
 */
public final class GetSnapshottableDirListing extends Operation<SnapshottableDirectoryStatus[]> {
  private final UsersAndGroups users;
  private final PermissionChecker pc;
  private List<SnapshottableDirs.Dir> dirs;
  private final Map<Long, Integer> counts = new HashMap<>();

  public GetSnapshottableDirListing(UsersAndGroups users, PermissionChecker pc) {
    this.users = users;
    this.pc = pc;
  }

  @Override
  public String name() {
    return "getSnapshottableDirListing";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    dirs = SnapshottableDirs.read(tx);
    for (SnapshottableDirs.Dir d : dirs) {
      long id = d.row().id();
      counts.put(id, tx.findByPartition(SnapshotRow.TABLE, id, LockMode.READ_COMMITTED).size());
    }
  }

  @Override
  protected SnapshottableDirectoryStatus[] execute(ExecutePhase tx) throws IOException {
    if (dirs.isEmpty()) {
      return null;
    }
    List<SnapshottableDirectoryStatus> out = new ArrayList<>();
    for (SnapshottableDirs.Dir d : dirs) {
      InodeRow row = d.row();
      String owner = users.userName(row.userId());
      if (!pc.isSuperuser() && !pc.caller().user().equals(owner)) {
        continue;
      }
      boolean root = row.id() == Inodes.ROOT_ID;
      out.add(
          new SnapshottableDirectoryStatus(
              row.modificationTime(),
              row.accessTime(),
              new FsPermission((short) (row.permission() & InodeFlags.MODE)),
              EnumSet.noneOf(HdfsFileStatus.Flags.class),
              owner,
              users.groupName(row.groupId()),
              root ? DFSUtilClient.EMPTY_BYTES : bytes(row.name()),
              row.id(),
              row.childrenCount(),
              counts.get(row.id()),
              SnapshotRoots.quota(row),
              root ? DFSUtilClient.EMPTY_BYTES : bytes(parentPath(d.path()))));
    }
    out.sort(SnapshottableDirectoryStatus.COMPARATOR);
    return out.toArray(new SnapshottableDirectoryStatus[0]);
  }

  private static String parentPath(String path) {
    int slash = path.lastIndexOf('/');
    return slash == 0 ? "/" : path.substring(0, slash);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
