package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/** {@code isFileClosed}: read like a stat, B + PK(SHARED); false while the file is written. */
public final class IsFileClosed extends Operation<Boolean> {
  private final PermissionChecker pc;
  private final String src;
  private ResolvedPath resolved;

  public IsFileClosed(PermissionChecker pc, String src) {
    this.pc = pc;
    this.src = src;
  }

  @Override
  public String name() {
    return "isFileClosed";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.SHARED);
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    return !Checks.file(resolved, src).underConstruction();
  }
}
