package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One directory of a snapshot diff's walk ({@link SnapshotDiff}): its live children, then its
 * versions, read committed in one transaction (two pruned scans), from which its children at any
 * snapshot follow ({@link SnapshotView#childrenAt}). Where an entry with a version since the
 * earlier end had xattrs or an ACL (its flags), their kept rows (one more pruned scan) and the live
 * child's (one per such child) too, so that the diff compares them; where it has versions, the
 * entries inodes left by renames under a snapshot (one more pruned scan). A subtree diff reads its
 * directory's own entry the same way (a primary-key read and pruned scans of that name).
 */
final class SnapshotDiffDirectory extends Operation<SnapshotDiffDirectory.Rows> {
  /** A directory's rows: its live children, its entries' versions and the attributes they need. */
  record Rows(
      long id,
      List<InodeRow> live,
      List<InodeVersionRow> versions,
      List<XAttrVersionRow> keptAttributes,
      Map<Long, List<XAttrRow>> liveAttributes,
      List<SnapshotRenamedEntryRow> renamed) {
    List<InodeRow> childrenAt(long sid) {
      return SnapshotView.childrenAt(id, live, versions, sid);
    }

    /**
     * Whether inode {@code inodeId} left entry {@code name} by a rename between snapshots {@code
     * earlier} (included) and {@code later} (excluded) while a snapshot had it there: at the
     * earlier end the entry is HDFS's WithName reference, a rename's source, even where the inode
     * is back at the later end.
     */
    boolean leftBetween(String name, long inodeId, long earlier, long later) {
      for (SnapshotRenamedEntryRow r : renamed) {
        if (r.name().equals(name)
            && r.inodeId() == inodeId
            && r.snapshotId() >= earlier
            && r.snapshotId() < later) {
          return true;
        }
      }
      return false;
    }

    /**
     * The attribute rows of {@code inode}, entry {@code name} at snapshot {@code sid} (its version
     * there, else its live row); read only where a version since the earlier end can differ from
     * the live rows, so an inode whose rows were not read is the same at both ends.
     */
    List<XAttrRow> attributesAt(String name, InodeRow inode, long sid) {
      if (inode == null || !InodeFlags.hasAttributeRows(inode.permission())) {
        return List.of();
      }
      InodeVersionRow best = null;
      for (InodeVersionRow v : versions) {
        if (v.name().equals(name)
            && v.snapshotId() >= sid
            && (best == null || v.snapshotId() < best.snapshotId())) {
          best = v;
        }
      }
      if (best == null) {
        return liveAttributes.getOrDefault(inode.id(), List.of());
      }
      List<XAttrVersionRow> entry = new java.util.ArrayList<>();
      for (XAttrVersionRow r : keptAttributes) {
        if (r.entryName().equals(name)) {
          entry.add(r);
        }
      }
      return SnapshotAttributes.kept(entry, best.snapshotId(), inode.id());
    }
  }

  private final long id;

  /** Only this entry's rows (a subtree diff's directory), or null: all the directory's. */
  private final String only;

  /**
   * A sparse read ({@code only} null): the live rows of these names and of those with a version
   * from the earlier end on, not all the directory's children; null: all of them.
   */
  private final Set<String> sparse;

  private final long earlier;
  private Rows rows;

  SnapshotDiffDirectory(long id, String only, long earlier) {
    this(id, only, null, earlier);
  }

  private SnapshotDiffDirectory(long id, String only, Set<String> sparse, long earlier) {
    this.id = id;
    this.only = only;
    this.sparse = sparse;
    this.earlier = earlier;
  }

  /**
   * A directory of a walk pruned by the version log ({@link SnapshotDiffChanges}): only its entries
   * with a version from {@code earlier} on can differ between the ends, so its live rows are read
   * by name for those and for {@code walkedChildren} (the subdirectories the walk goes into), in
   * one batch, instead of all its children: its cost grows with its changes, not its size.
   */
  static SnapshotDiffDirectory sparse(long id, Set<String> walkedChildren, long earlier) {
    return new SnapshotDiffDirectory(id, null, walkedChildren, earlier);
  }

  @Override
  public String name() {
    return "snapshotDiffDirectory";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    List<InodeRow> live;
    List<InodeVersionRow> versions;
    if (only == null && sparse != null) {
      versions = tx.findByPartition(InodeVersionRow.TABLE, id, LockMode.READ_COMMITTED);
      Set<String> names = new java.util.TreeSet<>(sparse);
      for (InodeVersionRow v : versions) {
        if (v.snapshotId() >= earlier) {
          names.add(v.name());
        }
      }
      List<io.hops.dal.schema.Key> keys = new java.util.ArrayList<>();
      for (String n : names) {
        keys.add(Inodes.key(id, n));
      }
      live = new java.util.ArrayList<>();
      if (!keys.isEmpty()) {
        for (InodeRow r : tx.findBatch(InodeRow.TABLE, keys, LockMode.READ_COMMITTED)) {
          if (r != null) {
            live.add(r);
          }
        }
      }
    } else if (only == null) {
      live = SnapshotView.liveChildren(tx, id);
      versions = tx.findByPartition(InodeVersionRow.TABLE, id, LockMode.READ_COMMITTED);
    } else {
      InodeRow r = tx.find(InodeRow.TABLE, Inodes.key(id, only), LockMode.READ_COMMITTED);
      live = r == null ? List.of() : List.of(r);
      versions =
          tx.findByPartition(InodeVersionRow.TABLE, id, "name", only, LockMode.READ_COMMITTED);
    }
    Set<String> changedSince = new HashSet<>();
    boolean kept = false;
    for (InodeVersionRow v : versions) {
      if (v.snapshotId() >= earlier) {
        changedSince.add(v.name());
        kept |= v.present() && InodeFlags.hasAttributeRows(v.permission());
      }
    }
    Map<Long, List<XAttrRow>> liveAttributes = new HashMap<>();
    for (InodeRow r : live) {
      if (r.parentId() == id
          && changedSince.contains(r.name())
          && InodeFlags.hasAttributeRows(r.permission())) {
        liveAttributes.put(
            r.id(), tx.findByPartition(XAttrRow.TABLE, r.id(), LockMode.READ_COMMITTED));
      }
    }
    List<XAttrVersionRow> keptAttributes =
        kept ? tx.findByPartition(XAttrVersionRow.TABLE, id, LockMode.READ_COMMITTED) : List.of();
    // An entry left by a rename under a snapshot has a version at that snapshot: none, no rename.
    List<SnapshotRenamedEntryRow> renamed =
        versions.isEmpty()
            ? List.of()
            : only == null
                ? tx.findByPartition(SnapshotRenamedEntryRow.TABLE, id, LockMode.READ_COMMITTED)
                : tx.findByPartition(
                    SnapshotRenamedEntryRow.TABLE, id, "name", only, LockMode.READ_COMMITTED);
    rows = new Rows(id, live, versions, keptAttributes, liveAttributes, renamed);
  }

  @Override
  protected Rows execute(ExecutePhase tx) {
    return rows;
  }
}
