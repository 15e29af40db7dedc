package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;

/**
 * The last transaction of a reclaim: the detached root with what goes with it (its quota row,
 * attributes), if it has no children left; false if a late writer added some.
 */
public final class DropDetachedRoot extends Operation<Boolean> {
  private final long id;
  private InodeRow row;
  private DeletedInodes related;

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
    return true;
  }
}
