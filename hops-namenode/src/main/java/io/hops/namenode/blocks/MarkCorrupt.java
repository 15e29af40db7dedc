package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;

/**
 * A client or a datanode reports that the replica of a block on one datanode is corrupt (HDFS
 * BlockManager.findAndMarkBlockAsCorrupt). Like {@link ReplicaChange}, it locks the block row
 * exclusively and not the inode: 2 PK + 2 PPIS + PK + W. The replica becomes a corrupt-replica row
 * and the block is queued for a replication check: the leader's re-replication decides, once it
 * knows the file's replication, whether to copy a good replica first or to delete the corrupt one
 * at once (HDFS does that here; the file's replication needs an index scan, which only housekeeping
 * may do).
 *
 * <p>As in HDFS, a block no file has, or a datanode that holds no replica of it, is ignored; a
 * replica the reporting storage holds but never reported is recorded (on a complete block).
 */
public final class MarkCorrupt extends Operation<Void> {
  private static final int MAX_REASON = 255;

  private final BlockManager bm;
  private final long blockId;
  private final String datanodeUuid;
  private final StorageRef storage;
  private final String reason;
  private BlockInfoRow block;
  private List<ReplicaRow> replicas;
  private List<CorruptReplicaRow> corrupt;
  private UnderReplicatedBlockRow check;

  /** {@code storage} is the reported storage of {@code datanodeUuid}, or null if not named. */
  public MarkCorrupt(
      BlockManager bm, long blockId, String datanodeUuid, StorageRef storage, String reason) {
    this.bm = bm;
    this.blockId = blockId;
    this.datanodeUuid = datanodeUuid;
    this.storage = storage;
    this.reason = reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason;
  }

  @Override
  public String name() {
    return "reportBadBlocks";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    BlockLookupRow lookup =
        tx.find(BlockLookupRow.TABLE, BlockLookupRow.TABLE.key(blockId), LockMode.READ_COMMITTED);
    if (lookup == null) {
      return;
    }
    long inode = lookup.inodeId();
    block = tx.find(BlockInfoRow.TABLE, BlockInfoRow.TABLE.key(inode, blockId), LockMode.EXCLUSIVE);
    if (block == null) {
      return;
    }
    replicas =
        tx.findByPartition(ReplicaRow.TABLE, inode, "block_id", blockId, LockMode.READ_COMMITTED);
    for (ReplicaRow r : replicas) {
      bm.datanodes().storage(r.storageId());
    }
    corrupt =
        tx.findByPartition(
            CorruptReplicaRow.TABLE, inode, "block_id", blockId, LockMode.READ_COMMITTED);
    check =
        tx.find(
            UnderReplicatedBlockRow.TABLE,
            UnderReplicatedBlockRow.TABLE.key(inode, blockId),
            LockMode.READ_COMMITTED);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    if (block == null) {
      return null; // maybe reported before the block's file was written down: HDFS ignores it too
    }
    StorageRef on = storage != null ? storage : heldOnNode();
    if (on == null) {
      return null;
    }
    long inode = block.inodeId();
    boolean known = replicas.stream().anyMatch(r -> r.storageId() == on.id());
    if (!known && block.underConstructionState() == BlockState.COMPLETE) {
      tx.insert(ReplicaRow.TABLE, new ReplicaRow(inode, blockId, on.id(), replicas.size()));
      known = true;
    }
    if (!known) {
      return null;
    }
    long now = bm.now();
    if (!BlockManager.isCorrupt(corrupt, on.id())) {
      tx.insert(
          CorruptReplicaRow.TABLE, new CorruptReplicaRow(inode, blockId, on.id(), now, reason));
    }
    if (check == null) {
      tx.insert(
          UnderReplicatedBlockRow.TABLE, new UnderReplicatedBlockRow(inode, blockId, 0, now, -1));
    }
    return null;
  }

  /** The storage of the reporting datanode that holds a replica of the block, if any. */
  private StorageRef heldOnNode() {
    for (ReplicaRow r : replicas) {
      StorageRef s = bm.datanodes().cachedStorage(r.storageId());
      if (s != null && s.datanodeUuid().equals(datanodeUuid)) {
        return s;
      }
    }
    return null;
  }
}
