package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the snapshots of a subtree hold besides its live inodes, as HDFS counts it in {@code
 * getContentSummary} (DirectoryWithSnapshotFeature.computeContentSummary4Snapshot): every child a
 * directory had at a snapshot that still exists and no longer has under that name (deleted,
 * replaced, or renamed away, which HDFS also counts through its reference), counted once, with
 * everything a deleted directory held (docs/architecture.md, "Snapshots"). The counts add to the
 * summary's and are its {@code snapshot...} figures.
 *
 * <p>Cost: nothing for a directory that no snapshottable directory with snapshots covers; else a
 * pruned scan of the directory's versions, and when it has some, of its live children and (once per
 * snapshottable directory) of its snapshots, read committed; a deleted directory adds a scan of its
 * versions.
 */
public record SnapshotContent(long length, long files, long dirs, long space) {
  public static final SnapshotContent NONE = new SnapshotContent(0, 0, 0, 0);

  /**
   * Counts what the snapshots hold below the directories of {@code covered}, each mapped to the id
   * of the snapshottable directory (with snapshots) that covers it.
   */
  public static SnapshotContent read(LockPhase tx, Map<Long, Long> covered)
      throws StorageException {
    if (covered.isEmpty()) {
      return NONE;
    }
    Map<Long, TreeSet<Long>> snapshots = new HashMap<>();
    long[] c = new long[4];
    for (Map.Entry<Long, Long> e : covered.entrySet()) {
      long dir = e.getKey();
      List<InodeVersionRow> versions =
          tx.findByPartition(InodeVersionRow.TABLE, dir, LockMode.READ_COMMITTED);
      if (versions.isEmpty()) {
        continue;
      }
      TreeSet<Long> ids = snapshots.get(e.getValue());
      if (ids == null) {
        ids = new TreeSet<>();
        for (SnapshotRow s :
            tx.findByPartition(SnapshotRow.TABLE, e.getValue(), LockMode.READ_COMMITTED)) {
          ids.add(s.snapshotId());
        }
        snapshots.put(e.getValue(), ids);
      }
      Map<String, Long> live = new HashMap<>();
      for (InodeRow r : liveChildren(tx, dir)) {
        live.put(r.name(), r.id());
      }
      Set<Long> counted = new HashSet<>();
      for (InodeVersionRow v : seen(versions, ids)) {
        Long now = live.get(v.name());
        if ((now == null || now != v.id()) && counted.add(v.id())) {
          count(tx, v, c);
        }
      }
    }
    return new SnapshotContent(c[0], c[1], c[2], c[3]);
  }

  /**
   * The present versions some existing snapshot reads: a version at s answers the snapshots after
   * the entry's previous version and up to s.
   */
  private static List<InodeVersionRow> seen(List<InodeVersionRow> versions, TreeSet<Long> ids) {
    List<InodeVersionRow> sorted = new ArrayList<>(versions);
    sorted.sort(
        Comparator.comparing(InodeVersionRow::name).thenComparingLong(InodeVersionRow::snapshotId));
    List<InodeVersionRow> out = new ArrayList<>();
    String name = null;
    long previous = 0;
    for (InodeVersionRow v : sorted) {
      if (!v.name().equals(name)) {
        name = v.name();
        previous = 0;
      }
      Long s = ids.ceiling(previous + 1);
      if (v.present() && s != null && s <= v.snapshotId()) {
        out.add(v);
      }
      previous = v.snapshotId();
    }
    return out;
  }

  /** Adds an inode the snapshots alone hold: a file, or a directory with what it held. */
  private static void count(LockPhase tx, InodeVersionRow v, long[] c) throws StorageException {
    if (!v.isDir()) {
      c[0] += v.size();
      c[1] += v.symlink() == null ? 1 : 0; // HDFS's snapshot counts leave symlinks out
      c[3] += v.size() * v.replication();
      return;
    }
    c[2]++;
    // A deleted directory's entries were versioned by its delete (or earlier): the latest version
    // of each name is what it held.
    Map<String, InodeVersionRow> latest = new HashMap<>();
    for (InodeVersionRow child :
        tx.findByPartition(InodeVersionRow.TABLE, v.id(), LockMode.READ_COMMITTED)) {
      InodeVersionRow seen = latest.get(child.name());
      if (seen == null || seen.snapshotId() < child.snapshotId()) {
        latest.put(child.name(), child);
      }
    }
    for (InodeVersionRow child : latest.values()) {
      if (child.present()) {
        count(tx, child, c);
      }
    }
  }

  private static List<InodeRow> liveChildren(LockPhase tx, long dir) throws StorageException {
    return dir == Inodes.ROOT_ID
        ? tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, LockMode.READ_COMMITTED)
        : tx.findByPartition(InodeRow.TABLE, dir, LockMode.READ_COMMITTED);
  }
}
