package io.hops.namenode.resolve;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Full paths of inodes found by id (open files, corrupt blocks, {@code /.reserved/.inodes/<id>}, a
 * writer naming its file by id), rebuilt upwards one directory at a time through the unique index
 * on {@code id}, read committed. The directories met are remembered, so a page of files in few
 * directories costs few reads. An inode with no path has none because a directory above it vanished
 * meanwhile, or because it is in a deleted tree whose rows are still being reclaimed (below {@link
 * Inodes#DETACHED}, which no inode has as id): HDFS no longer has either.
 */
public final class InodePaths {
  /**
   * Reads the inodes of an id, read committed, through the unique index on {@code id}: a plain
   * transaction's or a lock phase's ({@code LockPhase.inodePaths}) reads.
   */
  @FunctionalInterface
  public interface IdIndex {
    List<InodeRow> find(long id) throws StorageException;
  }

  /** The lock mode of every read: an inode's path is a hint, never a lock. */
  public static final LockMode READ = LockMode.READ_COMMITTED;

  private final IdIndex index;
  private final Map<Long, String> dirs = new HashMap<>();

  private InodePaths(IdIndex index) {
    this.index = index;
    dirs.put(Inodes.ROOT_ID, "");
  }

  /** Paths read through {@code index}. */
  public static InodePaths over(IdIndex index) {
    return new InodePaths(index);
  }

  /** Paths read in a plain transaction. */
  public static InodePaths in(Transaction tx) {
    return over(id -> tx.findByIndex(InodeRow.TABLE, "id", id, READ));
  }

  /** The inode with this id, or null. */
  public InodeRow byId(long id) throws StorageException {
    List<InodeRow> rows = index.find(id);
    return rows.isEmpty() ? null : rows.get(0);
  }

  /** The inode's full path; null if it has none (see above). */
  public String pathOf(InodeRow inode) throws StorageException {
    if (inode.id() == Inodes.ROOT_ID) {
      return "/";
    }
    String parent = dirs.get(inode.parentId());
    if (parent == null) {
      InodeRow dir = inode.parentId() == Inodes.DETACHED ? null : byId(inode.parentId());
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
  public static boolean isUnder(String full, String parent) {
    if (parent.equals("/")) {
      return true;
    }
    return full.equals(parent) || (full.startsWith(parent) && full.charAt(parent.length()) == '/');
  }
}
