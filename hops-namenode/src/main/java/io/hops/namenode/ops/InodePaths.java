package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Full paths of inodes found by id (open files, corrupt blocks), rebuilt upwards one directory at a
 * time through the unique index on {@code id}, read committed; the directories met are remembered,
 * so a page of files in few directories costs few reads.
 */
final class InodePaths {
  private final LockPhase tx;
  private final Map<Long, String> dirs = new HashMap<>();

  InodePaths(LockPhase tx) {
    this.tx = tx;
    dirs.put(Inodes.ROOT_ID, "");
  }

  /** The inode with this id, or null. */
  InodeRow byId(long id) throws StorageException {
    List<InodeRow> rows = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
    return rows.isEmpty() ? null : rows.get(0);
  }

  /** The inode's full path; null if a directory above it vanished meanwhile. */
  String pathOf(InodeRow inode) throws StorageException {
    if (inode.id() == Inodes.ROOT_ID) {
      return "/";
    }
    String parent = dirs.get(inode.parentId());
    if (parent == null) {
      InodeRow dir = byId(inode.parentId());
      if (dir == null) {
        return null;
      }
      parent = pathOf(dir);
      if (parent == null) {
        return null;
      }
      dirs.put(dir.id(), parent);
    }
    return parent + "/" + inode.name();
  }

  /** HDFS's DFSUtil.isParentEntry: {@code full} is {@code parent} or below it. */
  static boolean isUnder(String full, String parent) {
    if (parent.equals("/")) {
      return true;
    }
    return full.equals(parent) || (full.startsWith(parent) && full.charAt(parent.length()) == '/');
  }
}
