package io.hops.namenode.ops.snapshot;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The quota usage of a directory that left a snapshot's entry by a rename, as HDFS's {@code
 * INodeReference.WithName.computeQuotaUsage} counts it in the usage of every directory above the
 * entry: the directory as it was at the reference's snapshot (INodeDirectory.computeQuotaUsage at
 * that snapshot's id), itself and every inode it had then, files at their length and replication
 * then (docs/architecture.md, "Snapshots", quota usage of what snapshots keep). The snapshot is the
 * one {@link RenamedDirectoryCount} counts a content summary at.
 *
 * <p>Cost: the keeper's snapshots (a pruned scan, two for a held keeper), then per directory of the
 * subtree as it was its live children and its versions (two pruned scans, read committed); a walk,
 * made once per charge by the first quota that needs it ({@code UncountedCharges}), and bounded by
 * the caller: null past {@code bound} inodes read.
 */
public final class RenamedDirectoryUsage {
  private RenamedDirectoryUsage() {}

  /**
   * The usage ({@code {ns, ds}}) of directory {@code dirId}, renamed away from an entry that
   * snapshot {@code snapshotId} of {@code keeper} had, or null past {@code bound} inodes read.
   */
  public static long[] of(LockPhase tx, long keeper, long snapshotId, long dirId, long bound)
      throws StorageException {
    long at = SnapshotContent.renamedCountedAt(tx, keeper, snapshotId);
    long[] usage = {1, 0};
    Deque<Long> left = new ArrayDeque<>(List.of(dirId));
    long read = 0;
    while (!left.isEmpty()) {
      List<InodeRow> children = SnapshotView.children(tx, left.poll(), at);
      read += Math.max(1, children.size());
      if (read > bound) {
        return null;
      }
      for (InodeRow c : children) {
        usage[0]++;
        if (c.isDir()) {
          left.add(c.id());
        } else {
          usage[1] += FileSpace.of(c, null);
        }
      }
    }
    return usage;
  }
}
