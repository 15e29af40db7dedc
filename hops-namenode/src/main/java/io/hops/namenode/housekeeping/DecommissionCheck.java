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
import io.hops.namenode.housekeeping.ReplicationCheck.FileBlocks;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether the blocks of some files held by a decommissioning datanode, or one entering maintenance,
 * have enough replicas elsewhere (HDFS DatanodeAdminManager.isSufficient), queueing for
 * re-replication each that has not; one transaction, everything read committed, one read per table
 * for all the files: the block rows and their queue rows (batched), the files' inodes by id ({@link
 * InodesById}), their replica, corrupt and excess rows (a pruned scan of each file's partition, one
 * access): 2 B + (B or IS) + 3 PPIS + W. Returns the blocks that are not yet sufficient, and of
 * those the ones whose only replicas are out of service and the ones of a file being written
 * (HDFS's processBlocksInternal counts).
 *
 * <p>Counted as HDFS counts live replicas: on a live datanode in service, not corrupt, not being
 * deleted. A block is sufficient with the file's replication, or with the default replication
 * ({@code dfs.replication}) when the file asks for more, or, the last block of a file being written
 * (not complete), with the minimum replication. For maintenance a block is sufficient with {@code
 * dfs.namenode.maintenance.replication.min} live replicas (at most the file's replication).
 */
final class DecommissionCheck extends Operation<DecommissionCheck.Found> {
  /** The counts of the check, and the blocks it found not yet sufficient, by file. */
  record Found(RecordLeavingStatus.Walked counts, List<FileBlocks> insufficient) {}

  private final BlockManager bm;
  private final DatanodeManager dm;
  private final List<FileBlocks> files;
  private final int defaultReplication;
  private final boolean maintenance;
  private final Map<Key, BlockInfoRow> blocks = new HashMap<>();
  private Map<Long, InodeRow> inodes = Map.of();
  private final Map<Key, List<ReplicaRow>> replicas = new HashMap<>();
  private final Set<Key> corrupt = new HashSet<>();
  private final Set<Key> excess = new HashSet<>();
  private final Set<Key> queued = new HashSet<>();

  /** {@code files} by id ascending (the lock order), each file's blocks sorted. */
  DecommissionCheck(
      BlockManager bm, List<FileBlocks> files, int defaultReplication, boolean maintenance) {
    this.maintenance = maintenance;
    this.bm = bm;
    this.dm = bm.datanodes();
    this.files = files;
    this.defaultReplication = defaultReplication;
  }

  @Override
  public String name() {
    return "decommissionCheck";
  }

  @Override
  public Object partitionHint() {
    return files.get(0).inodeId();
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    List<Key> keys = new ArrayList<>();
    List<Key> queueKeys = new ArrayList<>();
    for (FileBlocks f : files) {
      for (long b : f.blockIds()) {
        keys.add(BlockInfoRow.TABLE.key(f.inodeId(), b));
        queueKeys.add(UnderReplicatedBlockRow.TABLE.key(f.inodeId(), b));
      }
    }
    List<BlockInfoRow> rows =
        keys.size() == 1
            ? Collections.singletonList(tx.find(BlockInfoRow.TABLE, keys.get(0), rc()))
            : tx.findBatch(BlockInfoRow.TABLE, keys, rc());
    Set<Long> withBlocks = new TreeSet<>();
    for (BlockInfoRow b : rows) {
      if (b != null) {
        blocks.put(BlockInfoRow.TABLE.keyOf(b), b);
        withBlocks.add(b.inodeId());
      }
    }
    if (withBlocks.isEmpty()) {
      return;
    }
    inodes = InodesById.read(tx, new ArrayList<>(withBlocks));
    List<Long> ids = withBlocks.stream().filter(inodes::containsKey).toList();
    if (ids.isEmpty()) {
      return;
    }
    for (ReplicaRow r : tx.findByPartitions(ReplicaRow.TABLE, ids, rc())) {
      dm.storage(r.storageId());
      replicas
          .computeIfAbsent(BlockInfoRow.TABLE.key(r.inodeId(), r.blockId()), k -> new ArrayList<>())
          .add(r);
    }
    for (CorruptReplicaRow r : tx.findByPartitions(CorruptReplicaRow.TABLE, ids, rc())) {
      corrupt.add(ReplicaRow.TABLE.key(r.inodeId(), r.blockId(), r.storageId()));
    }
    for (ExcessReplicaRow r : tx.findByPartitions(ExcessReplicaRow.TABLE, ids, rc())) {
      excess.add(ReplicaRow.TABLE.key(r.inodeId(), r.blockId(), r.storageId()));
    }
    List<UnderReplicatedBlockRow> marks =
        queueKeys.size() == 1
            ? Collections.singletonList(
                tx.find(UnderReplicatedBlockRow.TABLE, queueKeys.get(0), rc()))
            : tx.findBatch(UnderReplicatedBlockRow.TABLE, queueKeys, rc());
    for (UnderReplicatedBlockRow r : marks) {
      if (r != null) {
        queued.add(BlockInfoRow.TABLE.key(r.inodeId(), r.blockId()));
      }
    }
  }

  private static LockMode rc() {
    return LockMode.READ_COMMITTED;
  }

  @Override
  protected Found execute(ExecutePhase tx) throws IOException {
    List<FileBlocks> found = new ArrayList<>();
    int insufficient = 0;
    int outOfServiceOnly = 0;
    int inOpenFiles = 0;
    for (FileBlocks f : files) {
      InodeRow inode = inodes.get(f.inodeId());
      if (inode == null || inode.isDir()) {
        continue; // deleted meanwhile: nothing to keep
      }
      List<Long> shortIds = new ArrayList<>();
      for (long blockId : f.blockIds()) {
        Key k = BlockInfoRow.TABLE.key(f.inodeId(), blockId);
        BlockInfoRow b = blocks.get(k);
        if (b == null) {
          continue; // the block is gone
        }
        List<ReplicaRow> held = replicas.getOrDefault(k, List.of());
        int live = live(held);
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
        shortIds.add(blockId);
        if (live == 0 && outOfService(held) > 0) {
          outOfServiceOnly++;
        }
        if (complete && !queued.contains(k)) {
          int level =
              live == 0
                  ? ReplicationCheck.HIGHEST_PRIORITY
                  : ReplicationCheck.priority(live, expected);
          tx.insert(
              UnderReplicatedBlockRow.TABLE,
              new UnderReplicatedBlockRow(f.inodeId(), blockId, level, bm.now(), -1));
        }
      }
      insufficient += shortIds.size();
      inOpenFiles += inode.underConstruction() ? shortIds.size() : 0;
      if (!shortIds.isEmpty()) {
        found.add(new FileBlocks(f.inodeId(), shortIds));
      }
    }
    return new Found(
        new RecordLeavingStatus.Walked(insufficient, outOfServiceOnly, inOpenFiles), found);
  }

  /**
   * Of a block's replicas, those on datanodes being or done being decommissioned, or in
   * maintenance.
   */
  private int outOfService(List<ReplicaRow> held) {
    int n = 0;
    for (ReplicaRow r : held) {
      StorageRef s = dm.cachedStorage(r.storageId());
      DatanodeState node = s == null ? null : dm.node(s.datanodeUuid());
      if (node != null
          && (node.isDecommission() || node.isMaintenance())
          && !corrupt.contains(ReplicaRow.TABLE.keyOf(r))) {
        n++;
      }
    }
    return n;
  }

  private int live(List<ReplicaRow> held) {
    int n = 0;
    for (ReplicaRow r : held) {
      Key k = ReplicaRow.TABLE.keyOf(r);
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
