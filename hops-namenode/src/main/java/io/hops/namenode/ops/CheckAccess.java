package io.hops.namenode.ops;

import io.hops.dal.LockMode;
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
 * {@code checkAccess} ({@code FileSystem.access}): traversal, then {@code mode} on the target by
 * the same rules, ACLs included, as every other check (FSNamesystem.checkAccess).
 */
public final class CheckAccess extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private final FsAction mode;
  private ResolvedPath resolved;

  public CheckAccess(PermissionChecker pc, String path, FsAction mode) {
    this.pc = pc;
    this.path = path;
    this.mode = mode;
  }

  @Override
  public String name() {
    return "checkAccess";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String normalized = PathNames.prefix(resolved.components(), resolved.depth());
    if (resolved.target() == null) {
      throw new FileNotFoundException("Path not found: " + normalized);
    }
    pc.check(resolved.target(), normalized, mode);
    return null;
  }
}
