package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether the blocks of one file held by a decommissioning datanode, or one entering maintenance,
 * have enough replicas elsewhere (HDFS DatanodeAdminManager.isSufficient), queueing for
 * re-replication each that has not; one transaction, everything read committed: the block rows
 * (batched), the file's inode by id, its replica, corrupt, excess and queue rows (a pruned scan
 * each): B + IS + 4 PPIS + W. Returns the blocks that are not yet sufficient, and of those the ones
 * whose only replicas are out of service and the ones of a file being written (HDFS's
 * processBlocksInternal counts).
 *
 * <p>Counted as HDFS counts live replicas: on a live datanode in service, not corrupt, not being
 * deleted. A block is sufficient with the file's replication, or with the default replication
 * ({@code dfs.replication}) when the file asks for more, or, the last block of a file being written
 * (not complete), with the minimum replication. For maintenance a block is sufficient with {@code
 * dfs.namenode.maintenance.replication.min} live replicas (at most the file's replication).
 */
final class DecommissionCheck extends Operation<DecommissionCheck.Found> {
  /** The counts of the check, and the blocks it found not yet sufficient. */
  record Found(RecordLeavingStatus.Walked counts, List<Long> insufficient) {}

  private final BlockManager bm;
  private final DatanodeManager dm;
  private final long inodeId;
  private final List<Long> blockIds;
  private final int defaultReplication;
  private final boolean maintenance;
  private List<BlockInfoRow> blocks;
  private InodeRow inode;
  private List<ReplicaRow> replicas = List.of();
  private final Set<Key> corrupt = new HashSet<>();
  private final Set<Key> excess = new HashSet<>();
  private final Set<Long> queued = new HashSet<>();

  /** {@code blockIds} sorted. */
  DecommissionCheck(
      BlockManager bm,
      long inodeId,
      List<Long> blockIds,
      int defaultReplication,
      boolean maintenance) {
    this.maintenance = maintenance;
    this.bm = bm;
    this.dm = bm.datanodes();
    this.inodeId = inodeId;
    this.blockIds = blockIds;
    this.defaultReplication = defaultReplication;
  }

  @Override
  public String name() {
    return "decommissionCheck";
  }

  @Override
  public Object partitionHint() {
    return inodeId;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    List<Key> keys = blockIds.stream().map(b -> BlockInfoRow.TABLE.key(inodeId, b)).toList();
    blocks =
        keys.size() == 1
            ? Collections.singletonList(tx.find(BlockInfoRow.TABLE, keys.get(0), rc()))
            : tx.findBatch(BlockInfoRow.TABLE, keys, rc());
    List<InodeRow> found = tx.findByIndex(InodeRow.TABLE, "id", inodeId, rc());
    inode = found.isEmpty() ? null : found.get(0);
    if (inode == null) {
      return;
    }
    replicas = tx.findByPartition(ReplicaRow.TABLE, inodeId, rc());
    for (ReplicaRow r : replicas) {
      dm.storage(r.storageId());
    }
    for (CorruptReplicaRow r : tx.findByPartition(CorruptReplicaRow.TABLE, inodeId, rc())) {
      corrupt.add(ReplicaRow.TABLE.key(r.inodeId(), r.blockId(), r.storageId()));
    }
    for (ExcessReplicaRow r : tx.findByPartition(ExcessReplicaRow.TABLE, inodeId, rc())) {
      excess.add(ReplicaRow.TABLE.key(r.inodeId(), r.blockId(), r.storageId()));
    }
    for (UnderReplicatedBlockRow r :
        tx.findByPartition(UnderReplicatedBlockRow.TABLE, inodeId, rc())) {
      queued.add(r.blockId());
    }
  }

  private static LockMode rc() {
    return LockMode.READ_COMMITTED;
  }

  @Override
  protected Found execute(ExecutePhase tx) throws IOException {
    if (inode == null || inode.isDir()) {
      // deleted meanwhile: nothing to keep
      return new Found(new RecordLeavingStatus.Walked(0, 0, 0), List.of());
    }
    List<Long> shortIds = new java.util.ArrayList<>();
    int insufficient = 0;
    int outOfServiceOnly = 0;
    for (BlockInfoRow b : blocks) {
      if (b == null) {
        continue; // the block is gone
      }
      int live = live(b.blockId());
      int expected = inode.replication();
      boolean complete = b.underConstructionState() == BlockState.COMPLETE;
      boolean sufficient =
          maintenance
              ? live >= dm.admin().minMaintenanceReplicas(expected)
              : complete
                  ? live >= Math.min(expected, defaultReplication)
                  : live >= bm.minReplication(); // only a file's last block is not complete
      if (sufficient) {
        continue;
      }
      insufficient++;
      shortIds.add(b.blockId());
      if (live == 0 && outOfService(b.blockId()) > 0) {
        outOfServiceOnly++;
      }
      if (complete && !queued.contains(b.blockId())) {
        int level =
            live == 0
                ? ReplicationCheck.HIGHEST_PRIORITY
                : ReplicationCheck.priority(live, expected);
        tx.insert(
            UnderReplicatedBlockRow.TABLE,
            new UnderReplicatedBlockRow(inodeId, b.blockId(), level, bm.now(), -1));
      }
    }
    return new Found(
        new RecordLeavingStatus.Walked(
            insufficient, outOfServiceOnly, inode.underConstruction() ? insufficient : 0),
        shortIds);
  }

  /** Its replicas on datanodes being or done being decommissioned, or in maintenance. */
  private int outOfService(long blockId) {
    int n = 0;
    for (ReplicaRow r : replicas) {
      StorageRef s = r.blockId() == blockId ? dm.cachedStorage(r.storageId()) : null;
      DatanodeState node = s == null ? null : dm.node(s.datanodeUuid());
      if (node != null
          && (node.isDecommission() || node.isMaintenance())
          && !corrupt.contains(ReplicaRow.TABLE.key(r.inodeId(), r.blockId(), r.storageId()))) {
        n++;
      }
    }
    return n;
  }

  private int live(long blockId) {
    int n = 0;
    for (ReplicaRow r : replicas) {
      if (r.blockId() != blockId) {
        continue;
      }
      Key k = ReplicaRow.TABLE.key(r.inodeId(), r.blockId(), r.storageId());
      StorageRef s = dm.cachedStorage(r.storageId());
      DatanodeState node = s == null ? null : dm.node(s.datanodeUuid());
      if (node != null
          && node.isInService()
          && dm.isLive(node)
          && !corrupt.contains(k)
          && !excess.contains(k)) {
        n++;
      }
    }
    return n;
  }
}
