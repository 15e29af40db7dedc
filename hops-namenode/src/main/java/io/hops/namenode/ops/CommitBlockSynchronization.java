package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlockTail;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.leases.FileClose;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.ops.snapshot.CopyOnTruncate;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code commitBlockSynchronization}: the primary datanode of a block recovery reports its outcome
 * (HDFS FSNamesystem.commitBlockSynchronization). The recovery id must be the block's current one.
 * The block takes the new generation stamp and length, and its replicas become exactly the
 * datanodes that took part (others hold a stale copy and are told to delete it); or, with {@code
 * deleteblock}, the block goes (no datanode had any of its bytes). With {@code closeFile} the last
 * block is committed (complete, since its replicas are known) and the file closes, leaving the
 * recovery holder's lease. A retry after success finds the file closed, or the block gone, and
 * changes nothing. A truncate's copy-on-truncate recovery ({@link CopyOnTruncate}) reports the old
 * block: it moves whole to the file's tail for the snapshots and the copy takes its place; a retry
 * finds the old block in the tail, and, as HDFS (which finds it complete in its snapshot), changes
 * nothing while the file's last block is complete or still under this recovery. Locks the file
 * found from the block (or from the tail keeping it), its holder's lease, then its blocks.
 */
public final class CommitBlockSynchronization extends Operation<Void> {
  private static final Logger LOG = LoggerFactory.getLogger(CommitBlockSynchronization.class);

  private final BlockManager bm;
  private final ExtendedBlock oldBlock;
  private final long newGenerationStamp;
  private final long newLength;
  private final boolean closeFile;
  private final boolean deleteBlock;
  private final DatanodeID[] newTargets;
  private final String[] newTargetStorages;
  private InodeRow file;
  private LeaseChanges leases;
  private FileBlocks blocks;
  private AncestorQuotas quotas = AncestorQuotas.none();
  private List<Integer> targets;

  /** A truncate's copy of the last block for the snapshots, in progress, or null. */
  private CopyOnTruncate.InProgress copy;

  /** Whether the block is the old one of a copy already committed, kept in the file's tail. */
  private boolean copied;

  @SuppressWarnings("TooManyParameters") // DatanodeProtocol.commitBlockSynchronization's own
  public CommitBlockSynchronization(
      BlockManager bm,
      ExtendedBlock oldBlock,
      long newGenerationStamp,
      long newLength,
      boolean closeFile,
      boolean deleteBlock,
      DatanodeID[] newTargets,
      String[] newTargetStorages) {
    this.bm = bm;
    this.oldBlock = oldBlock;
    this.newGenerationStamp = newGenerationStamp;
    this.newLength = newLength;
    this.closeFile = closeFile;
    this.deleteBlock = deleteBlock;
    this.newTargets = newTargets == null ? new DatanodeID[0] : newTargets;
    this.newTargetStorages = newTargetStorages;
  }

  @Override
  public String name() {
    return "commitBlockSynchronization";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    OpenFiles.checkPool(bm.blockPoolId(), oldBlock);
    file = FileOfBlock.lock(tx, oldBlock);
    if (file == null) {
      file = FileOfBlock.lockTruncated(tx, oldBlock);
      copied = file != null;
    }
    if (file == null || file.isDir()) {
      return;
    }
    Set<String> holders = new HashSet<>();
    if (file.underConstruction()) {
      holders.add(file.clientName());
    }
    leases = LeaseChanges.lock(tx, holders);
    blocks =
        FileBlockTail.lock(
            tx,
            file,
            LockMode.EXCLUSIVE,
            bm.datanodes(),
            copied ? -1 : oldBlock.getBlockId(),
            true);
    if (file.underConstruction()) {
      copy = CopyOnTruncate.copyInProgress(tx, file.id());
    }
    targets = UpdatePipeline.storageIds(bm.datanodes(), newTargets, newTargetStorages);
    quotas = AncestorQuotas.lockAbove(tx, file);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    if (copied && blocks != null) {
      retriedCopy();
      return null;
    }
    BlockInfoRow stored = blocks == null ? null : blocks.block(oldBlock.getBlockId());
    if (stored == null) {
      if (deleteBlock) {
        LOG.debug("block {} not found: a retried delete", oldBlock);
        return null;
      }
      throw new IOException("Block (=" + oldBlock + ") not found");
    }
    BlockInfoRow last = blocks.last();
    if ((!file.underConstruction() || stored.underConstructionState() == BlockState.COMPLETE)
        && last.underConstructionState() == BlockState.COMPLETE) {
      LOG.debug("block {} of closed file {}: nothing to do (a retry)", oldBlock, file.name());
      return null;
    }
    if (last.blockId() != stored.blockId() || !underThisRecovery(last)) {
      throw recoveryIdMismatch(last);
    }
    if (closeFile && !file.underConstruction()) {
      throw new IOException(
          "Cannot finalize file " + file.name() + " because it is not under construction");
    }
    MutableInode inode = MutableInode.of(file);
    long spaceBefore = FileSpace.of(file, last);
    if (copy != null) {
      // Copy-on-truncate: the old block stays whole for the snapshots, the copy is the file's.
      BlockInfoRow made = deleteBlock ? null : copyOf(stored);
      CopyOnTruncate.commitCopy(tx, blocks, copy, stored, made);
      if (made != null) {
        synchronize(tx, made, true);
      } else if (!closeFile) {
        blocks.recordTail(tx);
      }
    } else if (deleteBlock) {
      bm.removeBlock(tx, blocks, stored);
      if (!closeFile) {
        blocks.recordTail(tx);
      }
    } else {
      synchronize(tx, stored, false);
    }
    inode.size = blocks.length();
    quotas.add(
        0,
        FileSpace.of(inode.size, inode.replication, inode.preferredBlockSize, blocks.last())
            - spaceBefore);
    quotas.flush(tx);
    if (closeFile) {
      FileClose.close(tx, inode, leases, bm.now());
      leases.flush(tx);
      bm.queueReplicationChecks(tx, blocks, inode.replication);
    } else {
      tx.update(InodeRow.TABLE, inode.toRow());
    }
    LOG.info(
        "commitBlockSynchronization(oldBlock={}, file={}, newgenerationstamp={}, newlength={},"
            + " newtargets={}, closeFile={}, deleteBlock={}) successful",
        oldBlock,
        file.name(),
        newGenerationStamp,
        newLength,
        targets,
        closeFile,
        deleteBlock);
    return null;
  }

  /**
   * A retry of a copy's commit (the old block already in the tail): nothing to do while the file's
   * last block (the copy) is complete or still under this recovery; a later recovery's id refuses
   * it (HDFS's checks, with the old block complete in its snapshot).
   */
  private void retriedCopy() throws IOException {
    BlockInfoRow last = blocks.last();
    if (last != null
        && last.underConstructionState() != BlockState.COMPLETE
        && !underThisRecovery(last)) {
      throw recoveryIdMismatch(last);
    }
    LOG.debug(
        "block {} already copied for file {}: nothing to do (a retry)", oldBlock, file.name());
  }

  private boolean underThisRecovery(BlockInfoRow last) {
    return last.underConstructionState() == BlockState.UNDER_RECOVERY
        && last.blockRecoveryId() == newGenerationStamp;
  }

  private IOException recoveryIdMismatch(BlockInfoRow last) {
    return new IOException(
        "The recovery id "
            + newGenerationStamp
            + " does not match current recovery id "
            + (last.underConstructionState() == BlockState.UNDER_RECOVERY
                ? last.blockRecoveryId()
                : 0)
            + " for block "
            + oldBlock);
  }

  /** The copy a copy-on-truncate recovery made of {@code stored}, in its place in the file. */
  private BlockInfoRow copyOf(BlockInfoRow stored) {
    return new BlockInfoRow(
        stored.inodeId(),
        copy.tail().copyId(),
        stored.blockIndex(),
        stored.startOffset(),
        newLength,
        newGenerationStamp,
        BlockState.UNDER_RECOVERY,
        stored.timestamp(),
        stored.primaryNodeIndex(),
        stored.blockRecoveryId());
  }

  /**
   * The recovered block: new stamp and length; the participating storages become its replicas when
   * the file closes (the others are invalidated), and its expected locations otherwise. A {@code
   * fresh} block (a copy) is inserted rather than updated.
   */
  private void synchronize(ExecutePhase tx, BlockInfoRow stored, boolean fresh) throws IOException {
    long id = stored.blockId();
    byte state = BlockState.UNDER_RECOVERY;
    if (closeFile) {
      List<ReplicaRow> kept = new ArrayList<>();
      for (ReplicaRow r : blocks.replicas(id)) {
        if (targets.contains(r.storageId())) {
          kept.add(r);
        } else {
          tx.delete(ReplicaRow.TABLE, r);
          InvalidatedBlockRow stale =
              new InvalidatedBlockRow(
                  stored.inodeId(), id, r.storageId(), stored.generationStamp(), stored.numBytes());
          if (blocks.noteInvalidation(stale)) {
            tx.insert(InvalidatedBlockRow.TABLE, stale);
          }
        }
      }
      for (int s : targets) {
        if (kept.stream().noneMatch(r -> r.storageId() == s)) {
          ReplicaRow added = new ReplicaRow(stored.inodeId(), id, s, kept.size());
          tx.insert(ReplicaRow.TABLE, added);
          kept.add(added);
        }
      }
      blocks.setReplicas(id, kept);
      boolean complete = bm.liveReplicas(blocks, id) >= bm.minReplication();
      state = complete ? BlockState.COMPLETE : BlockState.COMMITTED;
    }
    BlockInfoRow updated =
        new BlockInfoRow(
            stored.inodeId(),
            id,
            stored.blockIndex(),
            stored.startOffset(),
            newLength,
            newGenerationStamp,
            state,
            stored.timestamp(),
            stored.primaryNodeIndex(),
            stored.blockRecoveryId());
    if (fresh) {
      tx.insert(BlockInfoRow.TABLE, updated);
    } else {
      tx.update(BlockInfoRow.TABLE, updated);
    }
    if (state == BlockState.COMPLETE) {
      for (ReplicaUnderConstructionRow r : blocks.expected(id)) {
        tx.delete(ReplicaUnderConstructionRow.TABLE, r);
      }
      blocks.setExpected(id, List.of());
    } else {
      bm.setExpected(tx, updated, blocks.expected(id), targets);
    }
    blocks.replace(updated);
  }
}
