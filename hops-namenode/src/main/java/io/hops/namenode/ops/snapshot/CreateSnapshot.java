package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.config.Limits;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * {@code createSnapshot} (hdfs dfs -createSnapshot; HDFS FSDirSnapshotOp.createSnapshot and
 * DirectorySnapshottableFeature.addSnapshot), by the directory's owner or the superuser. The
 * directory's row is locked exclusively, its snapshots read (one pruned scan) and the snapshot id
 * counter locked; one row is written and the directory's {@code snapshot_id} advanced: O(1) in the
 * size of the tree (docs/architecture.md, "Snapshots"). It waits (backs off and is retried) while a
 * subtree operation runs at, above or below the directory ({@link SubtreeOperationsAround}), so no
 * snapshot has a tree that such an operation has half changed. When the directory's latest snapshot
 * was deleted while older ones remained, its {@code snapshot_id} still names it, so changes since
 * wrote versions at its id; from now on they write at the new one, and the versions at the old id
 * are judged after the answer ({@link ReclaimVersions}), as a {@code deleteSnapshot}'s are.
 */
public final class CreateSnapshot extends Operation<String> {
  private final Limits limits;
  private final SnapshotSettings settings;
  private final PermissionChecker pc;
  private final String path;
  private final String requestedName;
  private ResolvedPath resolved;
  private List<SnapshotRow> snapshots = List.of();
  private VariableRow counter;
  private SnapshotVersionLogRow reclaim;

  public CreateSnapshot(
      Limits limits, SnapshotSettings settings, PermissionChecker pc, String path, String name) {
    this.limits = limits;
    this.settings = settings;
    this.pc = pc;
    this.path = path;
    this.requestedName = name;
  }

  /**
   * After the commit: hands the reclaim of the versions written at a deleted latest snapshot's id
   * (docs/architecture.md, "Snapshots", "Reclaiming versions"), if this call started one, to {@code
   * reclaims}; its pending row lets the leader run it if this namenode stops first.
   */
  public void reclaimAfter(VersionReclaimer reclaims) {
    if (reclaim != null) {
      reclaims.submit(reclaim);
    }
  }

  @Override
  public String name() {
    return "createSnapshot";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target != null && target.isDir()) {
      snapshots = tx.findByPartition(SnapshotRow.TABLE, target.id(), LockMode.READ_COMMITTED);
      counter = tx.find(VariableRow.TABLE, SnapshotIds.KEY, LockMode.EXCLUSIVE);
      SubtreeOperationsAround.backOff(tx, resolved);
    }
  }

  @Override
  protected String execute(ExecutePhase tx) throws IOException {
    SnapshotRoots.checkOwner(pc, resolved, path);
    String name = requestedName;
    if (name == null || name.isEmpty()) {
      name = SnapshotRoots.defaultName();
    } else if (!DFSUtil.isValidNameForComponent(name)) {
      throw new InvalidPathException("Invalid snapshot name: " + name);
    }
    SnapshotRoots.checkName(limits, name, path);
    InodeRow dir = SnapshotRoots.snapshottable(resolved);
    int n = snapshots.size();
    int quota = SnapshotRoots.quota(dir);
    if (n + 1 > quota) {
      throw new SnapshotException(
          "Failed to add snapshot: there are already "
              + n
              + " snapshot(s) and the snapshot quota is "
              + quota);
    }
    int limit = settings.maxPerDirectory();
    if (n >= limit) {
      throw new SnapshotException(
          "Failed to create snapshot: there are already "
              + n
              + " snapshot(s) and the per directory snapshot limit is "
              + limit);
    }
    if (SnapshotRoots.byName(snapshots, name) != null) {
      throw new SnapshotException(
          "Failed to add snapshot: there is already a snapshot with the same name \""
              + name
              + "\".");
    }
    long now = System.currentTimeMillis();
    long id = SnapshotIds.take(tx, counter);
    tx.insert(
        SnapshotRow.TABLE,
        new SnapshotRow(
            dir.id(),
            id,
            name,
            now,
            dir.accessTime(),
            dir.permission(),
            dir.userId(),
            dir.groupId(),
            dir.childrenCount()));
    long latestKept = snapshots.stream().mapToLong(SnapshotRow::snapshotId).max().orElse(0);
    if (!snapshots.isEmpty() && dir.snapshotId() > latestKept) {
      // Its latest snapshot was deleted while older ones remained: changes since wrote their
      // versions at its id, the ones no older snapshot reads too; none is written there any more.
      reclaim = ReclaimVersions.afterLatestDeleted(dir.id(), dir.snapshotId());
      tx.insertIfAbsent(SnapshotVersionLogRow.TABLE, reclaim);
    }
    MutableInode m = MutableInode.of(dir);
    m.snapshotId = id;
    m.modificationTime = Math.max(m.modificationTime, now);
    tx.update(InodeRow.TABLE, m.toRow());
    return SnapshotRoots.snapshotPath(path, name);
  }
}
