package io.hops.namenode.ops.snapshot;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.LockPhase;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * {@code getContentSummary} of a path inside a snapshot (docs/architecture.md, "Snapshots"): the
 * subtree as it was, counted as HDFS counts it (its snapshot figures 0, no quota), READ_EXECUTE
 * checked on each of its directories as they were, depth-first in name order, a denial naming the
 * directory as HDFS's {@code INode.getFullPathName} does: where the inode is now (a directory
 * renamed since, or below one, by its new path), and one deleted since where it was, below its
 * parent's name (the snapshot's root as {@code /d/.snapshot/s}, {@link SnapshotView#fullPathName}).
 * Cost: the path's reads, then per directory its live children and its versions (two pruned scans,
 * read committed), and for a caller who is not the superuser, one index read of its id (its live
 * path; the parents' are remembered), all in the one transaction: a snapshot no longer changes, so
 * nothing is locked.
 */
public final class SnapshotSummary {
  /**
   * An inode of the subtree, its path below the snapshot's root, and for a directory the name a
   * denial gives it (null for the superuser, who is not checked).
   */
  private record Placed(InodeRow row, String path, String name) {}

  private final SnapshotView view;
  private final String path;

  /** The subtree, parents before children; null when the path names nothing in a snapshot. */
  private final List<Placed> nodes;

  private SnapshotSummary(SnapshotView view, String path, List<Placed> nodes) {
    this.view = view;
    this.path = path;
    this.nodes = nodes;
  }

  /**
   * Reads the subtree {@code view} names, at {@code path}; with {@code checked} (a caller who is
   * not the superuser), the name each directory's denial gives it.
   */
  public static SnapshotSummary read(LockPhase tx, SnapshotView view, String path, boolean checked)
      throws StorageException {
    InodeRow top = view.inode();
    if (top == null || view.snapshotId() == 0) {
      return new SnapshotSummary(view, path, null);
    }
    List<Placed> nodes = new ArrayList<>();
    Deque<Placed> stack = new ArrayDeque<>();
    String topPath = view.relativePath();
    String topName =
        !checked || !top.isDir()
            ? null
            : topPath.isEmpty()
                ? view.fullPathName(topPath)
                : nameOf(tx, top, view.fullPathName(topPath));
    stack.push(new Placed(top, topPath, topName));
    while (!stack.isEmpty()) {
      Placed n = stack.pop();
      nodes.add(n);
      if (n.row().isDir()) {
        List<InodeRow> children = SnapshotView.children(tx, n.row().id(), view.snapshotId());
        for (int i = children.size() - 1; i >= 0; i--) {
          InodeRow c = children.get(i);
          String name = null;
          if (c.isDir()) {
            SnapshotView.loadAclAt(tx, c, n.row().id(), view.snapshotId());
            if (checked) {
              name = nameOf(tx, c, n.name() + "/" + c.name());
            }
          }
          String below = n.path().isEmpty() ? c.name() : n.path() + "/" + c.name();
          stack.push(new Placed(c, below, name));
        }
      }
    }
    return new SnapshotSummary(view, path, nodes);
  }

  /**
   * HDFS's {@code getFullPathName} of a directory of the snapshot: its path now while it is live,
   * else {@code asDeleted}, its name below its parent's.
   */
  private static String nameOf(LockPhase tx, InodeRow dir, String asDeleted)
      throws StorageException {
    InodeRow live = tx.inodePaths().byId(dir.id());
    String now = live == null ? null : tx.inodePaths().pathOf(live);
    return now != null ? now : asDeleted;
  }

  /** HDFS's answer: traversal, a missing path, READ_EXECUTE on every directory, then the counts. */
  public ContentSummary answer(PermissionChecker pc) throws IOException {
    view.inodeToRead(pc);
    if (nodes == null) {
      throw new FileNotFoundException("File does not exist: " + path);
    }
    long length = 0;
    long files = 0;
    long dirs = 0;
    long space = 0;
    for (Placed n : nodes) {
      InodeRow r = n.row();
      if (r.isDir()) {
        if (!pc.isSuperuser()) {
          pc.check(r, n.name(), FsAction.READ_EXECUTE);
        }
        dirs++;
      } else {
        length += r.size();
        files++;
        space += r.size() * r.replication();
      }
    }
    boolean file = !nodes.get(0).row().isDir();
    return new ContentSummary.Builder()
        .length(length)
        .fileCount(files)
        .directoryCount(dirs)
        .quota(-1)
        .spaceConsumed(space)
        .spaceQuota(-1)
        .erasureCodingPolicy(file ? "Replicated" : "")
        .build();
  }
}
