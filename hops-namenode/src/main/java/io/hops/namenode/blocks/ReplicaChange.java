package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A datanode reports that it now holds (or no longer holds) a replica of one block: an incremental
 * block report entry, or a difference found in a full report (HDFS BlockManager.addStoredBlock and
 * removeStoredBlock). Locks the block row exclusively, which protects its replica rows, without
 * locking the file's inode: B-free, 2 PK + up to 4 PPIS/PK + W alone; in a transaction of several
 * changes their reads are batched per table ({@link ReplicaReads}).
 *
 * <p>A replica of a block no file has is invalidated; one older than the block (a stale generation
 * stamp) too, unless the storage's replica is recorded already: a datanode's stamps only grow, so
 * that report is older than the one recorded, delivered out of order (a writer's namenode applying
 * a receipt it kept, see {@link RecentReceipts}, after the owner of the datanode's reports recorded
 * the appended replica), and it changes nothing. A committed block that reaches the minimum
 * replication becomes complete. A replica that goes away from a complete block leaves it to be
 * checked by re-replication.
 *
 * <p>A deletion report acknowledges the replica's invalidation row, which stays until then (see
 * {@code InvalidationMonitor}). The lookup row of a removed block stays while invalidations of it
 * remain, so that the report finds their partition; the last acknowledgment removes it, under the
 * lookup row's exclusive lock.
 */
public final class ReplicaChange extends Operation<Void> {
  /** The partition of invalidations of replicas that belong to no file. */
  public static final long ORPHAN_PARTITION = 0;

  private final BlockManager bm;
  private final StorageRef storage;
  private final long blockId;
  private final long genStamp;
  private final long numBytes;
  private final boolean added;
  private final boolean onEmptyStorage;
  private BlockLookupRow lookup;
  private BlockInfoRow block;
  private List<ReplicaRow> replicas;
  private ReplicaRow mine;
  private List<ReplicaUnderConstructionRow> expected;
  private PendingBlockRow pending;
  private UnderReplicatedBlockRow check;
  private InvalidatedBlockRow invalidated;
  private List<InvalidatedBlockRow> removedBlockInvalidations;
  private boolean checkDeferred;

  public ReplicaChange(
      BlockManager bm,
      StorageRef storage,
      long blockId,
      long genStamp,
      long numBytes,
      boolean added) {
    this(bm, storage, blockId, genStamp, numBytes, added, false);
  }

  /**
   * With {@code onEmptyStorage}, as a full report's diff shows it: see {@link #skipsQueueReads}.
   */
  ReplicaChange(
      BlockManager bm,
      StorageRef storage,
      long blockId,
      long genStamp,
      long numBytes,
      boolean added,
      boolean onEmptyStorage) {
    this.bm = bm;
    this.storage = storage;
    this.blockId = blockId;
    this.genStamp = genStamp;
    this.numBytes = numBytes;
    this.added = added;
    this.onEmptyStorage = onEmptyStorage;
  }

  @Override
  public String name() {
    return added ? "blockReceived" : "blockDeleted";
  }

  long blockId() {
    return blockId;
  }

  int storageId() {
    return storage.id();
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    lookup =
        tx.find(BlockLookupRow.TABLE, BlockLookupRow.TABLE.key(blockId), LockMode.READ_COMMITTED);
    if (lookup != null) {
      block =
          tx.find(
              BlockInfoRow.TABLE,
              BlockInfoRow.TABLE.key(lookup.inodeId(), blockId),
              LockMode.EXCLUSIVE);
    }
    lockRest(tx);
  }

  /** Its lookup row and its locked block row (or nulls), read in a batch ({@link ReplicaReads}). */
  void lookedUp(BlockLookupRow lookup, BlockInfoRow block) {
    this.lookup = lookup;
    this.block = block;
  }

  /**
   * Whether the rest of its rows come from batches ({@link #batchedKeys}): a complete block, whose
   * other replicas the change does not need, or no block at all. A block under construction or
   * committed (its other replicas decide whether it completes), or a block moved or removed since
   * its lookup row was read, reads its rows itself ({@link #lockRest}).
   */
  boolean readsInBatches() {
    return block == null ? lookup == null : block.underConstructionState() == BlockState.COMPLETE;
  }

  /**
   * The keys of the rows a change that {@link #readsInBatches} reads, one of each table or null:
   * its storage's replica row, the block's check and pending rows, its invalidation row.
   */
  Key[] batchedKeys() {
    if (block == null) {
      return new Key[] {null, null, null, invalidationKey(ORPHAN_PARTITION)};
    }
    long inode = block.inodeId();
    if (skipsQueueReads()) {
      return new Key[] {null, null, null, null};
    }
    return new Key[] {
      ReplicaRow.TABLE.key(inode, blockId, storage.id()),
      UnderReplicatedBlockRow.TABLE.key(inode, blockId),
      PendingBlockRow.TABLE.key(inode, blockId),
      needsInvalidation() ? invalidationKey(inode) : null
    };
  }

  /** The rows of {@link #batchedKeys}, as read; the storages of a pending copy made known. */
  void batched(
      ReplicaRow mine,
      UnderReplicatedBlockRow check,
      PendingBlockRow pending,
      InvalidatedBlockRow invalidated)
      throws IOException {
    this.mine = mine;
    this.check = check;
    this.pending = pending;
    this.invalidated = invalidated;
    loadTargets();
  }

  /** What a change reads after its lookup and block rows, one row or partition at a time. */
  void lockRest(LockPhase tx) throws IOException {
    if (block == null && lookup != null) {
      // Either the block moved to another file (concat) after its lookup row was read, or it was
      // removed and its lookup row kept for its invalidations: read it again, locked.
      BlockLookupRow now =
          tx.find(BlockLookupRow.TABLE, BlockLookupRow.TABLE.key(blockId), LockMode.EXCLUSIVE);
      if (now != null && now.inodeId() != lookup.inodeId()) {
        throw new TransientStorageException("block " + blockId + " moved while being locked");
      }
      lookup = now;
      if (now != null) {
        removedBlockInvalidations =
            tx.findByPartition(
                InvalidatedBlockRow.TABLE,
                now.inodeId(),
                "block_id",
                blockId,
                LockMode.READ_COMMITTED);
        invalidated =
            removedBlockInvalidations.stream()
                .filter(r -> r.storageId() == storage.id())
                .findFirst()
                .orElse(null);
      }
    }
    if (block == null) {
      if (lookup == null) {
        invalidated = readInvalidated(tx, ORPHAN_PARTITION);
      }
      return;
    }
    long inode = block.inodeId();
    replicas =
        tx.findByPartition(ReplicaRow.TABLE, inode, "block_id", blockId, LockMode.READ_COMMITTED);
    for (ReplicaRow r : replicas) {
      bm.datanodes().storage(r.storageId());
    }
    if (block.underConstructionState() != BlockState.COMPLETE) {
      expected =
          tx.findByPartition(
              ReplicaUnderConstructionRow.TABLE,
              inode,
              "block_id",
              blockId,
              LockMode.READ_COMMITTED);
    }
    check =
        tx.find(
            UnderReplicatedBlockRow.TABLE,
            UnderReplicatedBlockRow.TABLE.key(inode, blockId),
            LockMode.READ_COMMITTED);
    pending =
        tx.find(
            PendingBlockRow.TABLE,
            PendingBlockRow.TABLE.key(inode, blockId),
            LockMode.READ_COMMITTED);
    loadTargets();
    if (needsInvalidation()) {
      invalidated = readInvalidated(tx, inode);
    }
  }

  /**
   * A replica a full report adds to a storage that held none, at the block's generation stamp or a
   * newer one, of a complete block: the report's index scan found the storage's replica row absent,
   * so it is not read again, and written with an insert-if-absent, which absorbs the row an
   * incremental report may have recorded since; the block's check row is written so too, unread.
   * Its pending row is not read: a scheduled copy to a storage that recorded nothing has not been
   * reported received, and if it arrived its pending row times out and the block is checked again
   * ({@code PendingTimeout}), where HDFS would count it arrived now. A stale replica (an older
   * stamp) reads its row as before: whether it is recorded decides whether it is invalidated.
   */
  private boolean skipsQueueReads() {
    return onEmptyStorage
        && added
        && block != null
        && block.underConstructionState() == BlockState.COMPLETE
        && !needsInvalidation();
  }

  /**
   * Whether its replication check could be deferred to the walk after startup safe mode ({@link
   * DeferredChecks}): a replica that {@link #skipsQueueReads}, whose check row is written unread.
   */
  boolean defersCheck() {
    return block != null && skipsQueueReads();
  }

  /** Whether this namenode starts, so that its report may read whether checks are deferred. */
  boolean mayDeferChecks() {
    return bm.mayDeferChecks();
  }

  /** Its transaction read that checks are deferred now: it queues none. */
  void checkDeferred() {
    checkDeferred = defersCheck();
  }

  /** A deletion acknowledges its invalidation; a stale replica may be invalidated already. */
  private boolean needsInvalidation() {
    return !added || genStamp < block.generationStamp();
  }

  private void loadTargets() throws IOException {
    if (pending != null) {
      for (String id : pending.targets().split(",")) {
        if (!id.isBlank()) {
          bm.datanodes().storage(Integer.parseInt(id.trim())); // known in execute
        }
      }
    }
  }

  private Key invalidationKey(long partition) {
    return InvalidatedBlockRow.TABLE.key(partition, blockId, storage.id());
  }

  private InvalidatedBlockRow readInvalidated(LockPhase tx, long partition) throws IOException {
    return tx.find(InvalidatedBlockRow.TABLE, invalidationKey(partition), LockMode.READ_COMMITTED);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    boolean known =
        replicas != null
            ? replicas.stream().anyMatch(r -> r.storageId() == storage.id())
            : mine != null;
    if (!added) {
      if (invalidated != null) {
        tx.delete(InvalidatedBlockRow.TABLE, invalidated); // the datanode did as it was told
      }
      if (removedBlockInvalidations != null
          && removedBlockInvalidations.stream().allMatch(r -> r.storageId() == storage.id())) {
        tx.delete(BlockLookupRow.TABLE, lookup); // the removed block's last replica is gone
      }
      if (block != null && known) {
        tx.delete(ReplicaRow.TABLE, ReplicaRow.TABLE.key(block.inodeId(), blockId, storage.id()));
        if (block.underConstructionState() == BlockState.COMPLETE) {
          needsCheck(tx);
        }
      }
      return null;
    }
    if (block == null || genStamp < block.generationStamp()) {
      if (!known) {
        invalidate(tx);
      }
      return null;
    }
    if (!known) {
      // The replica index is how many replicas the block had where they were read, a hint that
      // nothing reads: a batched change of a complete block does not read them and writes 0.
      ReplicaRow row =
          new ReplicaRow(
              block.inodeId(), blockId, storage.id(), replicas == null ? 0 : replicas.size());
      if (skipsQueueReads()) {
        tx.insertIfAbsent(ReplicaRow.TABLE, row);
      } else {
        tx.insert(ReplicaRow.TABLE, row);
      }
    }
    boolean scheduledCopy = pending != null && copyArrived(tx);
    if (block.underConstructionState() == BlockState.COMMITTED
        && genStamp == block.generationStamp()
        && liveAfter() >= bm.minReplication()) {
      BlockInfoRow complete =
          new BlockInfoRow(
              block.inodeId(),
              blockId,
              block.blockIndex(),
              block.startOffset(),
              block.numBytes(),
              block.generationStamp(),
              BlockState.COMPLETE,
              block.timestamp(),
              block.primaryNodeIndex(),
              block.blockRecoveryId());
      tx.update(BlockInfoRow.TABLE, complete);
      if (pending == null) {
        bm.expectedToPending(tx, complete, expected, replicas, storage.id());
      }
      for (ReplicaUnderConstructionRow r : expected) {
        tx.delete(ReplicaUnderConstructionRow.TABLE, r);
      }
    } else if (block.underConstructionState() == BlockState.COMPLETE && !known && !scheduledCopy) {
      needsCheck(tx); // maybe now over-replicated
    }
    return null;
  }

  /**
   * A scheduled copy to the reporting datanode arrived: its targets leave the pending row, which
   * goes with the last (HDFS PendingReconstructionBlocks.decrement). A receipt applied again (a
   * datanode's retry, or a receipt both the writer's namenode and the report owner apply), or one
   * from a datanode that was no target, changes nothing. Whether the replica was one of the copies:
   * then its arrival queues no check (HDFS addStoredBlock: a block that is not short, counting the
   * copies still on their way, is not queued). The check that scheduled the copy counted it and
   * left the block queued if it needs more, if its copies would leave it over-replicated, or if it
   * holds corrupt replicas to delete once they are in ({@code ReplicationCheck}); every replica
   * that was not scheduled still queues one. Checking each arrived copy again cost a round half its
   * checks, all of them satisfied (docs/benchmarks.md, "Decommission and re-replication").
   */
  private boolean copyArrived(ExecutePhase tx) throws IOException {
    List<String> left = new ArrayList<>();
    int arrived = 0;
    for (String id : pending.targets().split(",")) {
      if (id.isBlank()) {
        continue;
      }
      if (onReportingDatanode(Integer.parseInt(id.trim()))) {
        arrived++;
      } else {
        left.add(id.trim());
      }
    }
    if (arrived == 0) {
      return false;
    }
    int inProgress = pending.numReplicasInProgress() - arrived;
    if (inProgress <= 0 || left.isEmpty()) {
      tx.delete(PendingBlockRow.TABLE, pending);
    } else {
      tx.update(
          PendingBlockRow.TABLE,
          new PendingBlockRow(
              pending.inodeId(), blockId, pending.timestamp(), inProgress, String.join(",", left)));
    }
    return true;
  }

  /** The datanode picks the volume of a copy, so any storage of the target datanode counts. */
  private boolean onReportingDatanode(int storageId) {
    if (storageId == storage.id()) {
      return true;
    }
    StorageRef target = bm.datanodes().cachedStorage(storageId);
    return target != null && target.datanodeUuid().equals(storage.datanodeUuid());
  }

  private int liveAfter() {
    int n = 1; // the replica just reported
    for (ReplicaRow r : replicas) {
      if (r.storageId() != storage.id()
          && bm.datanodes().isLive(bm.datanodes().cachedStorage(r.storageId()))) {
        n++;
      }
    }
    return n;
  }

  private void needsCheck(ExecutePhase tx) throws IOException {
    UnderReplicatedBlockRow row =
        new UnderReplicatedBlockRow(block.inodeId(), blockId, 0, bm.now(), -1);
    if (checkDeferred) {
      return; // judged by the walk after startup safe mode (DeferredChecks)
    }
    if (skipsQueueReads()) {
      tx.insertIfAbsent(UnderReplicatedBlockRow.TABLE, row); // unread: a row there stays
    } else if (check == null) {
      tx.insert(UnderReplicatedBlockRow.TABLE, row);
    }
  }

  private void invalidate(ExecutePhase tx) throws IOException {
    long partition =
        block != null ? block.inodeId() : lookup != null ? lookup.inodeId() : ORPHAN_PARTITION;
    if (invalidated == null) {
      tx.insert(
          InvalidatedBlockRow.TABLE,
          new InvalidatedBlockRow(partition, blockId, storage.id(), genStamp, numBytes));
    }
  }
}
