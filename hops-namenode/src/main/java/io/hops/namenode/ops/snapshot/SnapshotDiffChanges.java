package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.SnapshotLogGaps;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The directories a diff report from snapshot {@code earlier} on must read (docs/architecture.md,
 * "Diff reports", which directories): a directory's children differ between two ends only through
 * versions in its partition at ids from the earlier end on, and {@code snapshot_version_log} names
 * the parent of every version written below the snapshottable directory, by snapshot id. So the
 * directories with versions from {@code earlier} on, and their ancestors now (up to the
 * snapshottable directory), are the ones the walk enters; one it does not enter has the same
 * children at both ends. The ancestors now reach every place the walk meets a changed directory at:
 * an entry left between then and now (a rename, a delete) has a version from {@code earlier} on in
 * its directory, which is in the set too, and so on up. Versions of a later id than the later end
 * are taken too, for that: the cost grows with the changes since the earlier end, not with the
 * tree.
 *
 * <p>Null (walk every directory) when the log cannot be trusted from {@code earlier} on (versions
 * older than the log, {@link SnapshotLogStart}; versions below a held directory inside this one,
 * logged under the held one, {@link SnapshotLogGaps}) or names more than {@link #MAX_ROWS}
 * versions: a walk of the tree then costs about as much. Read committed: a range scan of the
 * directory's log partition from {@code earlier}, and one read by id (the unique index) per
 * directory up from the changed ones, each once.
 */
final class SnapshotDiffChanges extends Operation<SnapshotDiffChanges.Walked> {
  /**
   * The directories to read ({@code ids}), and by directory the names of its children among them
   * (as the reads up found them now), which a sparse read of the directory reads by name.
   */
  record Walked(Set<Long> ids, Map<Long, Set<String>> children) {
    Set<String> childrenOf(long dirId) {
      return children.getOrDefault(dirId, Set.of());
    }
  }

  /** Past this many log rows the walk of the whole tree is as cheap: it reads them all anyway. */
  static final int MAX_ROWS = 100_000;

  private final long dirId;
  private final long earlier;
  private Walked walked;

  SnapshotDiffChanges(long dirId, long earlier) {
    this.dirId = dirId;
    this.earlier = earlier;
  }

  @Override
  public String name() {
    return "snapshotDiffChanges";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    VariableRow since = tx.find(VariableRow.TABLE, SnapshotLogStart.KEY, LockMode.READ_COMMITTED);
    VariableRow gap =
        tx.find(VariableRow.TABLE, SnapshotLogGaps.key(dirId), LockMode.READ_COMMITTED);
    if (!SnapshotLogStart.covers(since, earlier) || !SnapshotLogGaps.noneFrom(gap, earlier)) {
      return;
    }
    Set<Long> changed = new HashSet<>();
    int page = Math.max(1, tx.maxRows() / 8);
    int read = 0;
    Key after = SnapshotVersionLogRow.TABLE.key(dirId, earlier - 1, Long.MAX_VALUE, "");
    while (true) {
      List<SnapshotVersionLogRow> rows =
          tx.scanFrom(SnapshotVersionLogRow.TABLE, dirId, after, page, LockMode.READ_COMMITTED);
      for (SnapshotVersionLogRow r : rows) {
        changed.add(r.parentId());
        after = SnapshotVersionLogRow.TABLE.keyOf(r);
      }
      read += rows.size();
      if (read > MAX_ROWS) {
        return;
      }
      if (rows.size() < page) {
        break;
      }
    }
    walked = withAncestors(tx.inodePaths(), changed);
  }

  /** {@code changed} and every directory above each now, up to the snapshottable directory. */
  private Walked withAncestors(InodePaths paths, Set<Long> changed) throws IOException {
    Set<Long> out = new HashSet<>(changed);
    Map<Long, Set<String>> children = new HashMap<>();
    Set<Long> climbed = new HashSet<>();
    Deque<Long> up = new ArrayDeque<>(changed);
    while (!up.isEmpty()) {
      long id = up.poll();
      if (id == dirId || id == Inodes.ROOT_ID || !climbed.add(id)) {
        continue;
      }
      InodeRow row = paths.byId(id);
      if (row == null || row.parentId() == Inodes.DETACHED) {
        continue; // deleted since: its entry's version names its directory, in the set already
      }
      out.add(row.parentId());
      children.computeIfAbsent(row.parentId(), p -> new HashSet<>()).add(row.name());
      up.add(row.parentId());
    }
    return new Walked(out, children);
  }

  @Override
  protected Walked execute(ExecutePhase tx) {
    return walked;
  }
}
