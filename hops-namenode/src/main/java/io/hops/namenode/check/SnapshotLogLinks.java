package io.hops.namenode.check;

import static io.hops.namenode.check.NamespaceCheck.byId;
import static io.hops.namenode.check.NamespaceCheck.problem;
import static io.hops.namenode.check.NamespaceCheck.stillThere;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.check.Problem.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The snapshot version log joined with what it names (docs/architecture.md, "Snapshots",
 * "Reclaiming versions"), a page at a time: every log row names an existing version (one batched
 * read per page; the two are written and reclaimed in one transaction); every pending row (a
 * reclaim or a release not finished: not a problem, the leader resumes it) is of a known kind and
 * names a directory, or an inode deleted since (its reclaim deletes what is left). Not checked:
 * that every version has its log row (the log is partitioned by the directory whose snapshots read
 * the version, found only up the path; and versions written before schema version 12 have none).
 */
final class SnapshotLogLinks {
  /**
   * The names of the pending rows: a reclaim after a deleteSnapshot, a hold's end, or a
   * createSnapshot after a deleted latest snapshot; a release.
   */
  private static final Set<String> PENDING_KINDS = Set.of("", "hold", "kept", "latest");

  private final NamespaceCheck check;

  SnapshotLogLinks(NamespaceCheck check) {
    this.check = check;
  }

  void run() throws StorageException {
    check.scan(
        SnapshotVersionLogRow.TABLE,
        "snapshot version log",
        (page, tx) -> {
          List<SnapshotVersionLogRow> logged = new ArrayList<>();
          List<Key> keys = new ArrayList<>();
          for (SnapshotVersionLogRow r : page) {
            if (r.dirId() == SnapshotVersionLogRow.PENDING) {
              checkPending(r, byId(tx, r.pendingDir()));
            } else {
              logged.add(r);
              keys.add(InodeVersionRow.TABLE.key(r.parentId(), r.name(), r.snapshotId()));
            }
          }
          if (keys.isEmpty()) {
            return;
          }
          List<InodeVersionRow> versions =
              tx.findBatch(InodeVersionRow.TABLE, keys, LockMode.READ_COMMITTED);
          for (int i = 0; i < logged.size(); i++) {
            SnapshotVersionLogRow r = logged.get(i);
            if (versions.get(i) == null && stillThere(tx, SnapshotVersionLogRow.TABLE, r)) {
              check.add(
                  problem(
                      Kind.SNAPSHOT_VERSION_LOG,
                      "the log of directory "
                          + r.dirId()
                          + " names the version of "
                          + r.name()
                          + " in inode "
                          + r.parentId()
                          + " at snapshot "
                          + r.snapshotId()
                          + ", which does not exist",
                      r.parentId()));
            }
          }
        });
  }

  private void checkPending(SnapshotVersionLogRow r, InodeRow dir) {
    String wrong = null;
    if (!PENDING_KINDS.contains(r.name())) {
      wrong = "of an unknown kind";
    } else if (r.pendingDir() <= 0) {
      wrong = "for no directory";
    } else if (dir != null && !dir.isDir()) {
      wrong = "for a file";
    }
    if (wrong != null) {
      check.add(
          problem(
              Kind.SNAPSHOT_VERSION_LOG,
              "a pending row '"
                  + r.name()
                  + "' at snapshot "
                  + r.snapshotId()
                  + " of inode "
                  + r.pendingDir()
                  + " is "
                  + wrong,
              r.pendingDir()));
    }
  }
}
