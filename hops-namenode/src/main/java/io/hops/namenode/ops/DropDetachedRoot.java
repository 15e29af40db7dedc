package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;

/**
 * The last transaction of a reclaim: the detached root with what goes with it (its quota row,
 * attributes, and for a subtree detached below a snapshot its charge's rows, one per directory that
 * was above its old place or that a rename carried the charge to, whose quota rows lose the root
 * now), if it has no children left; false if a late writer added some.
 */
public final class DropDetachedRoot extends Operation<Boolean> {
  private final long id;
  private InodeRow row;
  private DeletedInodes related;
  private List<SnapshotKeptUsageRow> charges = List.of();
  private AncestorQuotas quotas = AncestorQuotas.none();

  public DropDetachedRoot(long id) {
    this.id = id;
  }

  @Override
  public String name() {
    return "subtreeReclaimDrop";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    row = tx.find(InodeRow.TABLE, Inodes.detachedKey(id), LockMode.EXCLUSIVE);
    if (row != null && row.childrenCount() == 0) {
      // The quota directories still charged with it (a subtree detached below a snapshot), in the
      // order of docs/architecture.md, "Lock order": the usage rows, then the quota rows.
      charges =
          tx.findByPartition(SnapshotKeptUsageRow.TABLE, id, LockMode.EXCLUSIVE).stream()
              .filter(u -> u.untilReclaimOf(id))
              .toList();
      quotas =
          AncestorQuotas.lockIds(tx, charges.stream().map(SnapshotKeptUsageRow::quotaId).toList());
      related = DeletedInodes.read(tx, List.of(row));
    }
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    if (row == null) {
      return true;
    }
    if (related == null) {
      return false;
    }
    tx.delete(InodeRow.TABLE, row);
    related.delete(tx);
    for (SnapshotKeptUsageRow u : charges) {
      tx.delete(SnapshotKeptUsageRow.TABLE, u);
    }
    quotas.add(-1, 0);
    quotas.flush(tx);
    return true;
  }
}
