package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.election.ClusterClock;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.ChangedStorages;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Forgets what one storage of a dead datanode, or a failed storage, held, for a batch of blocks
 * (HDFS BlockManager.removeBlocksAssociatedTo): its replica, pipeline, corrupt and excess rows go,
 * and each complete block that lost a replica is queued for a replication check. The block rows are
 * locked exclusively, in key order, which protects their replica rows; inodes are not locked. One
 * batched read per table: 6 B + W.
 */
final class RemoveStorageReplicas extends Operation<Integer> {
  /** A block of a file. */
  record FileBlock(long inodeId, long blockId) {}

  private final ClusterClock clock;
  private final int storageId;
  private final List<FileBlock> batch;
  private final boolean noteChange;
  private List<BlockInfoRow> blocks;
  private List<ReplicaRow> replicas;
  private List<CorruptReplicaRow> corrupt;
  private List<ExcessReplicaRow> excess;
  private List<ReplicaUnderConstructionRow> pipeline;
  private List<UnderReplicatedBlockRow> marks;

  /**
   * {@code batch} in key order (inode id, block id); with {@code noteChange} (the cluster starts:
   * {@link ChangedStorages#noting}) the storage is noted changed for safe mode's judgement.
   */
  RemoveStorageReplicas(
      ClusterClock clock, int storageId, List<FileBlock> batch, boolean noteChange) {
    this.clock = clock;
    this.storageId = storageId;
    this.batch = batch;
    this.noteChange = noteChange;
  }

  @Override
  public String name() {
    return "removeDeadReplicas";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    blocks =
        read(tx, BlockInfoRow.TABLE, LockMode.EXCLUSIVE, (i, b) -> BlockInfoRow.TABLE.key(i, b));
    replicas = read(tx, ReplicaRow.TABLE, rc(), (i, b) -> ReplicaRow.TABLE.key(i, b, storageId));
    corrupt =
        read(
            tx,
            CorruptReplicaRow.TABLE,
            rc(),
            (i, b) -> CorruptReplicaRow.TABLE.key(i, b, storageId));
    excess =
        read(
            tx,
            ExcessReplicaRow.TABLE,
            rc(),
            (i, b) -> ExcessReplicaRow.TABLE.key(i, b, storageId));
    pipeline =
        read(
            tx,
            ReplicaUnderConstructionRow.TABLE,
            rc(),
            (i, b) -> ReplicaUnderConstructionRow.TABLE.key(i, b, storageId));
    marks =
        read(
            tx,
            UnderReplicatedBlockRow.TABLE,
            rc(),
            (i, b) -> UnderReplicatedBlockRow.TABLE.key(i, b));
  }

  private static LockMode rc() {
    return LockMode.READ_COMMITTED;
  }

  /** One batched read of the batch's keys in {@code table}, aligned with the batch. */
  private <R extends Record> List<R> read(
      LockPhase tx, Table<R> table, LockMode mode, BiFunction<Long, Long, Key> key)
      throws StorageException {
    List<Key> keys = batch.stream().map(f -> key.apply(f.inodeId(), f.blockId())).toList();
    return keys.size() == 1
        ? Collections.singletonList(tx.find(table, keys.get(0), mode))
        : tx.findBatch(table, keys, mode);
  }

  @Override
  protected Integer execute(ExecutePhase tx) throws IOException {
    int removed = 0;
    long now = clock.now(); // the queue's ages are compared by the next leader too
    for (int i = 0; i < batch.size(); i++) {
      FileBlock f = batch.get(i);
      deleteIfThere(tx, CorruptReplicaRow.TABLE, corrupt.get(i));
      deleteIfThere(tx, ExcessReplicaRow.TABLE, excess.get(i));
      deleteIfThere(tx, ReplicaUnderConstructionRow.TABLE, pipeline.get(i));
      if (replicas.get(i) == null) {
        continue;
      }
      tx.delete(ReplicaRow.TABLE, replicas.get(i));
      removed++;
      BlockInfoRow b = blocks.get(i);
      if (b != null && b.underConstructionState() == BlockState.COMPLETE && marks.get(i) == null) {
        tx.insert(
            UnderReplicatedBlockRow.TABLE,
            new UnderReplicatedBlockRow(f.inodeId(), f.blockId(), 0, now, -1));
      }
    }
    if (removed > 0 && noteChange) {
      ChangedStorages.note(tx, List.of(storageId));
    }
    return removed;
  }

  private static <R extends Record> void deleteIfThere(ExecutePhase tx, Table<R> table, R row)
      throws StorageException {
    if (row != null) {
      tx.delete(table, row);
    }
  }
}
