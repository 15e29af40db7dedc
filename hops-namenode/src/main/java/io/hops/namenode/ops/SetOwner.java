package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.security.AccessControlException;

/**
 * {@code setOwner} (chown, chgrp): the target locked exclusively (B + PK(EXCLUSIVE) + W). HDFS's
 * rules: the caller must own the inode or be the superuser; only the superuser may give it to
 * another user, and the owner may change its group only to a group they belong to. A null name
 * leaves that part unchanged. A new name is registered (a short transaction of its own) only once
 * the checks pass, so a refused call stores nothing.
 */
public final class SetOwner extends Operation<Void> {
  private final PermissionChecker pc;
  private final UsersAndGroups names;
  private final String path;
  private final String user;
  private final String group;
  private ResolvedPath resolved;

  public SetOwner(
      PermissionChecker pc, UsersAndGroups names, String path, String user, String group) {
    this.pc = pc;
    this.names = names;
    this.path = path;
    this.user = user;
    this.group = group;
  }

  @Override
  public String name() {
    return "setOwner";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = existing(resolved);
    pc.checkOwner(target, PathNames.prefix(resolved.components(), resolved.depth()));
    String caller = pc.caller().user();
    boolean otherUser = user != null && !caller.equals(user);
    boolean foreignGroup = group != null && !pc.caller().groups().contains(group);
    // As HDFS, this holds even with dfs.permissions.enabled=false.
    if (!pc.isSuperuser()) {
      if (otherUser) {
        throw new AccessControlException(
            "User " + caller + " is not a super user (non-super user cannot change owner).");
      }
      if (foreignGroup) {
        throw new AccessControlException("User " + caller + " does not belong to " + group);
      }
    }
    MutableInode inode = MutableInode.of(target);
    if (user != null) {
      inode.userId = names.userId(user);
    }
    if (group != null) {
      inode.groupId = names.groupId(group);
    }
    if (inode.userId != target.userId() || inode.groupId != target.groupId()) {
      tx.update(InodeRow.TABLE, inode.toRow());
    } else {
      tx.recordModification(target);
    }
    return null;
  }

  /** The target of a path an attribute is set on, or HDFS's FileNotFoundException. */
  static InodeRow existing(ResolvedPath resolved) throws FileNotFoundException {
    InodeRow target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException(
          "Directory/File does not exist "
              + PathNames.prefix(resolved.components(), resolved.depth()));
    }
    return target;
  }
}
