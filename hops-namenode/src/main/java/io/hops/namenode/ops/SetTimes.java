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
import org.apache.hadoop.fs.permission.FsAction;

/**
 * {@code setTimes}: the target locked exclusively (B + PK(EXCLUSIVE) + W). As HDFS: write
 * permission on the target is required (owning it is not enough), and a negative time (the client
 * sends -1) leaves that time unchanged.
 */
public final class SetTimes extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private final long mtime;
  private final long atime;
  private ResolvedPath resolved;

  public SetTimes(PermissionChecker pc, String path, long mtime, long atime) {
    this.pc = pc;
    this.path = path;
    this.mtime = mtime;
    this.atime = atime;
  }

  @Override
  public String name() {
    return "setTimes";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String normalized = PathNames.prefix(resolved.components(), resolved.depth());
    InodeRow target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("File/Directory " + normalized + " does not exist.");
    }
    pc.check(target, normalized, FsAction.WRITE);
    MutableInode inode = MutableInode.of(target);
    if (mtime >= 0) {
      inode.modificationTime = mtime;
    }
    if (atime >= 0) {
      inode.accessTime = atime;
    }
    if (inode.modificationTime != target.modificationTime()
        || inode.accessTime != target.accessTime()) {
      tx.update(InodeRow.TABLE, inode.toRow());
    }
    return null;
  }
}
