package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.DeleteLevelBatch;
import io.hops.namenode.ops.OpenFilesSpace;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.security.PermissionChecker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * The quiesce of a marked subtree (docs/architecture.md, "Subtree operations", phase 2): a {@link
 * SubtreeWalk} that locks every row under this namenode's mark and, for a caller who is not the
 * superuser, checks HDFS's sub-access permission of a delete on the way. What it keeps depends on
 * the operation: the inodes level by level (a delete), or the subtree's usage (a rename between
 * quota directories, a first quota).
 */
final class Quiesce {
  private final SubtreeWorkers w;

  Quiesce(SubtreeWorkers w) {
    this.w = w;
  }

  /**
   * The subtree's inodes level by level (level 1: the root's children), each kept as a delete needs
   * it; {@code pc} null checks nothing.
   */
  List<List<DeleteLevelBatch.Entry>> levels(InodeRow root, String path, PermissionChecker pc)
      throws IOException {
    return walk(root, path, pc, true, new long[2], new ArrayList<>());
  }

  /** Only checks the caller's sub-access, keeping nothing. */
  void check(InodeRow root, String path, PermissionChecker pc) throws IOException {
    walk(root, path, pc, false, new long[2], new ArrayList<>());
  }

  /**
   * The namespace and storage space of the subtree, root included, as a quota counts them (a file
   * being written with its last block counted full, {@link OpenFilesSpace}); {@code pc} null checks
   * nothing.
   */
  long[] usage(InodeRow root, String path, PermissionChecker pc) throws IOException {
    long[] usage = {1, 0};
    List<InodeRow> open = new ArrayList<>();
    walk(root, path, pc, false, usage, open);
    usage[1] += w.runner.run(() -> new OpenFilesSpace(open));
    return usage;
  }

  /**
   * Adds the subtree's namespace and the space of its closed files to {@code usage}, collects the
   * files being written in {@code open}, and keeps the levels if {@code keep}.
   */
  private List<List<DeleteLevelBatch.Entry>> walk(
      InodeRow root,
      String path,
      PermissionChecker pc,
      boolean keep,
      long[] usage,
      List<InodeRow> open)
      throws IOException {
    List<List<DeleteLevelBatch.Entry>> levels = new ArrayList<>();
    boolean check = pc != null && !pc.isSuperuser();
    SubtreeWalk.walk(
        w.runner,
        w.bound,
        new SubtreeWalk.Dir(root, path),
        LockMode.EXCLUSIVE,
        w.ownMark(root),
        (dir, depth, children) -> {
          w.step();
          if (check && !children.isEmpty()) {
            // HDFS's checkSubAccess with empty directories ignored, level by level.
            pc.check(dir.row(), dir.path(), FsAction.ALL);
            for (InodeRow c : children) {
              pc.checkStickyBit(
                  dir.row(), dir.path(), c, SubtreeWalk.childPath(dir.path(), c.name()), root);
            }
          }
          for (InodeRow c : children) {
            usage[0]++;
            if (c.underConstruction()) {
              open.add(c);
            } else {
              usage[1] += FileSpace.of(c, null);
            }
          }
          if (keep) {
            while (levels.size() < depth) {
              levels.add(new ArrayList<>());
            }
            List<DeleteLevelBatch.Entry> level = levels.get(depth - 1);
            for (InodeRow c : children) {
              level.add(new DeleteLevelBatch.Entry(c.id(), c.parentId(), c.name(), c.isDir()));
            }
          }
        },
        w.pool,
        w.threads);
    return levels;
  }
}
