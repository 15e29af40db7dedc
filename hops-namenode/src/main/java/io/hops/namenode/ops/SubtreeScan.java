package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSUtilClient;

/**
 * The inodes of a subtree, read in a lock phase level by level (top-down, as the lock order wants)
 * with one partition-pruned scan per non-empty directory: the children of a directory share its id
 * as their partition. The root's children are hash-partitioned, so they come from an index scan on
 * {@code parent_id} instead.
 *
 * <p>Bounded: a directory's {@code children_count} announces its children before they are read, so
 * the scan stops as soon as the subtree is known to hold more inodes than the bound, without
 * reading them. A bigger subtree is handled by the subtree protocol (docs/architecture.md, "Subtree
 * operations", {@link io.hops.namenode.subtree.SubtreeOperations}), which runs over many
 * transactions.
 */
final class SubtreeScan {
  /** An inode of the subtree and its path, spelled when first asked for. */
  static final class Node {
    private final InodeRow row;
    private final Node parent;
    private String path;

    private Node(InodeRow row, Node parent, String path) {
      this.row = row;
      this.parent = parent;
      this.path = path;
    }

    InodeRow row() {
      return row;
    }

    /** The directory above, or null for the top. */
    Node parent() {
      return parent;
    }

    String path() {
      if (path == null) {
        path = childPath(parent.path(), row.name());
      }
      return path;
    }
  }

  private static final Comparator<Node> BY_NAME =
      (a, b) ->
          DFSUtilClient.compareBytes(
              a.row().name().getBytes(StandardCharsets.UTF_8),
              b.row().name().getBytes(StandardCharsets.UTF_8));

  private final List<Node> nodes;
  private final boolean exceeded;

  /** Of a scan to count ({@link #readToCount}): the files below the top, their length and space. */
  private final long[] fileTotals;

  private Map<Long, List<Node>> children;

  /** Of a scan to count: the files below the top that a rename marked ({@link ChildrenCount}). */
  private final List<InodeRow> marked = new ArrayList<>();

  private SubtreeScan(List<Node> nodes, boolean exceeded) {
    this(nodes, exceeded, null);
  }

  private SubtreeScan(List<Node> nodes, boolean exceeded, long[] fileTotals) {
    this.nodes = nodes;
    this.exceeded = exceeded;
    this.fileTotals = fileTotals;
  }

  /**
   * Reads {@code top} (already read by the caller) and everything below it, each row locked with
   * {@code mode}, unless there are more than {@code bound} inodes in all.
   */
  static SubtreeScan read(LockPhase tx, InodeRow top, String topPath, LockMode mode, int bound)
      throws StorageException {
    List<Node> nodes = new ArrayList<>();
    nodes.add(new Node(top, null, topPath));
    // Inodes read so far plus those announced by children counts and not read yet.
    long known = 1 + announced(top);
    if (known > bound) {
      return new SubtreeScan(nodes, true);
    }
    List<Node> level = announced(top) > 0 ? List.of(nodes.get(0)) : List.of();
    while (!level.isEmpty()) {
      List<Node> next = new ArrayList<>();
      for (Node dir : level) {
        List<InodeRow> rows = childrenOf(tx, dir.row().id(), mode);
        if (mode == LockMode.EXCLUSIVE) {
          // Locked: a subtree operation below must finish first (docs/architecture.md, "Subtree
          // operations").
          PathResolver.checkMarks(rows, tx.ownSubtreeMark());
        }
        known += rows.size() - announced(dir.row());
        for (InodeRow row : rows) {
          Node child = new Node(row, dir, null);
          nodes.add(child);
          if (announced(row) > 0) {
            next.add(child);
            known += announced(row);
          }
        }
        if (known > bound) {
          return new SubtreeScan(nodes, true);
        }
      }
      level = next;
    }
    // For the sub-access checks of the execute phase (ACLs of directories below the target).
    tx.loadAcls(nodes.stream().map(Node::row).toList());
    return new SubtreeScan(nodes, false);
  }

  /**
   * For counts of one moment that are not a base writers keep up to date ({@code
   * getContentSummary}): {@code top}'s directories, locked SHARED ({@link #lockDirectories}), and
   * each directory's files counted by {@link ChildrenCount}, read committed, unless the subtree
   * holds more than {@code bound} inodes in all (files too: a directory's count may have to read
   * every file's row, and the locks would be held meanwhile). The nodes are the directories only;
   * {@link #files}, {@link #length} and {@link #space} total the files below the top. {@code
   * setQuota} reads every row with {@link #read}, locked, since the usage it counts is a base that
   * writers of files below keep up to date afterwards.
   */
  static SubtreeScan readToCount(LockPhase tx, InodeRow top, String topPath, int bound)
      throws StorageException {
    List<Node> nodes = new ArrayList<>();
    nodes.add(new Node(top, null, topPath));
    long[] totals = new long[3];
    List<InodeRow> marked = new ArrayList<>();
    long known = 1 + announced(top);
    if (known > bound) {
      return new SubtreeScan(nodes, true, totals);
    }
    List<Node> level = announced(top) > 0 ? List.of(nodes.get(0)) : List.of();
    while (!level.isEmpty()) {
      List<Node> next = new ArrayList<>();
      for (Node dir : level) {
        ChildrenCount c = ChildrenCount.read(tx, dir.row().id());
        totals[0] += c.files();
        totals[1] += c.length();
        totals[2] += c.space();
        marked.addAll(c.marked());
        known += c.files() + c.dirs().size() - announced(dir.row());
        for (InodeRow row : lockDirectories(tx, c.dirs())) {
          Node child = new Node(row, dir, null);
          nodes.add(child);
          if (announced(row) > 0) {
            next.add(child);
            known += announced(row);
          }
        }
        if (known > bound) {
          return new SubtreeScan(nodes, true, totals);
        }
      }
      level = next;
    }
    tx.loadAcls(nodes.stream().map(Node::row).toList());
    SubtreeScan scan = new SubtreeScan(nodes, false, totals);
    scan.marked.addAll(marked);
    return scan;
  }

  /**
   * The subdirectories of a directory this transaction holds SHARED, locked SHARED and read again
   * under their locks. With every directory of a subtree locked shared its counts are those of one
   * moment: an inode enters, leaves or moves between directories only under an exclusive lock on
   * each directory it leaves or enters, so no inode moves within the locked directories while the
   * transaction holds them, and a file's own attributes (length, replication) are read committed,
   * as they were at some moment. The files' locks (one per inode, most of a subtree) bought nothing
   * more.
   */
  private static List<InodeRow> lockDirectories(LockPhase tx, List<InodeRow> dirs)
      throws StorageException {
    if (dirs.isEmpty()) {
      return dirs;
    }
    List<Key> keys = new ArrayList<>(dirs.size());
    for (InodeRow row : dirs) {
      keys.add(InodeRow.TABLE.keyOf(row));
    }
    List<InodeRow> locked = new ArrayList<>(dirs.size());
    for (InodeRow now : tx.findBatch(InodeRow.TABLE, keys, LockMode.SHARED)) {
      // Not gone: removing a child takes its parent's exclusive lock, which this transaction
      // holds shared.
      if (now != null) {
        locked.add(now);
      }
    }
    return locked;
  }

  private static long announced(InodeRow row) {
    return row.isDir() ? row.childrenCount() : 0;
  }

  private static List<InodeRow> childrenOf(LockPhase tx, long dirId, LockMode mode)
      throws StorageException {
    return dirId == Inodes.ROOT_ID
        ? tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, mode)
        : tx.findByPartition(InodeRow.TABLE, dirId, mode);
  }

  static String childPath(String dir, String name) {
    return dir.endsWith("/") ? dir + name : dir + "/" + name;
  }

  /** Whether the subtree holds more inodes than the bound (then only part of it was read). */
  boolean exceeded() {
    return exceeded;
  }

  /** Of a scan to count: the files below the top. */
  long files() {
    return fileTotals[0];
  }

  /** Of a scan to count: the files' length below the top. */
  long length() {
    return fileTotals[1];
  }

  /** Of a scan to count: the space the files below the top consume (length times replication). */
  long space() {
    return fileTotals[2];
  }

  /** Of a scan to count: the files below the top that a rename marked as some snapshot's. */
  List<InodeRow> marked() {
    return marked;
  }

  /** The inodes read, the top first, then level by level (of a scan to count: directories). */
  List<Node> nodes() {
    return nodes;
  }

  List<InodeRow> rows() {
    List<InodeRow> rows = new ArrayList<>(nodes.size());
    nodes.forEach(n -> rows.add(n.row()));
    return rows;
  }

  Node top() {
    return nodes.get(0);
  }

  /** The children of a directory of the subtree, in HDFS's order (byte-wise by name). */
  List<Node> childrenOf(Node dir) {
    if (children == null) {
      children = new HashMap<>();
      for (Node n : nodes.subList(1, nodes.size())) {
        children.computeIfAbsent(n.row().parentId(), k -> new ArrayList<>()).add(n);
      }
      children.values().forEach(list -> list.sort(BY_NAME));
    }
    return children.getOrDefault(dir.row().id(), List.of());
  }

  /**
   * HDFS's sub-access check of a delete (FSPermissionChecker.checkSubAccess with empty directories
   * ignored): ALL on every non-empty directory, and the sticky bit of each on its children. Visited
   * in HDFS's order (a stack: the last child first), so the first refusal names the same inode as
   * HDFS would.
   */
  void checkDeleteAccess(PermissionChecker pc) throws IOException {
    if (pc.isSuperuser()) {
      return;
    }
    Deque<Node> stack = new ArrayDeque<>();
    stack.push(top());
    while (!stack.isEmpty()) {
      Node dir = stack.pop();
      List<Node> children = childrenOf(dir);
      if (!children.isEmpty()) {
        pc.check(dir.row(), dir.path(), FsAction.ALL);
        for (Node child : children) {
          pc.checkStickyBit(dir.row(), dir.path(), child.row(), child.path(), top().row());
        }
      }
      for (Node child : children) {
        if (child.row().isDir()) {
          stack.push(child);
        }
      }
    }
  }
}
