package io.hops.namenode.ops.snapshot;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the modified inodes of a diff report are now (their components from the root), which orders
 * HDFS's report: SnapshotDiffInfo sorts them by their current parents. Read committed, an index
 * read by id and the ancestors by id per inode; an inode no longer live is left out.
 */
final class SnapshotDiffPlaces extends Operation<Map<Long, List<String>>> {
  private final List<Long> ids;
  private final Map<Long, List<String>> places = new HashMap<>();

  SnapshotDiffPlaces(List<Long> ids) {
    this.ids = ids;
  }

  @Override
  public String name() {
    return "snapshotDiffPlaces";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    InodePaths paths = tx.inodePaths();
    for (long id : ids) {
      InodeRow row = paths.byId(id);
      String path = row == null ? null : paths.pathOf(row);
      if (path != null) {
        places.put(id, List.of(PathNames.components(path)));
      }
    }
  }

  @Override
  protected Map<Long, List<String>> execute(ExecutePhase tx) {
    return places;
  }
}
