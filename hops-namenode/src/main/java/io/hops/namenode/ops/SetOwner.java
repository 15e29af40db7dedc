package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
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
 * leaves that part unchanged. The names' ids are registered by the caller before the transaction (a
 * short transaction of their own), so this one reads only what the paper's does.
 */
public final class SetOwner extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private final String user;
  private final String group;
  private final int userId;
  private final int groupId;
  private ResolvedPath resolved;

  /**
   * @param userId the id of {@code user}, ignored when {@code user} is null
   * @param groupId the id of {@code group}, ignored when {@code group} is null
   */
  public SetOwner(
      PermissionChecker pc, String path, String user, int userId, String group, int groupId) {
    this.pc = pc;
    this.path = path;
    this.user = user;
    this.userId = userId;
    this.group = group;
    this.groupId = groupId;
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
      inode.userId = userId;
    }
    if (group != null) {
      inode.groupId = groupId;
    }
    if (inode.userId != target.userId() || inode.groupId != target.groupId()) {
      tx.update(InodeRow.TABLE, inode.toRow());
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
