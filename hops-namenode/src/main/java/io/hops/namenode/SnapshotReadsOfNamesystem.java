package io.hops.namenode;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.SnapshotReads;
import io.hops.namenode.ops.snapshot.SnapshotGuard;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/** {@link SnapshotReads} over the namesystem that {@code ops/snapshot} still takes. */
final class SnapshotReadsOfNamesystem implements SnapshotReads {
  private final Namesystem ns;

  SnapshotReadsOfNamesystem(Namesystem ns) {
    this.ns = ns;
  }

  @Override
  public SnapshotGuard guard(LockPhase tx, InodeRow dir) throws StorageException {
    return SnapshotGuard.read(ns, tx, dir);
  }

  @Override
  public SnapshotView view(LockPhase tx, ResolvedPath p, boolean list) throws IOException {
    return SnapshotView.read(ns, tx, p, list);
  }

  @Override
  public HdfsFileStatus fileInfo(SnapshotView view, PermissionChecker pc) throws IOException {
    return view.fileInfo(ns, pc);
  }

  @Override
  public DirectoryListing listing(
      SnapshotView view, PermissionChecker pc, byte[] startAfter, int limit) throws IOException {
    return view.listing(ns, pc, startAfter, limit);
  }
}
