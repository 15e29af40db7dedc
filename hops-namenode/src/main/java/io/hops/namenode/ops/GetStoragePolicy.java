package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.namenode.blocks.StoragePolicies;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;

/**
 * {@code getStoragePolicy}: the effective policy of a path, its own or its nearest ancestor's, HOT
 * when none is set (HDFS FSDirAttrOp.getStoragePolicy). READ on the target: B + PK(SHARED).
 */
public final class GetStoragePolicy extends Operation<BlockStoragePolicy> {
  private final PermissionChecker pc;
  private final String path;
  private ResolvedPath resolved;

  public GetStoragePolicy(PermissionChecker pc, String path) {
    this.pc = pc;
    this.path = path;
  }

  @Override
  public String name() {
    return "getStoragePolicy";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
  }

  @Override
  protected BlockStoragePolicy execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String full = PathNames.prefix(resolved.components(), resolved.depth());
    if (resolved.target() == null) {
      throw new FileNotFoundException("File/Directory does not exist: " + full);
    }
    pc.check(resolved.target(), full, FsAction.READ);
    return StoragePolicies.byId(StoragePolicies.effective(resolved.inodes()));
  }
}
