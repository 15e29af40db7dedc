package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.Namesystem;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
import io.hops.namenode.security.PermissionChecker;
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
 * target has an ACL).
 */
public final class GetAclStatus extends Operation<AclStatus> {
  private final Namesystem ns;
  private final PermissionChecker pc;
  private final String path;
  private ResolvedPath resolved;

  public GetAclStatus(Namesystem ns, PermissionChecker pc, String path) {
    this.ns = ns;
    this.pc = pc;
    this.path = path;
  }

  @Override
  public String name() {
    return "getAclStatus";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    ChangeAcl.checkEnabled(ns);
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
  }

  @Override
  protected AclStatus execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target =
        XAttrs.existing(
            resolved.target(), PathNames.prefix(resolved.components(), resolved.depth()));
    return status(ns, target);
  }

  static AclStatus status(Namesystem ns, InodeRow target) throws StorageException {
    InodeAcl acl = InodeFlags.hasAcl(target.permission()) ? LoadedAcls.get(target.id()) : null;
    FsPermission perm = new FsPermission(target.permission());
    return new AclStatus.Builder()
        .owner(ns.users().userName(target.userId()))
        .group(ns.users().groupName(target.groupId()))
        .stickyBit(perm.getStickyBit())
        .setPermission(perm)
        .addEntries(acl == null ? List.of() : acl.entries())
        .build();
  }
}
