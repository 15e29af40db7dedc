package io.hops.namenode.ops;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.snapshot.SnapshotGuard;
import io.hops.namenode.tx.LockPhase;

/**
 * Reads what a delete or a rename must know about the snapshottable directories at or below a
 * directory ({@link SnapshotGuard#read}). The wiring builds it, since that read still takes the
 * namesystem for whether snapshots are enabled: the operations that need it take this instead.
 */
@FunctionalInterface
public interface SnapshotGuards {
  SnapshotGuard read(LockPhase tx, InodeRow dir) throws StorageException;
}
