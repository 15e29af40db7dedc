package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * The first step of moving a file stored in the database to datanodes, before a stock client's
 * append or a concat (docs/architecture.md, "Small files in the database"): reads the file's bytes,
 * or, for an empty file, makes it a plain file with no blocks at once. Answers null when there is
 * nothing to move: not a database file, moved already, or a caller without {@code access} to it
 * (the operation that follows then raises what HDFS raises). Locks the file exclusively.
 */
public final class DatabaseFileToMove extends Operation<DatabaseFileToMove.Found> {
  /** A database file with bytes, and the directory it is in: what the move writes to datanodes. */
  public record Found(
      long id, long directoryId, String path, short replication, long blockSize, byte[] data) {}

  private final PermissionChecker pc;
  private final SmallFileStore store;
  private final String src;
  private final FsAction access;
  private ResolvedPath resolved;
  private byte[] data;

  public DatabaseFileToMove(
      PermissionChecker pc, SmallFileStore store, String src, FsAction access) {
    this.pc = pc;
    this.store = store;
    this.src = src;
    this.access = access;
  }

  @Override
  public String name() {
    return "databaseFileToMove";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow file = resolved.target();
    if (file != null && !file.isDir() && file.fileStoredInDb() && file.size() > 0) {
      data = store.read(tx, file.id(), file.size());
    }
  }

  @Override
  protected Found execute(ExecutePhase tx) throws IOException {
    InodeRow file = resolved.target();
    if (file == null || file.isDir() || !file.fileStoredInDb()) {
      return null;
    }
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    try {
      pc.checkTraverse(resolved);
      pc.check(file, path, access);
    } catch (IOException e) {
      return null;
    }
    if (file.size() == 0) {
      MutableInode plain = MutableInode.of(file);
      plain.fileStoredInDb = false;
      store.delete(tx, file.id(), 0);
      tx.update(InodeRow.TABLE, plain.toRow());
      return null;
    }
    if (data == null) {
      return null; // a missing row: the operation that follows reports the file as HDFS would
    }
    return new Found(
        file.id(), file.parentId(), path, file.replication(), file.preferredBlockSize(), data);
  }
}
