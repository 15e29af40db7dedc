package io.hops.namenode.ops;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.ops.snapshot.SmallFileTails;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * hops-client's append to a file stored in the database, sent with the stream's close: the file is
 * found by its inode id (an append follows the file through a rename, as in HDFS), its rows are
 * rewritten with the appended bytes in the tier the new length belongs to, and its space counted.
 * Declined (false, nothing changed) when the file is no longer in the database, no longer has the
 * length the writer saw, or would outgrow the maximum: the client then appends through the
 * pipeline. WRITE on the file, as {@code append}. A snapshot that has the file keeps its bytes as
 * they were ({@link SmallFileTails}).
 */
public final class AppendSmallFile extends Operation<Boolean> {
  private final PermissionChecker pc;
  private final SmallFileStore store;
  private final long fileId;
  private final long expectedLength;
  private final byte[] appended;
  private final long now;
  private final IdPool inodeIds;
  private ResolvedPath resolved;
  private SmallFileTails tails;
  private byte[] data;
  private AncestorQuotas quotas = AncestorQuotas.none();

  public AppendSmallFile(
      PermissionChecker pc,
      SmallFileStore store,
      IdPool inodeIds,
      long fileId,
      long expectedLength,
      byte[] appended,
      long now) {
    this.pc = pc;
    this.store = store;
    this.inodeIds = inodeIds;
    this.fileId = fileId;
    this.expectedLength = expectedLength;
    this.appended = appended;
    this.now = now;
  }

  @Override
  public String name() {
    return "appendSmallFile";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    InodePaths paths = tx.inodePaths();
    InodeRow found = paths.byId(fileId);
    String path = found == null ? null : paths.pathOf(found);
    if (path == null) {
      return;
    }
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow file = resolved.target();
    if (file == null || file.id() != fileId) {
      throw new TransientStorageException("appendSmallFile: file " + fileId + " moved meanwhile");
    }
    if (file.fileStoredInDb()) {
      data = store.read(tx, file.id(), file.size());
      tails = SmallFileTails.lock(tx, file, List.of());
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
    }
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    if (resolved == null) {
      return false;
    }
    InodeRow file = resolved.target();
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    Checks.traverseNotCreating(pc, resolved);
    pc.check(file, path, FsAction.WRITE);
    long length = file.size() + appended.length;
    if (!file.fileStoredInDb()
        || data == null
        || file.size() != expectedLength
        || length > store.maxSize()) {
      return false;
    }
    long space = (long) appended.length * file.replication();
    quotas.verify(0, space);
    quotas.add(0, space);
    quotas.flush(tx);
    byte[] all = java.util.Arrays.copyOf(data, (int) length);
    System.arraycopy(appended, 0, all, data.length, appended.length);
    if (tails != null) {
      // The snapshots keep the bytes they have; as HDFS's shared last block, charged once.
      tails.keep(tx, inodeIds, store, data);
    }
    store.delete(tx, file.id(), file.size());
    store.write(tx, file.id(), all);
    MutableInode m = MutableInode.of(file);
    m.size = length;
    m.modificationTime = now;
    tx.update(InodeRow.TABLE, m.toRow());
    return true;
  }
}
