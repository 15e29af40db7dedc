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
 * versions, and one of its rows when a delete too big for one transaction detached it with them:
 * the whole deleted subtree is read in the summary's one transaction.
 *
 * <p>{@code keptByTruncates} is the space of the blocks truncates keep for the snapshots of live
 * files ({@link CopyOnTruncate#keptSpace}): HDFS counts a file's diff blocks in its own space, so
 * it adds to the summary's space and not to its snapshot figures. A file truncated in place after a
 * snapshot has its entry's version in its directory's partition, read here anyway, so only such
 * files are asked for tails: one batched read, and one of the tails' blocks where any exist.
 */
public record SnapshotContent(
    long length, long files, long dirs, long space, long keptByTruncates) {
  public static final SnapshotContent NONE = new SnapshotContent(0, 0, 0, 0, 0);

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
    Set<Long> counted = new HashSet<>();
    Map<Long, Short> truncated = new HashMap<>();
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
      Set<String> versioned = new HashSet<>();
      for (InodeVersionRow v : versions) {
        versioned.add(v.name());
      }
      Map<String, Long> live = new HashMap<>();
      for (InodeRow r : liveChildren(tx, dir)) {
        live.put(r.name(), r.id());
        if (!r.isDir() && !r.fileStoredInDb() && versioned.contains(r.name())) {
          truncated.put(r.id(), r.replication());
        }
      }
      for (InodeVersionRow v : seen(versions, ids)) {
        Long now = live.get(v.name());
        if ((now == null || now != v.id()) && counted.add(v.id())) {
          count(tx, v, ids, counted, c);
        }
      }
    }
    return new SnapshotContent(c[0], c[1], c[2], c[3], CopyOnTruncate.keptSpace(tx, truncated));
  }

  /**
   * What a file's content summary adds for the snapshots: the space of the blocks truncates keep
   * for them ({@link CopyOnTruncate#keptSpace}), for a file a snapshottable directory with
   * snapshots covers ({@code covered}) or that a rename marked as some snapshot's; nothing else.
   */
  public static SnapshotContent ofFile(LockPhase tx, InodeRow file, boolean covered)
      throws StorageException {
    if (file.isDir() || file.fileStoredInDb() || (!covered && file.snapshotId() == 0)) {
      return NONE;
    }
    return new SnapshotContent(
        0, 0, 0, 0, CopyOnTruncate.keptSpace(tx, Map.of(file.id(), file.replication())));
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

  /**
   * Adds an inode the snapshots alone hold: a file, or a directory with what it held, each inode
   * once ({@code counted}); {@code ids} are the covering directory's snapshots.
   */
  private static void count(
      LockPhase tx, InodeVersionRow v, TreeSet<Long> ids, Set<Long> counted, long[] c)
      throws StorageException {
    // A directory deleted too big for one transaction is detached with its rows (held for the
    // snapshots): below it, an entry without a version from the delete's snapshot on is its row.
    boolean detached =
        v.isDir()
            && tx.find(InodeRow.TABLE, Inodes.detachedKey(v.id()), LockMode.READ_COMMITTED) != null;
    count(tx, v, v.snapshotId(), detached, ids, counted, c);
  }

  private static void count(
      LockPhase tx,
      InodeVersionRow v,
      long deletedAt,
      boolean detached,
      TreeSet<Long> ids,
      Set<Long> counted,
      long[] c)
      throws StorageException {
    if (!v.isDir()) {
      c[0] += v.size();
      c[1] += v.symlink() == null ? 1 : 0; // HDFS's snapshot counts leave symlinks out
      c[3] += v.size() * v.replication();
      return;
    }
    c[2]++;
    for (InodeVersionRow child : seen(heldBy(tx, v.id(), deletedAt, detached), ids)) {
      if (counted.add(child.id())) {
        count(tx, child, deletedAt, detached, ids, counted, c);
      }
    }
  }

  /**
   * The versions of deleted directory {@code dir}'s entries: its delete (or an earlier change)
   * versioned each at the snapshot it was deleted at, {@code deletedAt}. Below a detached directory
   * an entry without a version from that snapshot on is its live row, unchanged since: it counts as
   * a version at {@code deletedAt}.
   */
  private static List<InodeVersionRow> heldBy(
      LockPhase tx, long dir, long deletedAt, boolean detached) throws StorageException {
    List<InodeVersionRow> versions =
        new ArrayList<>(tx.findByPartition(InodeVersionRow.TABLE, dir, LockMode.READ_COMMITTED));
    if (detached) {
      Set<String> answered = new HashSet<>();
      for (InodeVersionRow v : versions) {
        if (v.snapshotId() >= deletedAt) {
          answered.add(v.name());
        }
      }
      for (InodeRow r : tx.findByPartition(InodeRow.TABLE, dir, LockMode.READ_COMMITTED)) {
        if (!answered.contains(r.name())) {
          versions.add(InodeVersionRow.of(dir, r.name(), deletedAt, r));
        }
      }
    }
    return versions;
  }

  private static List<InodeRow> liveChildren(LockPhase tx, long dir) throws StorageException {
    return dir == Inodes.ROOT_ID
        ? tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, LockMode.READ_COMMITTED)
        : tx.findByPartition(InodeRow.TABLE, dir, LockMode.READ_COMMITTED);
  }
}
