package io.hops.namenode.blocks;

import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Several replica changes of one datanode report in one transaction: the differences a full block
 * report finds, a batch at a time, so a report costs one commit per batch rather than per block.
 * Each change reads and writes what {@link ReplicaChange} does; the block rows are locked in block
 * id order, the same order in every batch, so two batches never wait for each other in a cycle.
 */
public final class ReplicaChanges extends Operation<Void> {
  private final List<ReplicaChange> changes;

  public ReplicaChanges(List<ReplicaChange> changes) {
    this.changes = new ArrayList<>(changes);
    this.changes.sort(Comparator.comparingLong(ReplicaChange::blockId));
  }

  @Override
  public String name() {
    return "blockReportBatch";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    for (ReplicaChange c : changes) {
      c.lock(tx);
    }
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    for (ReplicaChange c : changes) {
      c.execute(tx);
    }
    return null;
  }
}
