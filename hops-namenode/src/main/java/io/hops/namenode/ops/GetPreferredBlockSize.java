package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/** {@code getPreferredBlockSize} of a file: read like a stat, B + PK(SHARED). */
public final class GetPreferredBlockSize extends Operation<Long> {
  private final PermissionChecker pc;
  private final String src;
  private ResolvedPath resolved;

  public GetPreferredBlockSize(PermissionChecker pc, String src) {
    this.pc = pc;
    this.src = src;
  }

  @Override
  public String name() {
    return "getPreferredBlockSize";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.SHARED);
  }

  @Override
  protected Long execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    return Checks.file(resolved, path).preferredBlockSize();
  }
}
