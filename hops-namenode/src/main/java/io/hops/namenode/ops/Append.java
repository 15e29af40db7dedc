package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.leases.BlockRecovery;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.leases.LeaseRecovery;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.ipc.RetriableException;

/**
 * {@code append}: a closed file is opened for writing again, leased to the client (HDFS
 * FSDirAppendOp.appendFile). A partial last block goes back under construction, expected where its
 * replicas are, and the client gets it to rebuild a pipeline on; a full last block, or {@code
 * NEW_BLOCK}, gives no block to write to (with {@code NEW_BLOCK}, the last block without locations,
 * which the client names as the previous one when it adds a block).
 *
 * <p>As HDFS (recoverLeaseInternal for APPEND_FILE): a file the caller already writes is {@link
 * AlreadyBeingCreatedException}; a file another client writes is refused unless that client's lease
 * is past the soft limit, in which case the file is released first (closed, and then appended to)
 * or its block recovery starts ({@link RecoveryInProgressException}, after the recovery committed).
 *
 * <p>Locks the parent read-committed and the file exclusively, the lease rows (the caller's, and
 * the current writer's), then the file's blocks with the rows the reopened block leaves (its
 * replication check, pending copies and invalidations).
 */
public final class Append extends Operation<LastBlockWithStatus> {
  private final FileStatuses statuses;
  private final BlockManager bm;
  private final PermissionChecker pc;
  private final LeaseManager leaseManager;
  private final String src;
  private final String holder;
  private final String clientMachine;
  private final boolean newBlock;
  private ResolvedPath resolved;
  private LeaseChanges leases;
  private FileBlocks blocks;
  private LeaseRecovery.Release takeover;
  private AncestorQuotas quotas = AncestorQuotas.none();
  private long now;

  public Append(
      BlockManager bm,
      FileStatuses statuses,
      PermissionChecker pc,
      LeaseManager leaseManager,
      String src,
      String holder,
      EnumSet<CreateFlag> flags) {
    this.bm = bm;
    this.statuses = statuses;
    this.pc = pc;
    this.leaseManager = leaseManager;
    this.src = src;
    this.holder = holder;
    this.clientMachine = pc.caller().clientMachine();
    this.newBlock = flags != null && flags.contains(CreateFlag.NEW_BLOCK);
  }

  @Override
  public String name() {
    return "append";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target == null || target.isDir()) {
      return;
    }
    now = bm.now();
    // As in a create: the caller's lease alone is locked shared if it was just renewed, so one
    // client's appends run together and leave it as it is.
    leases =
        LeaseChanges.lockToAdd(
            tx, holder, target.underConstruction() ? target.clientName() : null, now);
    if (target.underConstruction() && !holder.equals(target.clientName())) {
      LeaseRow writer = leases.read(target.clientName());
      if (writer != null && leaseManager.expiredSoftLimit(writer, now)) {
        takeover = leaseManager.recovery().prepare(tx, target);
        if (takeover instanceof BlockRecovery.Prepared p) {
          blocks = p.blocks().withRemovalRows(tx);
          quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
          p.countIn(quotas);
          return;
        }
      }
    }
    blocks =
        FileBlocks.lock(tx, target.id(), LockMode.EXCLUSIVE, bm.datanodes()).withRemovalRows(tx);
    quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
    if (takeover != null) {
      takeover.countIn(quotas);
    }
  }

  @Override
  protected LastBlockWithStatus execute(ExecutePhase tx) throws IOException {
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = resolved.target();
    if (target != null && target.isDir()) {
      throw new FileAlreadyExistsException(
          "Cannot append to directory " + path + "; already exists as a directory.");
    }
    if (target != null) {
      pc.check(target, path, FsAction.WRITE);
    }
    if (target == null) {
      throw new FileNotFoundException(
          "Failed to append to non-existent file " + path + " for client " + clientMachine);
    }
    if (target.storagePolicy() == HdfsConstants.MEMORY_STORAGE_POLICY_ID) {
      throw new UnsupportedOperationException("Cannot append to lazy persist file " + path);
    }
    if (target.fileStoredInDb()) {
      // Its bytes are in the database, not in a block a pipeline could reopen.
      throw new StoredInDatabaseException(
          src,
          "Cannot append to "
              + path
              + ": it is stored in the database (storage policy DB); append to it with hops-client,"
              + " which moves it to datanodes when it outgrows the database");
    }
    MutableInode file = MutableInode.of(target);
    if (file.underConstruction) {
      IOException refused =
          takeover().takeOver(tx, file, path, leases, blocks.last(), takeover, now);
      if (refused != null) {
        tx.failAfterCommit(refused);
        return null;
      }
    }
    BlockInfoRow last = blocks.last();
    if (last != null) {
      if (last.underConstructionState() == BlockState.COMMITTED) {
        throw new RetriableException(
            new NotReplicatedYetException(
                "append: lastBlock="
                    + bm.extended(last).getLocalBlock()
                    + " of src="
                    + path
                    + " is COMMITTED but not yet COMPLETE."));
      }
      if (last.underConstructionState() == BlockState.COMPLETE
          && bm.liveReplicas(blocks, last.blockId()) < bm.minReplication()) {
        throw new IOException(
            "append: lastBlock="
                + bm.extended(last).getLocalBlock()
                + " of src="
                + path
                + " is not sufficiently replicated yet.");
      }
    }
    // HDFS FSDirAppendOp.verifyQuotaForUCBlock: a partial last block will count in full.
    long reopened = last == null ? 0 : Math.max(0, file.preferredBlockSize - last.numBytes());
    reopened *= file.replication;
    quotas.verify(0, reopened);
    file.underConstruction = true;
    file.clientName = holder;
    file.clientMachine = clientMachine;
    LocatedBlock lb = null;
    if (last != null && newBlock) {
      lb = new LocatedBlock(bm.extended(last), DatanodeInfo.EMPTY_ARRAY);
    } else if (last != null && last.numBytes() != file.preferredBlockSize) {
      lb = reopen(tx, last);
      quotas.add(0, reopened);
      quotas.flush(tx);
    }
    file.size = blocks.length();
    tx.update(InodeRow.TABLE, file.toRow());
    leases.addFile(tx, holder, file.id, path, now);
    leases.flush(tx);
    HdfsFileStatus status = statuses.status(file.toRow(), HdfsFileStatus.EMPTY_NAME);
    return new LastBlockWithStatus(lb, status);
  }

  /**
   * The partial last block goes back under construction, expected where its replicas are (HDFS
   * BlockManager.convertLastBlockToUnderConstruction): its finalized replicas will be reported
   * again, with the stamp of the append's pipeline; its replication check, pending copies and
   * invalidations of those replicas are dropped.
   */
  private LocatedBlock reopen(ExecutePhase tx, BlockInfoRow last) throws IOException {
    long id = last.blockId();
    List<ReplicaRow> kept = new ArrayList<>();
    for (ReplicaRow r : blocks.replicas(id)) {
      if (blocks.corrupt(id).stream().noneMatch(c -> c.storageId() == r.storageId())) {
        kept.add(r);
      }
    }
    List<Integer> storages = kept.stream().map(ReplicaRow::storageId).toList();
    BlockInfoRow reopened =
        new BlockInfoRow(
            last.inodeId(),
            id,
            last.blockIndex(),
            last.startOffset(),
            last.numBytes(),
            last.generationStamp(),
            BlockState.UNDER_CONSTRUCTION,
            last.timestamp(),
            -1,
            0);
    tx.update(BlockInfoRow.TABLE, reopened);
    bm.setExpected(tx, reopened, blocks.expected(id), storages);
    for (ReplicaRow r : blocks.replicas(id)) {
      tx.delete(ReplicaRow.TABLE, r);
    }
    if (blocks.queuedForCheck(id)) {
      tx.delete(
          UnderReplicatedBlockRow.TABLE, UnderReplicatedBlockRow.TABLE.key(last.inodeId(), id));
    }
    PendingBlockRow pending = blocks.pending(id);
    if (pending != null) {
      tx.delete(PendingBlockRow.TABLE, pending);
    }
    for (InvalidatedBlockRow r : blocks.invalidations(id)) {
      if (storages.contains(r.storageId())) {
        tx.delete(InvalidatedBlockRow.TABLE, r);
      }
    }
    blocks.replace(reopened);
    blocks.setReplicas(id, List.of());
    List<ReplicaUnderConstructionRow> expected = new ArrayList<>();
    for (int i = 0; i < storages.size(); i++) {
      expected.add(
          new ReplicaUnderConstructionRow(
              last.inodeId(),
              id,
              storages.get(i),
              (byte) ReplicaState.RBW.getValue(),
              i,
              last.generationStamp()));
    }
    blocks.setExpected(id, expected);
    long offset = blocks.length() - last.numBytes();
    return bm.locatedBlock(blocks, reopened, offset, clientMachine);
  }

  private LeaseTakeover takeover() {
    return new LeaseTakeover("APPEND_FILE", holder, clientMachine);
  }
}
