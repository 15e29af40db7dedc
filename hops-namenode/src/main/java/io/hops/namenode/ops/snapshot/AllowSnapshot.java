package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshottableDirRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.ops.CheckPath;
import io.hops.namenode.ops.Checks;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * {@code allowSnapshot} (dfsadmin -allowSnapshot; HDFS SnapshotManager.setSnapshottable), for the
 * superuser, checked by the caller: the directory's row locked exclusively and flagged, and an
 * entry in {@code snapshottable_dirs}. A directory with a snapshottable ancestor or descendant is
 * refused as HDFS refuses nested snapshottable directories; one already snapshottable is left as it
 * is. Allows, disallows and snapshot creations serialize on the snapshot id counter's row, so two
 * allows cannot both pass the nesting check (docs/architecture.md, "Snapshots"); the directories
 * above are locked shared, so a rename of one cannot slip a snapshottable directory above it past
 * the check, and the allow backs off while a subtree operation runs around the directory ({@link
 * SubtreeOperationsAround}). A directory held for the snapshots it was moved away from is allowed
 * as HDFS allows it; its hold stays its {@code snapshot_id} and is also written in its own
 * partition of {@code snapshot_kept_files}, so that the snapshots it takes and deletes do not end
 * it ({@link KeptFiles}, {@link DeleteSnapshot}).
 */
public final class AllowSnapshot extends Operation<Void> {
  private final PermissionChecker pc;
  private final String path;
  private ResolvedPath resolved;
  private List<SnapshottableDirs.Dir> dirs = List.of();

  public AllowSnapshot(PermissionChecker pc, String path) {
    this.pc = pc;
    this.path = path;
  }

  @Override
  public String name() {
    return "allowSnapshot";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    // The ancestors locked shared: a rename of one (which locks it exclusively) is wholly before
    // this allow, and its result is what the nesting check reads, or wholly after, and its own
    // check sees this directory snapshottable.
    resolved = tx.resolveUnderLockedAncestors(path);
    InodeRow target = resolved.target();
    if (target != null && target.isDir()) {
      tx.find(VariableRow.TABLE, SnapshotIds.KEY, LockMode.EXCLUSIVE);
      SubtreeOperationsAround.backOff(tx, resolved);
      dirs = SnapshottableDirs.read(tx);
    }
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow dir = CheckPath.directory(resolved);
    checkNotNested(dir);
    if (dir.snapshottable()) {
      return null;
    }
    MutableInode m = MutableInode.of(dir);
    m.snapshottable = true;
    tx.update(InodeRow.TABLE, m.toRow());
    if (dir.snapshotId() > 0) {
      tx.insertIfAbsent(
          SnapshotKeptFileRow.TABLE,
          SnapshotKeptFileRow.hold(dir.id(), dir.snapshotId(), dir.id()));
    }
    if (dirs.stream().noneMatch(d -> d.row().id() == dir.id())) {
      tx.insert(SnapshottableDirRow.TABLE, new SnapshottableDirRow(dir.id()));
    }
    return null;
  }

  /** SnapshotManager.checkNestedSnapshottable, over each snapshottable directory in turn. */
  private void checkNotNested(InodeRow dir) throws SnapshotException {
    for (SnapshottableDirs.Dir s : dirs) {
      if (s.row().id() == dir.id()) {
        continue;
      }
      if (s.ancestors().contains(dir.id())) {
        throw new SnapshotException(
            "Nested snapshottable directories not allowed: path="
                + path
                + ", the subdirectory "
                + s.path()
                + " is already a snapshottable directory.");
      }
      if (isAncestorOfTarget(s.row().id())) {
        throw new SnapshotException(
            "Nested snapshottable directories not allowed: path="
                + path
                + ", the ancestor "
                + s.path()
                + " is already a snapshottable directory.");
      }
    }
  }

  private boolean isAncestorOfTarget(long id) {
    List<InodeRow> inodes = resolved.inodes();
    for (int i = 0; i < inodes.size() - 1; i++) {
      if (inodes.get(i).id() == id) {
        return true;
      }
    }
    return false;
  }
}
