package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.election.ClusterClock;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.Collections;
import java.util.List;

/**
 * Copies of some blocks of one file that did not arrive in time (HDFS PendingReconstructionBlocks'
 * timeout, processPendingReconstructions): their pending rows go and the blocks are queued for a
 * replication check again, which schedules new copies if still needed. The block rows are locked
 * exclusively (a copy that arrives meanwhile waits): 3 B + W.
 */
final class PendingTimeout extends Operation<Integer> {
  private final ClusterClock clock;
  private final long inodeId;
  private final List<Long> blockIds;
  private final long cutoff;
  private List<BlockInfoRow> blocks;
  private List<PendingBlockRow> pending;
  private List<UnderReplicatedBlockRow> marks;

  /**
   * Pending rows of {@code blockIds} (sorted) older than {@code cutoff} (epoch ms by {@code clock})
   * time out.
   */
  PendingTimeout(ClusterClock clock, long inodeId, List<Long> blockIds, long cutoff) {
    this.clock = clock;
    this.inodeId = inodeId;
    this.blockIds = blockIds;
    this.cutoff = cutoff;
  }

  @Override
  public String name() {
    return "pendingReplicationTimeout";
  }

  @Override
  public Object partitionHint() {
    return inodeId;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    blocks = read(tx, BlockInfoRow.TABLE, LockMode.EXCLUSIVE);
    pending = read(tx, PendingBlockRow.TABLE, LockMode.READ_COMMITTED);
    marks = read(tx, UnderReplicatedBlockRow.TABLE, LockMode.READ_COMMITTED);
  }

  private <R extends Record> List<R> read(LockPhase tx, Table<R> table, LockMode mode)
      throws StorageException {
    List<Key> keys = blockIds.stream().map(b -> table.key(inodeId, b)).toList();
    return keys.size() == 1
        ? Collections.singletonList(tx.find(table, keys.get(0), mode))
        : tx.findBatch(table, keys, mode);
  }

  @Override
  protected Integer execute(ExecutePhase tx) throws IOException {
    int timedOut = 0;
    long now = clock.now(); // the queue's ages are compared by the next leader too
    for (int i = 0; i < blockIds.size(); i++) {
      PendingBlockRow p = pending.get(i);
      if (p == null || p.timestamp() >= cutoff) {
        continue; // arrived, or rescheduled meanwhile
      }
      tx.delete(PendingBlockRow.TABLE, p);
      timedOut++;
      BlockInfoRow b = blocks.get(i);
      if (b != null && b.underConstructionState() == BlockState.COMPLETE && marks.get(i) == null) {
        tx.insert(
            UnderReplicatedBlockRow.TABLE,
            new UnderReplicatedBlockRow(inodeId, b.blockId(), 0, now, -1));
      }
    }
    return timedOut;
  }
}
