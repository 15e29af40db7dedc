package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.DeleteLevelBatch;
import io.hops.namenode.ops.OpenFilesSpace;
import io.hops.namenode.ops.snapshot.DeletedHeldDirectory;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.security.PermissionChecker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
   * A held directory inside a subtree to delete (docs/architecture.md, "Snapshots": moved out of
   * its snapshots' reach), with its parent's entry, its usage (its subtree's namespace and storage
   * space, itself included) and the holds of the held directories below it, by id.
   */
  record Held(
      DeleteLevelBatch.Entry parent,
      DeleteLevelBatch.Entry entry,
      long[] usage,
      Map<Long, Long> inner) {}

  /**
   * What a delete's quiesce found: the inodes level by level (level 1: the root's children), and
   * the outermost held directories, whose subtrees are not in the levels: the snapshots that had
   * them still read them ({@link io.hops.namenode.ops.DetachHeldBelow}).
   */
  record Found(List<List<DeleteLevelBatch.Entry>> levels, List<Held> held) {
    long inodes() {
      return levels.stream().mapToLong(List::size).sum();
    }
  }

  /**
   * The subtree's inodes level by level, each kept as a delete needs it, and the held directories
   * kept out of them; {@code pc} null checks nothing.
   */
  Found levels(InodeRow root, String path, PermissionChecker pc) throws IOException {
    Map<Long, SubtreeWalk.Dir> held = new ConcurrentHashMap<>();
    List<List<DeleteLevelBatch.Entry>> levels =
        walk(new SubtreeWalk.Dir(root, path), root, pc, true, new long[2], new ArrayList<>(), held);
    if (held.isEmpty()) {
      return new Found(levels, List.of());
    }
    // Level by level from the top: a held directory whose parent is not left out is an outermost
    // one; it and everything below it are left out.
    Set<Long> out = new HashSet<>();
    Map<Long, DeleteLevelBatch.Entry> dirs = new HashMap<>();
    dirs.put(root.id(), entryOf(root));
    List<Held> outermost = new ArrayList<>();
    for (List<DeleteLevelBatch.Entry> level : levels) {
      List<DeleteLevelBatch.Entry> kept = new ArrayList<>(level.size());
      for (DeleteLevelBatch.Entry e : level) {
        if (out.contains(e.parentId())) {
          if (e.isDir()) {
            out.add(e.id());
          }
        } else if (held.containsKey(e.id())) {
          out.add(e.id());
          Map<Long, Long> holds = new HashMap<>();
          SubtreeWalk.Dir h = held.get(e.id());
          long[] usage = usageBelow(h, root, null, holds);
          outermost.add(new Held(dirs.get(e.parentId()), e, usage, holds));
        } else {
          kept.add(e);
          if (e.isDir()) {
            dirs.put(e.id(), e);
          }
        }
      }
      level.clear();
      level.addAll(kept);
    }
    return new Found(levels, outermost);
  }

  private static DeleteLevelBatch.Entry entryOf(InodeRow r) {
    return new DeleteLevelBatch.Entry(r.id(), r.parentId(), r.name(), r.isDir());
  }

  /** Only checks the caller's sub-access, keeping nothing. */
  void check(InodeRow root, String path, PermissionChecker pc) throws IOException {
    walk(new SubtreeWalk.Dir(root, path), root, pc, false, new long[2], new ArrayList<>(), null);
  }

  /**
   * The namespace and storage space of the subtree, root included, as a quota counts them (a file
   * being written with its last block counted full, {@link OpenFilesSpace}); {@code pc} null checks
   * nothing.
   */
  long[] usage(InodeRow root, String path, PermissionChecker pc) throws IOException {
    return usage(root, path, pc, new HashMap<>());
  }

  /**
   * As {@link #usage(InodeRow, String, PermissionChecker)}, putting the holds of the held
   * directories below the root in {@code heldBelow}, by id.
   */
  long[] usage(InodeRow root, String path, PermissionChecker pc, Map<Long, Long> heldBelow)
      throws IOException {
    return usageBelow(new SubtreeWalk.Dir(root, path), root, pc, heldBelow);
  }

  /**
   * The usage of the subtree below {@code top} (inside the one {@code root} marks), itself
   * included, with the holds of the held directories in it put in {@code heldBelow}.
   */
  private long[] usageBelow(
      SubtreeWalk.Dir top, InodeRow root, PermissionChecker pc, Map<Long, Long> heldBelow)
      throws IOException {
    long[] usage = {1, 0};
    List<InodeRow> open = new ArrayList<>();
    Map<Long, SubtreeWalk.Dir> held = new HashMap<>();
    walk(top, root, pc, false, usage, open, held);
    usage[1] += w.runner.run(() -> new OpenFilesSpace(open));
    held.forEach((id, d) -> heldBelow.put(id, d.row().snapshotId()));
    return usage;
  }

  /**
   * Adds the namespace of the subtree below {@code top} (inside the one {@code root} marks) and the
   * space of its closed files to {@code usage}, collects the files being written in {@code open},
   * and keeps the levels if {@code keep}, noting the held directories in {@code held} (if not
   * null).
   */
  private List<List<DeleteLevelBatch.Entry>> walk(
      SubtreeWalk.Dir top,
      InodeRow root,
      PermissionChecker pc,
      boolean keep,
      long[] usage,
      List<InodeRow> open,
      Map<Long, SubtreeWalk.Dir> held)
      throws IOException {
    List<List<DeleteLevelBatch.Entry>> levels = new ArrayList<>();
    boolean check = pc != null && !pc.isSuperuser();
    SubtreeWalk.walk(
        w.runner,
        w.bound,
        top,
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
          if (held != null) {
            for (InodeRow c : children) {
              if (DeletedHeldDirectory.held(c)) {
                held.put(
                    c.id(), new SubtreeWalk.Dir(c, SubtreeWalk.childPath(dir.path(), c.name())));
              }
            }
          }
          if (keep) {
            while (levels.size() < depth) {
              levels.add(new ArrayList<>());
            }
            List<DeleteLevelBatch.Entry> level = levels.get(depth - 1);
            for (InodeRow c : children) {
              level.add(entryOf(c));
            }
          }
        },
        w.pool,
        w.threads);
    return levels;
  }
}
