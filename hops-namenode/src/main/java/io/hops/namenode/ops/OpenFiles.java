package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.resolve.InodeHintCache;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.LockPhase;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;

/** What the operations on a file being written share: finding it, and checking its lease. */
final class OpenFiles {
  private OpenFiles() {}

  /**
   * The file a writer names: the path's target, or, if the path now names another inode (the file
   * was renamed while open), the inode with the client's file id, locked exclusively, as HDFS finds
   * it by id. Null if neither exists.
   */
  static InodeRow lock(LockPhase tx, ResolvedPath resolved, long fileId) throws IOException {
    InodeRow file = resolved.target();
    if (fileId == HdfsConstants.GRANDFATHER_INODE_ID || (file != null && file.id() == fileId)) {
      return file;
    }
    return byId(tx, fileId);
  }

  /**
   * The inode with {@code id}, wherever it is now, locked exclusively; or null. Where this namenode
   * last saw it (the hint cache) is tried first: one PK read; else, or if the row there is another
   * inode now, an index scan on the id finds it.
   */
  static InodeRow byId(LockPhase tx, long id) throws IOException {
    InodeHintCache.Hint place = tx.placeOf(id);
    if (place != null) {
      InodeRow there =
          tx.find(InodeRow.TABLE, Inodes.key(place.parentId(), place.name()), LockMode.EXCLUSIVE);
      if (there != null && there.id() == id) {
        return inNamespace(tx, there) ? there : null;
      }
    }
    List<InodeRow> seen = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
    if (seen.isEmpty()) {
      return null;
    }
    InodeRow s = seen.get(0);
    InodeRow locked =
        tx.find(InodeRow.TABLE, Inodes.key(s.parentId(), s.name()), LockMode.EXCLUSIVE);
    if (locked == null || locked.id() != id) {
      throw new TransientStorageException("inode " + id + " moved while being locked");
    }
    return inNamespace(tx, locked) ? locked : null;
  }

  /**
   * Whether the root is above {@code inode}: false in a deleted subtree whose rows are still being
   * reclaimed, which HDFS would no longer have. One read per directory above, only on this rare
   * path (a file renamed while open).
   */
  private static boolean inNamespace(LockPhase tx, InodeRow inode) throws IOException {
    return tx.inodePaths().pathOf(inode) != null;
  }

  /**
   * Lock phase of an operation that checks {@code holder} writes {@code file} ({@link
   * #checkLease}): the lease rows it needs, none (the check reads the inode, and the lease paths it
   * removes are protected by the inode's lock); and, only when the check will refuse, the count of
   * the holder's open files that the message names.
   */
  static LeaseChanges leasesToCheck(LockPhase tx, InodeRow file, String holder) throws IOException {
    LeaseChanges leases = LeaseChanges.withoutRows();
    if (refused(file, holder)) {
      leases.countFiles(tx, holder);
    }
    return leases;
  }

  static boolean refused(InodeRow file, String holder) {
    return file == null
        || file.isDir()
        || !file.underConstruction()
        || (holder != null && !file.clientName().equals(holder));
  }

  /**
   * HDFS's leaseExceptionString: the path, the file id and the holder's lease, which HDFS has while
   * the holder has open files ({@code Lease.toString}: their number as "pending creates").
   */
  static String where(String src, long fileId, String holder, LeaseChanges leases) {
    int files = holder == null ? 0 : leases.openFiles(holder);
    return src
        + " (inode "
        + fileId
        + ") "
        + (files > 0
            ? "[Lease.  Holder: " + holder + ", pending creates: " + files + "]"
            : "Holder " + holder + " does not have any open files.");
  }

  /** HDFS FSNamesystem.checkLease: the file exists, is being written, by {@code holder}. */
  static void checkLease(InodeRow file, String src, long fileId, String holder, LeaseChanges leases)
      throws IOException {
    if (file == null) {
      throw new FileNotFoundException("File does not exist: " + where(src, fileId, holder, leases));
    }
    if (file.isDir()) {
      throw new LeaseExpiredException(
          "INode is not a regular file: " + where(src, fileId, holder, leases));
    }
    if (!file.underConstruction()) {
      throw new LeaseExpiredException(
          "File is not open for writing: " + where(src, fileId, holder, leases));
    }
    String owner = file.clientName();
    if (holder != null && !owner.equals(holder)) {
      throw new LeaseExpiredException(
          "Client (="
              + holder
              + ") is not the lease owner (="
              + owner
              + ": "
              + where(src, fileId, holder, leases));
    }
  }

  /** HDFS checkBlock: a block of another block pool is refused. */
  static void checkPool(String poolId, ExtendedBlock block) throws IOException {
    if (block != null && !poolId.equals(block.getBlockPoolId())) {
      throw new IOException(
          "Unexpected BlockPoolId " + block.getBlockPoolId() + " - expected " + poolId);
    }
  }
}
