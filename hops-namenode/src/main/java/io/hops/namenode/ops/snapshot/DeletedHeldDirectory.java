package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a delete of a held directory records, so that the files and versions its partitions keep go
 * once nothing can read them (docs/architecture.md, "Snapshots", "A hold's end"). A deleted
 * directory has no row to say where it was, and its partition of {@code snapshot_kept_files} may
 * hold rows past its holds, kept for the snapshots of the directory it sat below when deleted,
 * which no hold's end can hand on. The delete therefore makes that directory one more holder, as a
 * move to nowhere does: a hold row {@code (keeper, its latest snapshot, -dir)} in the partition of
 * the directory whose snapshots can read the deleted entry (whatever the entry had then: a
 * directory renamed within it since has an earlier entry there). And it writes, in the deleted
 * directory's own partition, the row of its largest hold ({@link EndedHolds}'s shape) at the latest
 * snapshot id taken: every row of the partition was written at an id up to it, and no row is
 * written there any more (no path reaches it). So the last of its holders' clearings, whichever it
 * is, releases the whole partition and judges every version logged under it ({@link ClearHold}): by
 * then no snapshot can read any of it.
 */
public final class DeletedHeldDirectory {
  private DeletedHeldDirectory() {}

  /** Whether {@code dir} is a held directory (a moved one's hold, not its own snapshots). */
  public static boolean held(InodeRow dir) {
    return dir.isDir() && !dir.snapshottable() && dir.snapshotId() > 0;
  }

  /**
   * The held directories among {@code deleted} (the inodes of one deleted subtree), each with the
   * latest hold among its own and those of the held directories above it there: the snapshots whose
   * charges on the side it was moved from count what is kept below it up to that id.
   */
  public static Map<Long, Long> holdsUpTo(Collection<InodeRow> deleted) {
    Map<Long, InodeRow> dirs = new HashMap<>();
    for (InodeRow r : deleted) {
      if (r.isDir()) {
        dirs.put(r.id(), r);
      }
    }
    Map<Long, Long> out = new TreeMap<>();
    for (InodeRow d : dirs.values()) {
      if (held(d)) {
        long upTo = d.snapshotId();
        for (InodeRow a = dirs.get(d.parentId()); a != null; a = dirs.get(a.parentId())) {
          if (held(a)) {
            upTo = Math.max(upTo, a.snapshotId());
          }
        }
        out.put(d.id(), upTo);
      }
    }
    return out;
  }

  /**
   * Whether {@code u}, a usage row in the partition of a held directory deleted now, charges a file
   * kept below it for a hold up to {@code upTo} ({@link #holdsUpTo}) to a directory above where the
   * held one was when the file went. HDFS's delete of a renamed directory takes its whole
   * destination side off the directories above ({@code INodeReference.DstReference}): the snapshots
   * that had it count it through the charge its move wrote on their side ({@code WithName}), so
   * such a row goes with the delete, its usage off its quota row.
   */
  public static boolean chargedWhereItWas(SnapshotKeptUsageRow u, long upTo) {
    return !u.untilReclaim() && !u.uncounted() && u.inodeId() > 0 && u.snapshotId() <= upTo;
  }

  /**
   * The rows a delete of the held {@code dirs} (in the transaction's registration) writes: each
   * one's hold by the directory that covers its entry, if any, and its own largest-hold row.
   */
  public static List<SnapshotKeptFileRow> rows(LockPhase tx, List<InodeRow> dirs)
      throws StorageException {
    if (dirs.isEmpty()) {
      return List.of();
    }
    VariableRow counter = tx.find(VariableRow.TABLE, SnapshotIds.KEY, LockMode.READ_COMMITTED);
    long latestTaken = counter == null ? 0 : counter.longValue() - 1;
    List<SnapshotKeptFileRow> out = new ArrayList<>();
    for (InodeRow d : dirs) {
      SnapshotKeptFileRow cover = tx.entryCoverOf(d);
      long largest = Math.max(latestTaken, d.snapshotId());
      if (cover != null && cover.dirId() != d.id() && cover.snapshotId() > 0) {
        out.add(SnapshotKeptFileRow.hold(cover.dirId(), cover.snapshotId(), d.id()));
        largest = Math.max(largest, cover.snapshotId());
      }
      out.add(SnapshotKeptFileRow.hold(d.id(), largest, d.id()));
    }
    return out;
  }
}
