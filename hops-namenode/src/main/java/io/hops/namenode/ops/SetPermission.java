package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * {@code setPermission} (chmod): the ancestors in one batch read-committed, the target locked
 * exclusively (B + PK(EXCLUSIVE) + W). Only the owner or the superuser may; the mode is stored as
 * given, sticky bit included. No write when nothing changes, as HDFS logs no edit then.
 */
public final class SetPermission extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private final FsPermission permission;
  private ResolvedPath resolved;

  public SetPermission(PermissionChecker pc, String path, FsPermission permission) {
    this.pc = pc;
    this.path = path;
    this.permission = permission;
  }

  @Override
  public String name() {
    return "setPermission";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = SetOwner.existing(resolved);
    pc.checkOwner(target, PathNames.prefix(resolved.components(), resolved.depth()));
    MutableInode inode = MutableInode.of(target);
    // The ACL and xattr flags stay; with an ACL the group bits are its mask, as in HDFS.
    inode.permission = InodeFlags.withFlagsOf(permission.toShort(), target.permission());
    if (inode.permission != target.permission()) {
      tx.update(InodeRow.TABLE, inode.toRow());
    } else {
      tx.recordModification(target);
    }
    return null;
  }
}
