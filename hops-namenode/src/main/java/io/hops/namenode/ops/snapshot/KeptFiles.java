package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;

/**
 * The release of files kept for snapshots (docs/architecture.md, "Snapshots"): a {@code
 * snapshot_kept_files} row {@code (dir, s, file)} says that snapshots of {@code dir} up to {@code
 * s} may have the deleted file; once the directory has no snapshot with an id at most {@code s},
 * none has it, and the row becomes a {@code released_files} one, whose blocks the leader frees in
 * bounded batches ({@code ReleaseBlocks}). One transaction takes at most {@link #batch} rows (a
 * pruned scan of the directory's partition, in snapshot order, locked exclusively so that two
 * releases never both take a row), only up to the directory's {@code snapshot_id} when the snapshot
 * was deleted (the latest taken, deleted or not): a file kept after it (by a later snapshot) is
 * never among them.
 */
final class KeptFiles {
  private final List<SnapshotKeptFileRow> freed = new ArrayList<>();
  private boolean more;

  private KeptFiles() {}

  /** Rows per transaction: each is read, deleted, and turned into a released file. */
  static int batch(LockPhase tx) {
    return Math.max(1, tx.maxRows() / 4);
  }

  /**
   * Reads the kept files of {@code dirId} that no snapshot in {@code remaining} may have, among
   * those kept up to snapshot {@code upTo}.
   */
  static KeptFiles read(LockPhase tx, long dirId, List<SnapshotRow> remaining, long upTo)
      throws StorageException {
    long oldest = Long.MAX_VALUE;
    for (SnapshotRow s : remaining) {
      oldest = Math.min(oldest, s.snapshotId());
    }
    long below = Math.min(oldest, upTo + 1);
    KeptFiles k = new KeptFiles();
    int batch = batch(tx);
    List<SnapshotKeptFileRow> rows =
        tx.scanFrom(SnapshotKeptFileRow.TABLE, dirId, null, batch, LockMode.EXCLUSIVE);
    for (SnapshotKeptFileRow r : rows) {
      if (r.snapshotId() < below) {
        k.freed.add(r);
      }
    }
    k.more = rows.size() == batch && k.freed.size() == batch;
    return k;
  }

  /** Buffers the release; answers whether more rows may be due (another transaction). */
  boolean release(ExecutePhase tx) throws StorageException {
    for (SnapshotKeptFileRow r : freed) {
      tx.delete(SnapshotKeptFileRow.TABLE, r);
      tx.insert(ReleasedFileRow.TABLE, new ReleasedFileRow(r.inodeId()));
    }
    return more;
  }
}
