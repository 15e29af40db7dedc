package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;

/**
 * One directory of a snapshot diff's walk ({@link SnapshotDiff}): its live children, then its
 * versions, read committed in one transaction (two pruned scans), from which its children at any
 * snapshot follow ({@link SnapshotView#childrenAt}).
 */
final class SnapshotDiffDirectory extends Operation<SnapshotDiffDirectory.Rows> {
  /** A directory's rows: its live children and its entries' versions. */
  record Rows(long id, List<InodeRow> live, List<InodeVersionRow> versions) {
    List<InodeRow> childrenAt(long sid) {
      return SnapshotView.childrenAt(id, live, versions, sid);
    }
  }

  private final long id;
  private Rows rows;

  SnapshotDiffDirectory(long id) {
    this.id = id;
  }

  @Override
  public String name() {
    return "snapshotDiffDirectory";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    List<InodeRow> live = SnapshotView.liveChildren(tx, id);
    rows =
        new Rows(id, live, tx.findByPartition(InodeVersionRow.TABLE, id, LockMode.READ_COMMITTED));
  }

  @Override
  protected Rows execute(ExecutePhase tx) {
    return rows;
  }
}
