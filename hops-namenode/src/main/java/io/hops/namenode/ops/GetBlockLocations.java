package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.FileBlockRange;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.security.AccessControlException;

/**
 * {@code getBlockLocations} (open): read like a stat, B; a file that may have blocks or data
 * (non-empty, being written, or stored in the database) is read again under a shared lock, + PK
 * (SHARED), and also reads its blocks and where their replicas are: a complete file of a few blocks
 * three pruned scans of its partition (blocks, replicas, corrupt replicas), and the expected
 * replicas too while a block is being written (docs/architecture.md, "Database cost per
 * operation"): the rows of only the blocks of the range and of the last block, found by where they
 * begin, and their replicas ({@link FileBlockRange#lock}), so reading a block costs the same
 * whatever the length of the file. The answer is what HDFS's BlockManager.createLocatedBlocks
 * gives, replicas sorted for the reader.
 *
 * <p>The access time is not written here, which would turn every read into a write: the file read
 * is handed to {@link AccessTimes} afterwards ({@link #file()}), which updates it in the background
 * when dfs.namenode.accesstime.precision has passed, as HDFS does.
 */
public final class GetBlockLocations extends Operation<LocatedBlocks> {
  private final PermissionChecker pc;
  private final String src;
  private final long offset;
  private final long length;
  private ResolvedPath resolved;

  /** The file row read again under a shared lock, if it may have blocks or data; else null. */
  private InodeRow locked;

  private FileBlocks blocks;
  private boolean unreadableBySuperuser;
  private final BlockManager bm;
  private final io.hops.namenode.blocks.SmallFileStore smallFiles;
  private InodeRow read;
  private boolean forRead = true;
  private io.hops.namenode.ops.snapshot.SnapshotSettings snapshotSettings;

  /** A path into a {@code .snapshot}, when snapshots are on; else null. */
  private io.hops.namenode.ops.snapshot.SnapshotView snapshot;

  private io.hops.namenode.ops.snapshot.SnapshotBlocks snapshotBlocks;

  /** Where a database file read at a snapshot has its bytes then (its inode id or a tail's). */
  private long snapshotData;

  public GetBlockLocations(
      BlockManager bm,
      io.hops.namenode.blocks.SmallFileStore smallFiles,
      PermissionChecker pc,
      String src,
      long offset,
      long length) {
    this.bm = bm;
    this.smallFiles = smallFiles;
    this.pc = pc;
    this.src = src;
    this.offset = offset;
    this.length = length;
  }

  /**
   * For fsck: the replicas no reader is sent to (on datanodes in maintenance) are located too, as
   * HDFS's fsck counts every stored replica.
   */
  public GetBlockLocations everyReplica() {
    this.forRead = false;
    return this;
  }

  /**
   * Serves paths into a {@code .snapshot} when {@code settings} turn snapshots on: the file as it
   * was ({@link io.hops.namenode.ops.snapshot.SnapshotBlocks}).
   */
  public GetBlockLocations snapshots(io.hops.namenode.ops.snapshot.SnapshotSettings settings) {
    this.snapshotSettings = settings;
    return this;
  }

  @Override
  public String name() {
    return "getBlockLocations";
  }

  /** The file this attempt read, once it answered; null before or after a failure. */
  public InodeRow file() {
    return read;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    if (offset < 0) {
      throw new IllegalArgumentException("Negative offset is not supported. File: " + src);
    }
    if (length < 0) {
      throw new IllegalArgumentException("Negative length is not supported. File: " + src);
    }
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
    if (snapshotSettings != null) {
      snapshot =
          io.hops.namenode.ops.snapshot.SnapshotView.read(snapshotSettings, tx, resolved, false);
      if (snapshot != null) {
        InodeRow entry = snapshot.entry();
        if (entry != null && !entry.isDir() && entry.fileStoredInDb()) {
          snapshotData =
              io.hops.namenode.ops.snapshot.SmallFileTails.dataIdAt(
                  tx, entry, snapshot.snapshotId());
          return;
        }
        snapshotBlocks =
            io.hops.namenode.ops.snapshot.SnapshotBlocks.read(tx, entry, snapshot.snapshotId(), bm);
        return;
      }
    }
    InodeRow file = resolved.target();
    if (file != null && !file.isDir() && mayHaveContent(file)) {
      // Its blocks (or its data in the database) must agree with its row: read it again, locked.
      locked = tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(file), LockMode.SHARED);
      if (locked == null || locked.id() != file.id()) {
        throw new TransientStorageException("getBlockLocations: " + src + " changed while read");
      }
      file = locked;
    }
    // Only the superuser can be refused by the marker: nobody else pays for reading xattrs.
    if (file != null && !file.isDir() && pc.enabled() && pc.isSuperuser()) {
      unreadableBySuperuser = XAttrs.read(tx, file).stream().anyMatch(XAttrs::isUnreadableMarker);
    }
    if (file != null
        && !file.isDir()
        && !file.fileStoredInDb()
        && (file.size() > 0 || file.underConstruction())) {
      blocks = FileBlockRange.lock(tx, file, offset, length, bm.datanodes());
    }
  }

  /**
   * Whether a file may have blocks or data: an empty, closed file has neither, so its row read
   * committed (one consistent row) is the whole answer, and no lock is taken.
   */
  private static boolean mayHaveContent(InodeRow file) {
    return file.size() > 0 || file.underConstruction() || file.fileStoredInDb();
  }

  @Override
  protected LocatedBlocks execute(ExecutePhase tx) throws IOException {
    if (snapshot != null) {
      // A snapshot is read-only: its access time is not kept (read stays null), as in HDFS.
      InodeRow asItWas = snapshot.fileToRead(pc);
      if (asItWas.fileStoredInDb()) {
        return smallFiles.locatedBlocksAt(
            snapshotData, asItWas.size(), bm.blockPoolId(), resolved.path());
      }
      return io.hops.namenode.ops.snapshot.SnapshotBlocks.located(
          snapshotBlocks, bm, offset, length, pc.caller().clientMachine());
    }
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    // HDFS resolves without permission checks first (a file inside the path is still refused),
    // then wants the file, then checks traversal and READ.
    int last = Math.min(resolved.inodes().size(), resolved.depth());
    for (int i = 0; i < last; i++) {
      if (!resolved.inodes().get(i).isDir()) {
        throw new AccessControlException(Checks.notADirectory(resolved, i).getMessage());
      }
    }
    InodeRow file = Checks.file(resolved, path);
    if (locked != null) {
      file = locked;
    }
    if (unreadableBySuperuser) {
      // HDFS (FSDirectory.checkUnreadableBySuperuser): before the READ check, for the superuser.
      throw new AccessControlException(
          "Access is denied for "
              + pc.caller().user()
              + " since the superuser is not allowed to perform this operation.");
    }
    pc.checkTraverse(resolved);
    pc.check(file, path, FsAction.READ);
    this.read = file;
    if (file.fileStoredInDb()) {
      return smallFiles.locatedBlocks(file, bm.blockPoolId(), path);
    }
    if (blocks == null) {
      return new LocatedBlocks(0, file.underConstruction(), List.of(), null, false, null, null);
    }
    return bm.locatedBlocks(
        blocks, file.underConstruction(), offset, length, pc.caller().clientMachine(), forRead);
  }
}
