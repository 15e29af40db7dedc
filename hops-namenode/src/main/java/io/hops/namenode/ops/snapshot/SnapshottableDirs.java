package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshottableDirRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The snapshottable directories, read in a lock phase: a full scan of {@code snapshottable_dirs},
 * then each directory's row and its ancestors by id (read committed), up to the root, for its path
 * and for the nesting checks. An entry whose inode is gone, no longer snapshottable or no longer
 * reachable from the root (a deleted subtree) is left out: the inode's flag is the truth. The cost
 * grows with the number of snapshottable directories and their depth, never with the namespace.
 */
public final class SnapshottableDirs {
  /** A snapshottable directory, its absolute path and the ids of every directory above it. */
  public record Dir(InodeRow row, String path, Set<Long> ancestors) {
    /** Whether this directory is {@code dirId} or lies below it. */
    public boolean atOrBelow(long dirId) {
      return row.id() == dirId || ancestors.contains(dirId);
    }
  }

  private final LockPhase tx;
  private final Map<Long, InodeRow> byId = new HashMap<>();

  private SnapshottableDirs(LockPhase tx) {
    this.tx = tx;
  }

  /** Every live snapshottable directory, in path order. */
  public static List<Dir> read(LockPhase tx) throws StorageException {
    SnapshottableDirs reader = new SnapshottableDirs(tx);
    List<Dir> out = new ArrayList<>();
    for (SnapshottableDirRow e : tx.scanAll(SnapshottableDirRow.TABLE, LockMode.READ_COMMITTED)) {
      InodeRow row = reader.byId(e.dirId());
      if (row != null && row.isDir() && row.snapshottable()) {
        Dir d = reader.walkUp(row);
        if (d != null) {
          out.add(d);
        }
      }
    }
    out.sort((a, b) -> a.path().compareTo(b.path()));
    return out;
  }

  /** Those of {@code dirs} that are {@code dirId} or below it. */
  public static List<Dir> atOrBelow(List<Dir> dirs, long dirId) {
    return dirs.stream().filter(d -> d.atOrBelow(dirId)).toList();
  }

  private Dir walkUp(InodeRow row) throws StorageException {
    Deque<String> names = new ArrayDeque<>();
    Set<Long> ancestors = new HashSet<>();
    InodeRow cur = row;
    while (cur.id() != Inodes.ROOT_ID) {
      if (cur.parentId() == Inodes.DETACHED || cur.parentId() == Inodes.NO_PARENT) {
        return null;
      }
      names.addFirst(cur.name());
      InodeRow parent = byId(cur.parentId());
      if (parent == null) {
        return null;
      }
      ancestors.add(parent.id());
      cur = parent;
    }
    return new Dir(row, "/" + String.join("/", names), ancestors);
  }

  private InodeRow byId(long id) throws StorageException {
    if (byId.containsKey(id)) {
      return byId.get(id);
    }
    List<InodeRow> rows = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
    InodeRow row = rows.isEmpty() ? null : rows.get(0);
    byId.put(id, row);
    return row;
  }
}
