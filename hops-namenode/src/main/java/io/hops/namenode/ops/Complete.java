package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.leases.ZeroLengthFileRecovery;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;

/**
 * {@code complete} of a file without blocks: the writer closes it, and it leaves its lease (HDFS
 * FSDirWriteFileOp.completeFile). Locks the file exclusively (its parent does not change), then the
 * caller's lease row: B + 2 PK + W. The file is the one with the client's {@code fileId}: if the
 * path now names another inode (the file was renamed while open), it is found by id, as HDFS does.
 * Completing a closed file without blocks again succeeds, as HDFS answers a retried RPC.
 *
 * <p>A file with blocks ({@code last} not null) needs the data path and is refused.
 */
public final class Complete extends Operation<Boolean> {
  private final PermissionChecker pc;
  private final String src;
  private final String holder;
  private final ExtendedBlock last;
  private final long fileId;
  private ResolvedPath resolved;
  private InodeRow file;
  private LeaseChanges leases;
  private List<BlockInfoRow> closedFileBlocks;

  public Complete(
      PermissionChecker pc, String src, String holder, ExtendedBlock last, long fileId) {
    this.pc = pc;
    this.src = src;
    this.holder = holder;
    this.last = last;
    this.fileId = fileId;
  }

  @Override
  public String name() {
    return "complete";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    if (last != null) {
      throw new IOException(
          "complete of "
              + src
              + " with last block "
              + last
              + ": files with blocks need the data path, which hops does not support yet");
    }
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    file = resolved.target();
    if (fileId != HdfsConstants.GRANDFATHER_INODE_ID && (file == null || file.id() != fileId)) {
      file = lockById(tx);
    }
    Set<String> holders = new HashSet<>();
    holders.add(holder);
    if (file != null && !file.isDir() && file.underConstruction()) {
      holders.add(file.clientName());
    }
    leases = LeaseChanges.lock(tx, holders);
    if (file != null && !file.isDir() && !file.underConstruction()) {
      // Maybe a retry of a complete that succeeded: it is one if the file has no last block.
      closedFileBlocks = tx.findByPartition(BlockInfoRow.TABLE, file.id(), LockMode.READ_COMMITTED);
    }
  }

  /** The inode with the client's file id, wherever it is now, locked exclusively; or null. */
  private InodeRow lockById(LockPhase tx) throws IOException {
    List<InodeRow> seen = tx.findByIndex(InodeRow.TABLE, "id", fileId, LockMode.READ_COMMITTED);
    if (seen.isEmpty()) {
      return null;
    }
    InodeRow s = seen.get(0);
    InodeRow locked =
        tx.find(InodeRow.TABLE, Inodes.key(s.parentId(), s.name()), LockMode.EXCLUSIVE);
    if (locked == null || locked.id() != fileId) {
      throw new TransientStorageException("inode " + fileId + " moved while being locked");
    }
    return locked;
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    if (fileId == HdfsConstants.GRANDFATHER_INODE_ID) {
      Checks.traverseNotCreating(pc, resolved); // old clients: resolved by path, as HDFS does
    }
    LeaseRow lease = holder == null ? null : leases.read(holder);
    String where =
        src
            + " (inode "
            + fileId
            + ") "
            + (lease != null
                ? "[Lease.  Holder: " + holder + ", pending creates: " + lease.count() + "]"
                : "Holder " + holder + " does not have any open files.");
    if (file == null) {
      throw new FileNotFoundException("File does not exist: " + where);
    }
    if (file.isDir()) {
      throw new LeaseExpiredException("INode is not a regular file: " + where);
    }
    if (!file.underConstruction()) {
      if (closedFileBlocks.isEmpty()) {
        return true;
      }
      throw new LeaseExpiredException("File is not open for writing: " + where);
    }
    String owner = file.clientName();
    if (holder != null && !owner.equals(holder)) {
      throw new LeaseExpiredException(
          "Client (=" + holder + ") is not the lease owner (=" + owner + ": " + where);
    }
    ZeroLengthFileRecovery.close(tx, MutableInode.of(file), leases, System.currentTimeMillis());
    leases.flush(tx);
    return true;
  }
}
