package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlockTail;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.leases.FileClose;
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
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * {@code complete}: the writer closes its file (HDFS FSDirWriteFileOp.completeFile). The last block
 * is committed with the writer's length; the file closes, leaving its lease, once every block is
 * complete, that is, reported by the minimum number of live replicas; until then the answer is
 * false and the client asks again, as with HDFS. Locks the file exclusively (by id if it was
 * renamed while open), the lease rows, then the file's tail (last and penultimate blocks; every
 * block before them is complete, see {@link FileBlocks}): a cost that does not grow with the file.
 * A retried complete of a closed file succeeds.
 */
public final class Complete extends Operation<Boolean> {
  private final BlockManager bm;
  private final PermissionChecker pc;
  private final String src;
  private final String holder;
  private final ExtendedBlock last;
  private final long fileId;
  private ResolvedPath resolved;
  private InodeRow file;
  private LeaseChanges leases;
  private FileBlocks blocks;
  private final List<Long> waitingFor = new ArrayList<>();
  private AncestorQuotas quotas = AncestorQuotas.none();

  public Complete(
      BlockManager bm,
      PermissionChecker pc,
      String src,
      String holder,
      ExtendedBlock last,
      long fileId) {
    this.bm = bm;
    this.pc = pc;
    this.src = src;
    this.holder = holder;
    this.last = last;
    this.fileId = fileId;
  }

  /** The blocks not yet reported by enough replicas when the answer was false. */
  public List<Long> waitingFor() {
    return waitingFor;
  }

  @Override
  public String name() {
    return "complete";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    OpenFiles.checkPool(bm.blockPoolId(), last);
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    file = OpenFiles.lock(tx, resolved, fileId);
    leases = OpenFiles.leasesToCheck(tx, file, holder);
    if (file != null && !file.isDir()) {
      blocks =
          file.underConstruction()
              ? FileBlockTail.lock(tx, file, LockMode.EXCLUSIVE, bm.datanodes(), -1, false)
              : FileBlocks.blocksOnly(tx, file.id(), LockMode.READ_COMMITTED);
      if (file.underConstruction()) {
        quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
      }
    }
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    if (fileId == HdfsConstants.GRANDFATHER_INODE_ID) {
      Checks.traverseNotCreating(pc, resolved); // old clients: resolved by path, as HDFS does
    }
    if (file != null && !file.isDir() && !file.underConstruction()) {
      // Maybe a retry of a complete that succeeded: it is one if the last blocks match.
      if (AddBlock.sameBlock(last, blocks.last())) {
        return true;
      }
    }
    OpenFiles.checkLease(file, src, fileId, holder, leases);
    BlockInfoRow lastBlock = blocks.last();
    long spaceBefore = FileSpace.of(file, lastBlock);
    if (last != null) {
      if (lastBlock == null || lastBlock.blockId() != last.getBlockId()) {
        throw new IOException(
            "complete of "
                + src
                + ": block "
                + last
                + " is not the last block of the file ("
                + (lastBlock == null ? "it has none" : bm.extended(lastBlock))
                + ")");
      }
      Completion.commit(tx, bm, blocks, lastBlock, last, src);
    }
    MutableInode inode = MutableInode.of(file);
    inode.size = blocks.length();
    long spaceAfter =
        FileSpace.of(inode.size, inode.replication, inode.preferredBlockSize, blocks.last());
    quotas.add(0, spaceAfter - spaceBefore);
    quotas.flush(tx);
    for (BlockInfoRow b : blocks.blocks()) {
      if (b.underConstructionState() != BlockState.COMPLETE) {
        for (BlockInfoRow b2 : blocks.blocks()) {
          if (b2.underConstructionState() != BlockState.COMPLETE) {
            waitingFor.add(b2.blockId());
          }
        }
        tx.update(InodeRow.TABLE, inode.toRow());
        return false; // not yet reported by enough replicas: the client asks again
      }
    }
    FileClose.close(tx, inode, leases, bm.now());
    leases.flush(tx);
    bm.queueReplicationChecks(tx, blocks, inode.replication);
    return true;
  }
}
