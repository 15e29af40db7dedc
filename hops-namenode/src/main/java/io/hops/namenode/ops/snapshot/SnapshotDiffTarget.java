package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Where a diff report's rename goes (HDFS's DirectorySnapshottableFeature.findRenameTargetPath,
 * docs/architecture.md, "Diff reports"): an inode that left an entry of a walked directory while a
 * snapshot had it there ({@link SnapshotRenamedEntryRow}, HDFS's WithName) is followed to its place
 * at the later end as HDFS follows its reference: at each level up, the first entry it left at or
 * after the later snapshot (by that entry's last snapshot), else its current place; the path is the
 * names up to the diff's directory, null when the chain does not reach it or meets an inode no
 * longer live. So, as in HDFS, an inode away at the later snapshot and back since is reported at
 * its current place. Also its state at the later end, as HDFS's own diffs of it give it: the
 * earliest version at that snapshot or later of an entry it had (one it left, or its current one)
 * that names it, else its live row; and its xattrs and ACL then. Read committed: an index scan of
 * the renamed entries and a read by id per level; a pruned scan of each entry's versions, and of
 * its kept attributes when it has any.
 */
final class SnapshotDiffTarget extends Operation<SnapshotDiffTarget.Found> {
  /**
   * The paths (null: no rename), the inode's row and attributes at the later end (row null: same),
   * and its live row (null: none).
   */
  record Found(List<String> path, InodeRow atLater, List<XAttrRow> attributes, InodeRow live) {}

  private final long inodeId;
  private final long later;
  private final long scopeId;
  private Found found;

  SnapshotDiffTarget(long inodeId, long later, long scopeId) {
    this.inodeId = inodeId;
    this.later = later;
    this.scopeId = scopeId;
  }

  @Override
  public String name() {
    return "snapshotDiffTarget";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    InodePaths paths = tx.inodePaths();
    List<SnapshotRenamedEntryRow> own = renamedEntries(tx, inodeId);
    InodeRow live = paths.byId(inodeId);
    List<String> names = new ArrayList<>();
    List<String> path = null;
    long cur = inodeId;
    List<SnapshotRenamedEntryRow> left = own;
    InodeRow curLive = live;
    while (true) {
      if (cur == scopeId) {
        path = reversed(names);
        break;
      }
      if (cur == Inodes.ROOT_ID) {
        break;
      }
      SnapshotRenamedEntryRow at = firstAtOrAfter(left, later);
      long parent;
      if (at != null) {
        names.add(at.name());
        parent = at.parentId();
      } else if (curLive != null) {
        names.add(curLive.name());
        parent = curLive.parentId();
      } else {
        break;
      }
      cur = parent;
      left = renamedEntries(tx, cur);
      curLive = paths.byId(cur);
    }
    InodeRow atLater = null;
    List<XAttrRow> attributes = List.of();
    if (path != null) {
      atLater = stateAtLater(tx, own, live);
      if (atLater != null && InodeFlags.hasAttributeRows(atLater.permission())) {
        attributes = attributesAtLater(tx, atLater, live);
      }
    }
    found = new Found(path, atLater, attributes, live);
  }

  /** The entry version that answers the later end, if one names the inode; else its live row. */
  private InodeVersionRow best;

  private InodeRow stateAtLater(LockPhase tx, List<SnapshotRenamedEntryRow> own, InodeRow live)
      throws IOException {
    if (later == SnapshotDiffScope.CURRENT) {
      return live;
    }
    List<SnapshotRenamedEntryRow> entries = new ArrayList<>(own);
    if (live != null) {
      entries.add(new SnapshotRenamedEntryRow(live.parentId(), live.name(), later, inodeId));
    }
    for (SnapshotRenamedEntryRow e : entries) {
      for (InodeVersionRow v :
          tx.findByPartition(
              InodeVersionRow.TABLE, e.parentId(), "name", e.name(), LockMode.READ_COMMITTED)) {
        if (v.present()
            && v.id() == inodeId
            && v.snapshotId() >= later
            && (best == null || v.snapshotId() < best.snapshotId())) {
          best = v;
        }
      }
    }
    return best != null ? best.toInode(Inodes.partitionOf(best.parentId(), best.name())) : live;
  }

  private List<XAttrRow> attributesAtLater(LockPhase tx, InodeRow atLater, InodeRow live)
      throws IOException {
    if (best == null) {
      return live == null
          ? List.of()
          : tx.findByPartition(XAttrRow.TABLE, inodeId, LockMode.READ_COMMITTED);
    }
    List<XAttrVersionRow> entry = new ArrayList<>();
    for (XAttrVersionRow r :
        tx.findByPartition(XAttrVersionRow.TABLE, best.parentId(), LockMode.READ_COMMITTED)) {
      if (r.entryName().equals(best.name())) {
        entry.add(r);
      }
    }
    return SnapshotAttributes.kept(entry, best.snapshotId(), atLater.id());
  }

  private static List<SnapshotRenamedEntryRow> renamedEntries(LockPhase tx, long id)
      throws IOException {
    List<SnapshotRenamedEntryRow> rows =
        new ArrayList<>(
            tx.findByIndex(SnapshotRenamedEntryRow.TABLE, "inode_id", id, LockMode.READ_COMMITTED));
    rows.sort(Comparator.comparingLong(SnapshotRenamedEntryRow::snapshotId));
    return rows;
  }

  /** HDFS's WithCount.getParentRef: the first entry left at or after {@code sid}, or null. */
  private static SnapshotRenamedEntryRow firstAtOrAfter(
      List<SnapshotRenamedEntryRow> left, long sid) {
    for (SnapshotRenamedEntryRow e : left) {
      if (e.snapshotId() >= sid) {
        return e;
      }
    }
    return null;
  }

  private static List<String> reversed(List<String> names) {
    List<String> out = new ArrayList<>(names);
    Collections.reverse(out);
    return List.copyOf(out);
  }

  @Override
  protected Found execute(ExecutePhase tx) {
    return found;
  }
}
