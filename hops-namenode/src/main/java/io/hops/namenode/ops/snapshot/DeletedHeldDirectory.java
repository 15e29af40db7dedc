package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;

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
