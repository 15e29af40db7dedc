package io.hops.namenode.ops;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.snapshot.SnapshotGuard;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * What the namespace operations read of snapshots through {@code ops/snapshot}, whose {@link
 * SnapshotGuard} and {@link SnapshotView} still take the namesystem (for whether snapshots are
 * enabled, and to spell statuses): the wiring builds this over it, and the operations take this
 * instead. Once those take the snapshot settings and {@link FileStatuses}, the operations call them
 * directly and this goes.
 */
public interface SnapshotReads {
  /** {@link SnapshotGuard#read}: the snapshottable directories at or below {@code dir}. */
  SnapshotGuard guard(LockPhase tx, InodeRow dir) throws StorageException;

  /** {@link SnapshotView#read}: the path's view inside a snapshot, or null if it is not in one. */
  SnapshotView view(LockPhase tx, ResolvedPath p, boolean list) throws IOException;

  /** {@link SnapshotView#fileInfo}. */
  HdfsFileStatus fileInfo(SnapshotView view, PermissionChecker pc) throws IOException;

  /** {@link SnapshotView#listing}. */
  DirectoryListing listing(SnapshotView view, PermissionChecker pc, byte[] startAfter, int limit)
      throws IOException;
}
