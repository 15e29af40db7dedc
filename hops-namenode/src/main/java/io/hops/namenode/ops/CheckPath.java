package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * A path resolved as a stat resolves it (B + PK(SHARED)) and checked as HDFS checks it before a
 * call about a feature hops does not have (encryption zones, erasure coding, snapshots): traversal
 * of the ancestors, then an access or the ownership of the target. The call's own answer (no zone,
 * no policy, not snapshottable) is then given by {@link Answer}, so that the path's errors come
 * first, in HDFS's order.
 */
public final class CheckPath<T> extends Operation<T> {
  /** What the call answers about a path that passed the checks. */
  @FunctionalInterface
  public interface Answer<T> {
    T of(ResolvedPath resolved) throws IOException;
  }

  private final PermissionChecker pc;
  private final String name;
  private final String path;
  private final FsAction access;
  private final boolean owner;
  private final Answer<T> answer;
  private ResolvedPath resolved;

  /**
   * {@code access} on the target if it exists ({@link FsAction#NONE}: none), or the ownership of
   * the target when {@code owner}.
   */
  public CheckPath(
      PermissionChecker pc,
      String name,
      String path,
      FsAction access,
      boolean owner,
      Answer<T> answer) {
    this.pc = pc;
    this.name = name;
    this.path = path;
    this.access = access;
    this.owner = owner;
    this.answer = answer;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
  }

  @Override
  protected T execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = resolved.target();
    if (owner) {
      if (target == null) {
        // FSPermissionChecker.checkOwner on a missing inode.
        throw new FileNotFoundException("Directory/File does not exist " + path);
      }
      pc.checkOwner(target, path);
    } else if (target != null) {
      pc.check(target, path, access);
    }
    return answer.of(resolved);
  }

  /** The target must be a directory, with HDFS's messages (INodeDirectory.valueOf). */
  public static InodeRow directory(ResolvedPath p) throws IOException {
    InodeRow target = p.target();
    if (target == null) {
      throw new FileNotFoundException("Directory does not exist: " + p.path());
    }
    if (!target.isDir()) {
      throw new PathIsNotDirectoryException(p.path());
    }
    return target;
  }
}
