package io.hops.namenode.housekeeping;

import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.ops.snapshot.ReclaimVersions;
import io.hops.namenode.ops.snapshot.ReleaseKeptFiles;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finishes the reclaims of snapshot versions that a namenode started after a {@code deleteSnapshot}
 * (or a hold's end) and did not finish, having stopped between its batches (docs/architecture.md,
 * "Snapshots", "Reclaiming versions"), and the releases of kept files cut short the same way
 * ({@link ReleaseKeptFiles}, "Release"): a pending row seen in two rounds in a row is drained here,
 * so that a reclaim its namenode is still running is left to it. Each batch is a transaction of its
 * own and judges from the database alone; the set of rows seen last round only delays the takeover.
 */
final class SnapshotVersionReclaims implements HousekeepingTask {
  /** Pending rows read per round. */
  private static final int PAGE = 100;

  private final TransactionRunner runner;
  private Set<SnapshotVersionLogRow> seenLastRound = Set.of();

  SnapshotVersionReclaims(TransactionRunner runner) {
    this.runner = runner;
  }

  @Override
  public String name() {
    return "snapshot version reclaim";
  }

  @Override
  public void runOnce() throws IOException {
    List<SnapshotVersionLogRow> pending = ReclaimVersions.pending(runner, PAGE);
    Set<SnapshotVersionLogRow> seen = new HashSet<>(pending);
    for (SnapshotVersionLogRow p : pending) {
      if (seenLastRound.contains(p)) {
        if (ReleaseKeptFiles.releases(p)) {
          ReleaseKeptFiles.resume(runner, p);
        } else {
          ReclaimVersions.drain(runner, p);
        }
        seen.remove(p);
      }
    }
    seenLastRound = seen;
  }
}
