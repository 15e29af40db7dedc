package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.smallfiles.SmallFileStore;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.security.AccessControlException;

/**
 * hops-client's read of a small file: checked as {@code getBlockLocations} is, then the bytes of a
 * file stored in the database in the same transaction (B + PK(SHARED) + one PK or PPIS), or null
 * for a file on datanodes. A missing data row is {@link BlockMissingException}, as a block without
 * replicas is for a reader.
 */
public final class ReadSmallFile extends Operation<byte[]> {
  private final PermissionChecker pc;
  private final SmallFileStore store;
  private final String src;
  private ResolvedPath resolved;
  private byte[] data;

  public ReadSmallFile(PermissionChecker pc, SmallFileStore store, String src) {
    this.pc = pc;
    this.store = store;
    this.src = src;
  }

  @Override
  public String name() {
    return "readSmallFile";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.SHARED);
    InodeRow file = resolved.target();
    if (file != null && !file.isDir() && file.fileStoredInDb()) {
      data = store.read(tx, file.id(), file.size());
    }
  }

  @Override
  protected byte[] execute(ExecutePhase tx) throws IOException {
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    int last = Math.min(resolved.inodes().size(), resolved.depth());
    for (int i = 0; i < last; i++) {
      if (!resolved.inodes().get(i).isDir()) {
        throw new AccessControlException(Checks.notADirectory(resolved, i).getMessage());
      }
    }
    InodeRow file = Checks.file(resolved, path);
    pc.checkTraverse(resolved);
    pc.check(file, path, FsAction.READ);
    if (!file.fileStoredInDb()) {
      return null;
    }
    if (data == null) {
      throw new BlockMissingException(
          path, "Could not obtain the data of " + path + " from the database: row missing", 0);
    }
    return data;
  }
}
