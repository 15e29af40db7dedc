package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.blocks.LeavingStatus;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/**
 * Stores what the admin monitor's last whole walk of a leaving datanode found ({@link
 * LeavingStatus}), keeping the time of its first walk; with no counts, forgets it (the datanode
 * left the leaving states). One primary-key read and a write, run fenced as the leader.
 */
final class RecordLeavingStatus extends Operation<Void> {
  private final String uuid;
  private final Walked found;
  private final long now;
  private VariableRow old;

  /** The counts of one whole walk. */
  record Walked(int underReplicated, int outOfServiceOnly, int underReplicatedInOpenFiles) {}

  /** {@code found} null: forget the datanode's status. */
  RecordLeavingStatus(String uuid, Walked found, long now) {
    this.uuid = uuid;
    this.found = found;
    this.now = now;
  }

  @Override
  public String name() {
    return "recordLeavingStatus";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    old = tx.find(VariableRow.TABLE, LeavingStatus.key(uuid), LockMode.EXCLUSIVE);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    if (found == null) {
      if (old != null) {
        tx.delete(VariableRow.TABLE, old);
      }
      return null;
    }
    long start = old == null ? now : old.longValue();
    VariableRow row =
        new LeavingStatus(
                start,
                found.underReplicated(),
                found.outOfServiceOnly(),
                found.underReplicatedInOpenFiles())
            .toRow(uuid);
    if (old == null) {
      tx.insert(VariableRow.TABLE, row);
    } else {
      tx.update(VariableRow.TABLE, row);
    }
    return null;
  }
}
