package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.security.AccessControlException;

/**
 * hops-client's read of a small file: checked as {@code getBlockLocations} is, then the bytes of a
 * file stored in the database in the same transaction, or null for a file on datanodes: B + one PK
 * or PPIS (the target read committed in the ancestors' batch), or B + PK(SHARED) + one PK or PPIS
 * when locked. A missing data row is {@link BlockMissingException}, as a block without replicas is
 * for a reader. The superuser is refused a file marked {@code
 * security.hdfs.unreadable.by.superuser}, as by {@code getBlockLocations}.
 *
 * <p>A read takes no row lock at first ({@link #lockFree}): the file's inode and its data row are
 * read committed, and a data row that does not match the inode (absent, or of another length: a
 * write to the file committed between the two reads) makes the answer {@link Answer#unsure()}; the
 * caller then reads again with the inode locked shared, where a missing row is the file's state.
 * Bytes that match the inode's length are the file's bytes as some committed write left them, which
 * is what a read through datanodes sees too (the permission check of {@code getBlockLocations}
 * precedes the block reads).
 */
public final class ReadSmallFile extends Operation<ReadSmallFile.Answer> {
  /**
   * The bytes (null for a file on datanodes), the file read (for its access time), and whether a
   * lock-free read met a write and must be repeated locked.
   */
  public record Answer(byte[] data, InodeRow file, boolean unsure) {}

  private final PermissionChecker pc;
  private final SmallFileStore store;
  private final String src;
  private ResolvedPath resolved;
  private byte[] data;
  private boolean unreadableBySuperuser;
  private boolean locked = true;
  private io.hops.namenode.ops.snapshot.SnapshotSettings snapshotSettings;

  /** A path into a {@code .snapshot}, when snapshots are on; else null. */
  private io.hops.namenode.ops.snapshot.SnapshotView snapshot;

  public ReadSmallFile(PermissionChecker pc, SmallFileStore store, String src) {
    this.pc = pc;
    this.store = store;
    this.src = src;
  }

  /** Reads without locking the file (see the class comment). */
  public ReadSmallFile lockFree() {
    this.locked = false;
    return this;
  }

  /**
   * Serves paths into a {@code .snapshot} when {@code settings} turn snapshots on: the bytes the
   * file had at the snapshot ({@link io.hops.namenode.ops.snapshot.SmallFileTails#dataIdAt}).
   */
  public ReadSmallFile snapshots(io.hops.namenode.ops.snapshot.SnapshotSettings settings) {
    this.snapshotSettings = settings;
    return this;
  }

  @Override
  public String name() {
    return "readSmallFile";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved =
        locked
            ? tx.resolve(src, LockMode.READ_COMMITTED, LockMode.SHARED)
            : tx.resolveCommitted(src);
    if (snapshotSettings != null) {
      snapshot =
          io.hops.namenode.ops.snapshot.SnapshotView.read(snapshotSettings, tx, resolved, false);
      if (snapshot != null) {
        InodeRow entry = snapshot.entry();
        if (entry != null && !entry.isDir() && entry.fileStoredInDb()) {
          long at =
              io.hops.namenode.ops.snapshot.SmallFileTails.dataIdAt(
                  tx, entry, snapshot.snapshotId());
          data = entry.size() == 0 ? new byte[0] : store.read(tx, at, entry.size());
        }
        return;
      }
    }
    InodeRow file = resolved.target();
    // Only the superuser can be refused by the marker: nobody else pays for reading xattrs.
    if (file != null && !file.isDir() && pc.enabled() && pc.isSuperuser()) {
      unreadableBySuperuser = XAttrs.read(tx, file).stream().anyMatch(XAttrs::isUnreadableMarker);
    }
    if (file != null && !file.isDir() && file.fileStoredInDb()) {
      data = store.read(tx, file.id(), file.size());
    }
  }

  @Override
  protected Answer execute(ExecutePhase tx) throws IOException {
    if (snapshot != null) {
      // A snapshot is read-only: no access time is kept (no file answered), as in HDFS.
      InodeRow asItWas = snapshot.fileToRead(pc);
      if (!asItWas.fileStoredInDb()) {
        return new Answer(null, null, false);
      }
      if (data == null && !locked) {
        return new Answer(null, null, true); // its live rows changed meanwhile: read again
      }
      if (data == null) {
        throw new BlockMissingException(
            src, "Could not obtain the data of " + src + " from the database: row missing", 0);
      }
      return new Answer(data, null, false);
    }
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    int last = Math.min(resolved.inodes().size(), resolved.depth());
    for (int i = 0; i < last; i++) {
      if (!resolved.inodes().get(i).isDir()) {
        throw new AccessControlException(Checks.notADirectory(resolved, i).getMessage());
      }
    }
    InodeRow file = Checks.file(resolved, path);
    if (unreadableBySuperuser) {
      throw new AccessControlException(
          "Access is denied for "
              + pc.caller().user()
              + " since the superuser is not allowed to perform this operation.");
    }
    pc.checkTraverse(resolved);
    pc.check(file, path, FsAction.READ);
    if (!file.fileStoredInDb()) {
      return new Answer(null, file, false);
    }
    if (data == null && !locked) {
      return new Answer(null, file, true);
    }
    if (data == null) {
      throw new BlockMissingException(
          path, "Could not obtain the data of " + path + " from the database: row missing", 0);
    }
    return new Answer(data, file, false);
  }
}
