package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * {@code getAclStatus}: owner, group, mode and the stored ACL entries (not the ones the mode bits
 * carry), as HDFS answers it; traversal is the only permission it needs (B + PK(SHARED) + PK if the
 * target has an ACL). Of a {@code .snapshot} path: the inode and ACL as they were.
 */
public final class GetAclStatus extends Operation<AclStatus> {
  private final XAttrSettings settings;
  private final SnapshotSettings snapshots;
  private final UsersAndGroups users;
  private final PermissionChecker pc;
  private final String path;
  private ResolvedPath resolved;

  /** The path into a snapshot, if it is one: its inode and ACL as they were. */
  private SnapshotView snapshot;

  private InodeAcl snapshotAcl;

  public GetAclStatus(
      XAttrSettings settings,
      SnapshotSettings snapshots,
      UsersAndGroups users,
      PermissionChecker pc,
      String path) {
    this.settings = settings;
    this.snapshots = snapshots;
    this.users = users;
    this.pc = pc;
    this.path = path;
  }

  @Override
  public String name() {
    return "getAclStatus";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    settings.checkAclsEnabled();
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
    snapshot = SnapshotView.read(snapshots, tx, resolved, false);
    if (snapshot != null) {
      for (XAttrRow r : snapshot.attributes(tx)) {
        if (r.namespace() == XAttrRow.HIDDEN && r.name().equals(InodeAcl.ROW_NAME)) {
          snapshotAcl = InodeAcl.of(r);
        }
      }
    }
  }

  @Override
  protected AclStatus execute(ExecutePhase tx) throws IOException {
    String normalized = PathNames.prefix(resolved.components(), resolved.depth());
    if (snapshot != null) {
      // HDFS answers .snapshot itself with an unpopulated status, as getFileInfo (FSDirAclOp).
      InodeRow then = snapshot.inodeToRead(pc);
      if (snapshot.isDotSnapshotOfSnapshottable()) {
        return new AclStatus.Builder().owner("").group("").build();
      }
      return status(users, XAttrs.existing(then, normalized), snapshotAcl);
    }
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = XAttrs.existing(resolved.target(), normalized);
    return status(users, target);
  }

  static AclStatus status(UsersAndGroups users, InodeRow target) throws StorageException {
    return status(
        users, target, InodeFlags.hasAcl(target.permission()) ? LoadedAcls.get(target.id()) : null);
  }

  private static AclStatus status(UsersAndGroups users, InodeRow target, InodeAcl acl)
      throws StorageException {
    FsPermission perm = new FsPermission(target.permission());
    return new AclStatus.Builder()
        .owner(users.userName(target.userId()))
        .group(users.groupName(target.groupId()))
        .stickyBit(perm.getStickyBit())
        .setPermission(perm)
        .addEntries(acl == null ? List.of() : acl.entries())
        .build();
  }
}
