package io.hops.namenode.leases;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.blocks.LeasePathTail;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand.RecoveringBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lease recovery of files with blocks (HDFS FSNamesystem.internalReleaseLease). A file whose blocks
 * are all complete, or whose committed last block has the minimum replicas, closes at once. A last
 * block under construction with no replica anywhere and no bytes is removed and the file closes.
 * Otherwise the last block goes UNDER_RECOVERY with a new recovery id (a generation stamp), a
 * primary datanode is chosen among its live expected replicas, and the file passes to this
 * namenode's recovery holder ({@code HDFS_NameNode-<time>}) until the primary's {@code
 * commitBlockSynchronization} closes it.
 *
 * <p>Only the leader commands datanodes (docs/architecture.md, "Wire compatibility"). The block row
 * remembers when the recovery command was queued ({@code timestamp}; 0: started on another
 * namenode, not yet sent), so the leader's housekeeping, which looks at the files of recovery
 * holders every round, sends what others started and starts again, with a new id and the next
 * primary, a recovery that did not finish within {@link LeaseManager#BLOCK_RECOVERY_TIMEOUT_MS}
 * (HDFS re-issues it the same way after its recovery timeout).
 *
 * <p>A truncate in the middle of a block (see {@code ops.Truncate}) uses the same recovery: it
 * leaves the inode shorter than its blocks, and the difference is what the last block's replicas
 * lose (HDFS's in-place truncate recovery); when a snapshot reads the block, the recovery names a
 * new block that the datanodes copy the first bytes into (HDFS's copy-on-truncate, {@code
 * ops.snapshot.CopyOnTruncate}).
 */
public final class BlockRecovery implements LeaseRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(BlockRecovery.class);

  private final BlockManager bm;
  private final LeaseManager manager;

  public BlockRecovery(BlockManager bm, LeaseManager manager) {
    this.bm = bm;
    this.manager = manager;
  }

  /**
   * Lock phase, after the file and its holder's lease: the recovery holder's lease and the file's
   * lease path (to hand the file over), then the file's blocks exclusively with their replicas.
   */
  @Override
  public Prepared prepare(LockPhase tx, InodeRow file) throws IOException {
    LeaseChanges recoveryLease = null;
    LeasePathRow leasePath = null;
    if (!LeaseManager.isRecoveryHolder(file.clientName())) {
      recoveryLease = LeaseChanges.lock(tx, Set.of(manager.recoveryHolder()));
      leasePath = LeasePathTail.pathOf(tx, file, LockMode.EXCLUSIVE);
    }
    FileBlocks blocks = FileBlocks.lock(tx, file.id(), LockMode.EXCLUSIVE, bm.datanodes());
    Prepared p = new Prepared(blocks, recoveryLease, leasePath, file.clientName());
    if (blocks.length() > file.size()) {
      // A truncate's recovery: a copy-on-truncate names the new block on the file's tail (a
      // pruned scan, read committed under the file's lock).
      for (SnapshotFileTailRow t :
          tx.findByPartition(SnapshotFileTailRow.TABLE, file.id(), LockMode.READ_COMMITTED)) {
        p.copyInto(t.copyId() != 0 ? t.copyId() : p.copyId);
      }
    }
    return p;
  }

  /** What {@link #prepare} read; releases the file once. */
  public final class Prepared implements Release {
    private final FileBlocks blocks;
    private final LeaseChanges recoveryLease;
    private final LeasePathRow leasePath;
    private final String holderWhenRead;
    private long copyId;
    private io.hops.namenode.quota.AncestorQuotas quotas =
        io.hops.namenode.quota.AncestorQuotas.none();

    @Override
    public void countIn(io.hops.namenode.quota.AncestorQuotas quotas) {
      this.quotas = quotas;
    }

    private Prepared(
        FileBlocks blocks,
        LeaseChanges recoveryLease,
        LeasePathRow leasePath,
        String holderWhenRead) {
      this.blocks = blocks;
      this.recoveryLease = recoveryLease;
      this.leasePath = leasePath;
      this.holderWhenRead = holderWhenRead;
    }

    /**
     * A file that no one holds (it was closed, or just released) goes straight to a recovery
     * holder, before {@link #release} starts its recovery: this namenode's, or, if the file
     * belonged to a recovery holder when it was read, that one (whose lease {@code leases} holds).
     */
    public void adopt(
        ExecutePhase tx, MutableInode file, LeaseChanges leases, String path, long now)
        throws StorageException {
      if (recoveryLease != null) {
        file.clientName = manager.recoveryHolder();
        recoveryLease.addFile(tx, file.clientName, file.id, path, now);
        recoveryLease.flush(tx);
      } else {
        file.clientName = holderWhenRead;
        leases.addFile(tx, file.clientName, file.id, path, now);
      }
      file.underConstruction = true;
    }

    /**
     * Makes the truncate recovery this release starts a copy-on-truncate: the datanodes copy the
     * cut block's first bytes into new block {@code newBlockId} and keep the old one whole.
     */
    public void copyInto(long newBlockId) {
      this.copyId = newBlockId;
    }

    /** The file's blocks as the release left them (an operation may go on with them). */
    public FileBlocks blocks() {
      return blocks;
    }

    @Override
    public boolean release(ExecutePhase tx, MutableInode file, LeaseChanges leases, long now)
        throws IOException {
      String src = describe(file);
      List<BlockInfoRow> all = blocks.blocks();
      int n = all.size();
      int complete = 0;
      while (complete < n && all.get(complete).underConstructionState() == BlockState.COMPLETE) {
        complete++;
      }
      if (complete == n) {
        close(tx, file, leases, now);
        LOG.info("internalReleaseLease: all blocks of {} are COMPLETE: lease removed, closed", src);
        return true;
      }
      BlockInfoRow last = blocks.last();
      BlockInfoRow penultimate = blocks.penultimate();
      if (complete < n - 2
          || (complete == n - 2 && penultimate.underConstructionState() != BlockState.COMMITTED)) {
        throw new IOException(
            "DIR* NameSystem.internalReleaseLease: attempt to release a create lock on "
                + src
                + " but file is already closed.");
      }
      boolean penultimateMin =
          penultimate == null
              || bm.liveReplicas(blocks, penultimate.blockId()) >= bm.minReplication();
      if (last.underConstructionState() == BlockState.COMMITTED) {
        if (penultimateMin && bm.liveReplicas(blocks, last.blockId()) >= bm.minReplication()) {
          completeBlock(tx, last);
          close(tx, file, leases, now);
          LOG.info("internalReleaseLease: committed blocks of {} are minimally replicated", src);
          return true;
        }
        String message =
            "DIR* NameSystem.internalReleaseLease: Failed to release lease for file "
                + src
                + ". Committed blocks are waiting to be minimally replicated.";
        LOG.warn(message);
        if (!penultimateMin) {
          throw new AlreadyBeingCreatedException(message);
        }
        // As HDFS: on to recovering the committed last block.
      }
      List<ReplicaUnderConstructionRow> expected = expectedOrReported(tx, blocks, last);
      if (expected.isEmpty() && last.numBytes() == 0) {
        // No datanode ever reported the block: the client died before writing to it.
        bm.removeBlock(tx, blocks, last);
        // It counted in full against the quotas above (FileSpace): no longer.
        quotas.add(0, -file.preferredBlockSize * file.replication);
        quotas.flush(tx);
        close(tx, file, leases, now);
        LOG.info("internalReleaseLease: removed empty last block and closed file {}", src);
        return true;
      }
      if (needsNewAttempt(last, now)) {
        start(tx, blocks, file, last, copyId, now);
      }
      if (!LeaseManager.isRecoveryHolder(file.clientName)) {
        String to = manager.recoveryHolder();
        leases.reassign(tx, recoveryLease, file.clientName, to, file.id, leasePath, file.name, now);
        recoveryLease.flush(tx);
        file.clientName = to;
        tx.update(InodeRow.TABLE, file.toRow());
      }
      return false;
    }

    private void completeBlock(ExecutePhase tx, BlockInfoRow b) throws StorageException {
      BlockInfoRow done = with(b, b.numBytes(), b.generationStamp(), BlockState.COMPLETE);
      tx.update(BlockInfoRow.TABLE, done);
      for (ReplicaUnderConstructionRow r : blocks.expected(b.blockId())) {
        tx.delete(ReplicaUnderConstructionRow.TABLE, r);
      }
      blocks.setExpected(b.blockId(), List.of());
      blocks.replace(done);
    }

    private void close(ExecutePhase tx, MutableInode file, LeaseChanges leases, long now)
        throws IOException {
      file.size = blocks.length();
      FileClose.close(tx, file, leases, now);
      bm.queueReplicationChecks(tx, blocks, file.replication);
    }
  }

  /**
   * The expected locations of {@code last}; if it has none (a complete block reopened, or a block
   * whose pipeline was never known), the replicas reported for it become its expected locations, as
   * in HDFS. Updates {@code blocks}.
   */
  public static List<ReplicaUnderConstructionRow> expectedOrReported(
      ExecutePhase tx, FileBlocks blocks, BlockInfoRow last) throws StorageException {
    List<ReplicaUnderConstructionRow> expected = blocks.expected(last.blockId());
    if (!expected.isEmpty()) {
      return expected;
    }
    List<ReplicaUnderConstructionRow> made = new ArrayList<>();
    for (ReplicaRow r : blocks.replicas(last.blockId())) {
      ReplicaUnderConstructionRow e =
          new ReplicaUnderConstructionRow(
              last.inodeId(),
              last.blockId(),
              r.storageId(),
              (byte) ReplicaState.RBW.getValue(),
              made.size(),
              last.generationStamp());
      tx.insert(ReplicaUnderConstructionRow.TABLE, e);
      made.add(e);
    }
    blocks.setExpected(last.blockId(), made);
    return made;
  }

  /**
   * Whether the last block needs a (new) recovery: it is not under recovery yet, or its recovery
   * was started elsewhere and never sent (the leader sends it), or it timed out.
   */
  private boolean needsNewAttempt(BlockInfoRow last, long now) {
    if (last.underConstructionState() != BlockState.UNDER_RECOVERY) {
      return true;
    }
    if (last.timestamp() == 0) {
      return bm.isLeader();
    }
    return now - last.timestamp() > manager.recoveryTimeoutMillis();
  }

  /**
   * Starts a recovery of {@code last} (HDFS BlockUnderConstructionFeature.initializeBlockRecovery):
   * a new recovery id, the next live expected replica as primary, and, on the leader, the command
   * queued for the primary's next heartbeat. The expected locations must be in {@code blocks}. A
   * truncate's recovery with {@code copyId} (not 0) copies the block into that new block.
   */
  private void start(
      ExecutePhase tx,
      FileBlocks blocks,
      MutableInode file,
      BlockInfoRow last,
      long copyId,
      long now)
      throws IOException {
    DatanodeManager dm = bm.datanodes();
    long recoveryId =
        bm.newGenerationStamp(Math.max(last.generationStamp(), last.blockRecoveryId()));
    List<ReplicaUnderConstructionRow> live = new ArrayList<>();
    for (ReplicaUnderConstructionRow r : blocks.expected(last.blockId())) {
      if (dm.isLive(dm.cachedStorage(r.storageId()))) {
        live.add(r);
      }
    }
    live.sort(Comparator.comparingInt(ReplicaUnderConstructionRow::replicaIndex));
    ReplicaUnderConstructionRow primary = null;
    for (ReplicaUnderConstructionRow r : live) {
      if (r.replicaIndex() > last.primaryNodeIndex()) {
        primary = r;
        break;
      }
    }
    if (primary == null && !live.isEmpty()) {
      primary = live.get(0); // every live replica was tried: round again
    }
    long epoch = bm.leadingEpoch();
    boolean send = primary != null && epoch >= 0;
    // Sent now, or (no primary) retried after the timeout; 0: the leader sends it next round.
    long sentAt = send || primary == null ? now : 0;
    BlockInfoRow recovering =
        new BlockInfoRow(
            last.inodeId(),
            last.blockId(),
            last.blockIndex(),
            last.startOffset(),
            last.numBytes(),
            last.generationStamp(),
            BlockState.UNDER_RECOVERY,
            sentAt,
            primary == null ? -1 : primary.replicaIndex(),
            recoveryId);
    tx.update(BlockInfoRow.TABLE, recovering);
    blocks.replace(recovering);
    long truncateTo = truncateTarget(blocks, file, recovering);
    LOG.warn(
        "internalReleaseLease: file {} has not been closed: recovery {} of block {} ({}), primary"
            + " {}{}",
        describe(file),
        recoveryId,
        bm.extended(last),
        truncateTo < 0
            ? "lease recovery"
            : (copyId != 0 ? "copy into block " + copyId + ", " : "") + "truncate to " + truncateTo,
        primary == null ? "none (no live expected replica)" : primary.storageId(),
        send ? ", command queued" : bm.isLeader() ? "" : ", left to the leader");
    if (!send) {
      return;
    }
    List<DatanodeInfo> locations = new ArrayList<>();
    for (ReplicaUnderConstructionRow r : live) {
      StorageRef s = dm.cachedStorage(r.storageId());
      locations.add(dm.node(s.datanodeUuid()).info());
    }
    DatanodeInfo[] locs = locations.toArray(new DatanodeInfo[0]);
    RecoveringBlock rb =
        truncateTo >= 0
            ? new RecoveringBlock(
                bm.extended(last),
                locs,
                new Block(copyId != 0 ? copyId : last.blockId(), truncateTo, recoveryId))
            : new RecoveringBlock(bm.extended(last), locs, recoveryId);
    BlockRecoveryCommand command = new BlockRecoveryCommand(1);
    command.add(rb);
    // Sent once the recovery id is committed: the datanode never acts on an id the store lacks.
    DatanodeState target = dm.node(dm.cachedStorage(primary.storageId()).datanodeUuid());
    tx.afterCommit(() -> target.addCommand(epoch, command));
  }

  /**
   * The length the last block's replicas are truncated to when this recovery comes from a truncate
   * in the middle of the block, or -1: a truncate leaves the inode shorter than its blocks until
   * the recovery commits.
   */
  public static long truncateTarget(FileBlocks blocks, MutableInode file, BlockInfoRow last) {
    long cut = blocks.length() - file.size;
    return cut > 0 && cut < last.numBytes() ? last.numBytes() - cut : -1;
  }

  private static String describe(MutableInode file) {
    return file.name + " (inode " + file.id + ")";
  }

  static BlockInfoRow with(BlockInfoRow b, long numBytes, long genStamp, byte state) {
    return new BlockInfoRow(
        b.inodeId(),
        b.blockId(),
        b.blockIndex(),
        b.startOffset(),
        numBytes,
        genStamp,
        state,
        b.timestamp(),
        b.primaryNodeIndex(),
        b.blockRecoveryId());
  }
}
