package io.hops.namenode.quota;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The ids of the directories with a quota on a path, its target included, read committed: for a
 * subtree operation, whose mark keeps the path above its root from moving.
 */
public final class QuotaDirsOnPath extends Operation<List<Long>> {
  private final String path;
  private ResolvedPath resolved;

  public QuotaDirsOnPath(String path) {
    this.path = path;
  }

  @Override
  public String name() {
    return "quotaDirsOnPath";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
  }

  @Override
  protected List<Long> execute(ExecutePhase tx) {
    List<Long> ids = new ArrayList<>();
    List<InodeRow> inodes = resolved.inodes();
    for (int i = 1; i < inodes.size(); i++) {
      if (inodes.get(i).isDir() && inodes.get(i).hasQuota()) {
        ids.add(inodes.get(i).id());
      }
    }
    return ids;
  }
}
