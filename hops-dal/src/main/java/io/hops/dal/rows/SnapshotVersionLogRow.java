package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.SignedByteOrder;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * The entry {@code name} of directory {@code parentId} has a version at snapshot {@code snapshotId}
 * ({@link InodeVersionRow}) written below directory {@code dirId}: the snapshottable directory
 * whose snapshots read it, or the held directory whose hold does. Written with the version,
 * partitioned by {@code dirId} and in snapshot order, so that a {@code deleteSnapshot} finds the
 * versions its snapshot may have been the last to read with a bounded range scan, without walking
 * the tree (docs/architecture.md, "Snapshots", "Reclaiming versions").
 *
 * <p>Partition {@link #PENDING} holds one row per reclaim not finished yet, {@code (PENDING, from,
 * dir, "")}: the versions of {@code dir} from snapshot {@code from} on are still to be judged; the
 * leader resumes it if the namenode that started it stops. Rows named {@code "hold"}, {@code
 * "latest"} and {@code "kept"} there mark the other work of the same kind: a hold's end, a snapshot
 * taken after the latest was deleted (the versions written at its id), and a release of kept files.
 */
@TableName("snapshot_version_log")
public record SnapshotVersionLogRow(
    @Pk @PartitionKey long dirId,
    @Pk long snapshotId,
    @Pk long parentId,
    @Pk @SignedByteOrder @MaxBytes(255) String name) {
  public static final Table<SnapshotVersionLogRow> TABLE = Table.of(SnapshotVersionLogRow.class);

  /** The partition of the reclaims still to finish (no directory has inode id 0). */
  public static final long PENDING = 0;

  /** The row that says the versions of {@code dirId} from snapshot {@code from} on wait. */
  public static SnapshotVersionLogRow pending(long dirId, long from) {
    return new SnapshotVersionLogRow(PENDING, from, dirId, "");
  }

  /** The directory whose reclaim a {@link #pending} row names. */
  public long pendingDir() {
    return parentId;
  }
}
