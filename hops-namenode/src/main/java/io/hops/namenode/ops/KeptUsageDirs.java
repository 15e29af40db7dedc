package io.hops.namenode.ops;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.ResolvedPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The directories a {@code snapshot_kept_usage} charge names (docs/architecture.md, "Snapshots",
 * quota usage of what snapshots keep): every directory above what a snapshot keeps, with a quota or
 * not, the root excluded (it keeps no quota and is never renamed). HDFS's {@code computeQuotaUsage}
 * of any of them counts the snapshot data below it, so a rename of one (with a quota or not) takes
 * the charges naming it along ({@link CarriedKeptUsage}), and a quota set on one later counts them
 * ({@link SetQuota}); only the quota directories' rows change a {@code quota} row.
 */
final class KeptUsageDirs {
  private KeptUsageDirs() {}

  /** The directories among the first {@code count} inodes of {@code path}, root excluded. */
  static List<Long> of(ResolvedPath path, int count) {
    List<Long> ids = new ArrayList<>();
    List<InodeRow> inodes = path.inodes();
    for (int i = 1; i < Math.min(count, inodes.size()); i++) {
      InodeRow r = inodes.get(i);
      if (r != null && r.isDir()) {
        ids.add(r.id());
      }
    }
    return ids;
  }

  /** Whether a directory among the first {@code count} inodes of {@code path} has a quota. */
  static boolean anyQuota(ResolvedPath path, int count) {
    List<InodeRow> inodes = path.inodes();
    for (int i = 1; i < Math.min(count, inodes.size()); i++) {
      InodeRow r = inodes.get(i);
      if (r != null && r.isDir() && r.hasQuota()) {
        return true;
      }
    }
    return false;
  }
}
