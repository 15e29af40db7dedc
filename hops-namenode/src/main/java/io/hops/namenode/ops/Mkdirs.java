package io.hops.namenode.ops;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.election.ClusterClock;
import io.hops.namenode.config.Limits;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;

/**
 * {@code mkdirs}: the deepest existing directory and the new name are locked exclusively (B + 2
 * PK(EXCLUSIVE) + W when the parent exists); missing parents are created with an implicit u+wx, as
 * HDFS does.
 */
public final class Mkdirs extends Operation<Boolean> {
  private final Limits limits;
  private final ClusterClock clock;
  private final IdPool inodeIds;
  private final String path;
  private final FsPermission masked;
  private final boolean createParent;
  private final PermissionChecker pc;
  private ResolvedPath resolved;
  private InodeRow anchor;
  private AncestorQuotas quotas;

  /**
   * New directories get ids of {@code inodeIds} and times of {@code clock}, within {@code limits}.
   */
  public Mkdirs(
      Limits limits,
      ClusterClock clock,
      IdPool inodeIds,
      PermissionChecker pc,
      String path,
      FsPermission masked,
      boolean createParent) {
    this.limits = limits;
    this.clock = clock;
    this.inodeIds = inodeIds;
    this.pc = pc;
    this.path = path;
    this.masked = masked;
    this.createParent = createParent;
  }

  @Override
  public String name() {
    return "mkdirs";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    Checks.pathLength("mkdirs", path);
    resolved = tx.resolve(path, LockMode.EXCLUSIVE, LockMode.EXCLUSIVE);
    anchor = resolved.lastExisting();
    int existing = resolved.inodes().size();
    if (!resolved.exists() && existing < resolved.depth() && anchor.isDir()) {
      // The deepest existing directory was read without a lock: lock it now, and make sure the
      // first missing name is still missing.
      anchor = Locks.relock(tx, resolved, existing - 1, LockMode.EXCLUSIVE);
      String next = resolved.components()[existing - 1];
      if (tx.find(InodeRow.TABLE, Inodes.key(anchor.id(), next), LockMode.EXCLUSIVE) != null) {
        throw new TransientStorageException("mkdirs raced with a create of " + next);
      }
    }
    quotas =
        resolved.exists() || !anchor.isDir()
            ? AncestorQuotas.none()
            : AncestorQuotas.lock(tx, resolved, existing);
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    pc.checkTraverse(resolved);
    InodeRow target = resolved.target();
    if (target != null) {
      if (!target.isDir()) {
        throw new FileAlreadyExistsException("Path is not a directory: " + path);
      }
      return true;
    }
    int existing = resolved.inodes().size();
    if (!anchor.isDir()) {
      throw Checks.notADirectory(resolved, existing - 1);
    }
    pc.check(anchor, resolved.components(), existing - 1, FsAction.WRITE);
    if (!createParent && existing < resolved.depth()) {
      throw new FileNotFoundException(
          "Parent directory doesn't exist: "
              + PathNames.prefix(resolved.components(), resolved.depth() - 1));
    }
    FsPermission parents =
        new FsPermission(
            masked.getUserAction().or(FsAction.WRITE_EXECUTE),
            masked.getGroupAction(),
            masked.getOtherAction());
    long now = clock.now();
    MutableInode parent = MutableInode.of(anchor);
    InodeAcl parentAcl = DefaultAcl.of(anchor);
    for (int i = existing; i <= resolved.depth(); i++) {
      String name = resolved.components()[i - 1];
      Checks.notReserved(i, name);
      Checks.componentLength(limits, resolved.components(), i);
      Checks.directoryItems(limits, parent, resolved.components(), i - 1);
      try {
        quotas.verify(1, 0);
      } catch (QuotaExceededException e) {
        if (i == existing) {
          throw e;
        }
        // HDFS made the directories before this one, one at a time: they stay.
        tx.failAfterCommit(e);
        break;
      }
      quotas.add(1, 0);
      MutableInode dir = new MutableInode();
      dir.parentId = parent.id;
      dir.name = name;
      dir.id = inodeIds.next();
      dir.isDir = true;
      dir.userId = pc.ownerId();
      dir.groupId = parent.groupId;
      dir.modificationTime = now;
      dir.accessTime = 0; // as in HDFS: a directory's access time moves only by setTimes
      FsPermission modes =
          i == resolved.depth()
              ? masked
              : masked.getUnmasked() == null
                  ? parents
                  : FsCreateModes.create(parents, masked.getUnmasked());
      parentAcl = DefaultAcl.apply(tx, parentAcl, dir, modes);
      parent.childrenCount++;
      parent.modificationTime = now;
      // For a directory made in this loop, the update folds into its buffered insert.
      tx.update(InodeRow.TABLE, parent.toRow());
      tx.insert(InodeRow.TABLE, dir.toRow());
      tx.hintAdded(dir.parentId, dir.name, dir.id);
      parent = dir;
    }
    quotas.flush(tx);
    return true;
  }
}
