package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlockTail;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * {@code fsync}: the writer's hflush/hsync persists its blocks (HDFS FSNamesystem.fsync). With
 * {@code UPDATE_LENGTH} ({@code lastBlockLength > 0}) the last block under construction takes the
 * length the client reports, and so does the file: {@code getFileStatus} shows the synced bytes.
 * Locks the file (by id if it was renamed), the writer's lease row and the file's tail (its last
 * and penultimate blocks, see {@link FileBlockTail#lock}).
 */
public final class Fsync extends Operation<Void> {
  private final PermissionChecker pc;
  private final String src;
  private final long fileId;
  private final String clientName;
  private final long lastBlockLength;
  private ResolvedPath resolved;
  private InodeRow file;
  private LeaseChanges leases;
  private FileBlocks blocks;

  public Fsync(
      PermissionChecker pc, String src, long fileId, String clientName, long lastBlockLength) {
    this.pc = pc;
    this.src = src;
    this.fileId = fileId;
    this.clientName = clientName;
    this.lastBlockLength = lastBlockLength;
  }

  @Override
  public String name() {
    return "fsync";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    file = OpenFiles.lock(tx, resolved, fileId);
    leases = OpenFiles.leasesToCheck(tx, file, clientName);
    if (file != null && !file.isDir()) {
      blocks = FileBlockTail.lock(tx, file, LockMode.EXCLUSIVE, null, -1, false);
    }
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    if (fileId == HdfsConstants.GRANDFATHER_INODE_ID) {
      Checks.traverseNotCreating(pc, resolved);
    }
    OpenFiles.checkLease(file, src, fileId, clientName, leases);
    BlockInfoRow last = blocks.last();
    if (lastBlockLength > 0
        && last != null
        && last.underConstructionState() != BlockState.COMPLETE
        && last.numBytes() != lastBlockLength) {
      BlockInfoRow synced = Completion.with(last, lastBlockLength, last.underConstructionState());
      tx.update(BlockInfoRow.TABLE, synced);
      blocks.replace(synced);
    }
    MutableInode inode = MutableInode.of(file);
    if (inode.size != blocks.length()) {
      inode.size = blocks.length();
      tx.update(InodeRow.TABLE, inode.toRow());
    }
    return null;
  }
}
