package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.FileBlockTail;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * {@code abandonBlock}: the writer gives up the block it could not set a pipeline up for (HDFS
 * FSDirWriteFileOp.abandonBlock). The block goes if it is the file's last one; datanodes that may
 * have started a replica are told to delete it. Anything else (a retry, another block) is a no-op,
 * as in HDFS. Locks the file, the writer's lease, then the file's tail with the rows a removal
 * touches.
 */
public final class AbandonBlock extends Operation<Void> {
  private final PermissionChecker pc;
  private final BlockManager bm;
  private final ExtendedBlock block;
  private final long fileId;
  private final String src;
  private final String holder;
  private ResolvedPath resolved;
  private InodeRow file;
  private LeaseChanges leases;
  private FileBlocks blocks;
  private AncestorQuotas quotas = AncestorQuotas.none();

  public AbandonBlock(
      PermissionChecker pc,
      BlockManager bm,
      ExtendedBlock block,
      long fileId,
      String src,
      String holder) {
    this.pc = pc;
    this.bm = bm;
    this.block = block;
    this.fileId = fileId;
    this.src = src;
    this.holder = holder;
  }

  @Override
  public String name() {
    return "abandonBlock";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    // No check of the block's pool: HDFS compares only the block id with the file's last block.
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    file = OpenFiles.lock(tx, resolved, fileId);
    leases = OpenFiles.leasesToCheck(tx, file, holder);
    if (file != null && !file.isDir()) {
      blocks = FileBlockTail.lock(tx, file, LockMode.EXCLUSIVE, bm.datanodes(), -1, true);
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
    }
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    if (fileId == HdfsConstants.GRANDFATHER_INODE_ID) {
      Checks.traverseNotCreating(pc, resolved);
    }
    OpenFiles.checkLease(file, src, fileId, holder, leases);
    BlockInfoRow last = blocks.last();
    if (last == null || last.blockId() != block.getBlockId()) {
      return null;
    }
    long spaceBefore = FileSpace.of(file, last);
    bm.removeBlock(tx, blocks, last);
    blocks.recordTail(tx);
    MutableInode inode = MutableInode.of(file);
    inode.size = blocks.length();
    quotas.add(
        0,
        FileSpace.of(inode.size, inode.replication, inode.preferredBlockSize, blocks.last())
            - spaceBefore);
    quotas.flush(tx);
    tx.update(InodeRow.TABLE, inode.toRow());
    return null;
  }
}
