package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.PartitionFold;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;

/**
 * A directory's children as a content summary counts them: its subdirectories' rows, in name order,
 * and its files counted, their lengths and the space they consume (length times replication) added
 * up, with the rows of the files a rename marked as some snapshot's ({@code marked}: blocks kept by
 * their truncates for the snapshots count in their space, docs/architecture.md, "Content
 * summaries"). Read with {@link #FOLD} from the directory's partition, which the embedded store
 * keeps until a commit writes into it (a child created, deleted or renamed, a file's length or
 * replication changed), so that summarizing a big directory again reads one summary, not every
 * file's row.
 */
public record ChildrenCount(
    List<InodeRow> dirs, long files, long length, long space, List<InodeRow> marked) {
  /** Folds a directory's children into their count: a constant, as a fold must be. */
  public static final PartitionFold<InodeRow, ChildrenCount> FOLD =
      new PartitionFold<>() {
        @Override
        public ChildrenCount fold(List<InodeRow> rows) {
          return of(rows);
        }

        @Override
        public int weight(ChildrenCount summary) {
          return 1 + summary.dirs().size() + summary.marked().size();
        }
      };

  public ChildrenCount {
    dirs = List.copyOf(dirs);
    marked = List.copyOf(marked);
  }

  /** The count of {@code children}, the rows of one directory's children. */
  public static ChildrenCount of(List<InodeRow> children) {
    List<InodeRow> dirs = new ArrayList<>();
    List<InodeRow> marked = new ArrayList<>();
    long files = 0;
    long length = 0;
    long space = 0;
    for (InodeRow r : children) {
      if (r.isDir()) {
        dirs.add(r);
      } else {
        files++;
        length += r.size();
        space += r.size() * r.replication();
        if (r.snapshotId() != 0 && !r.fileStoredInDb() && r.symlink() == null) {
          marked.add(r); // a file's snapshot_id is its reference mark
        }
      }
    }
    return new ChildrenCount(dirs, files, length, space, marked);
  }

  /**
   * The count of directory {@code dirId}'s children, read committed. The root's children are
   * hash-partitioned: they come from an index scan on {@code parent_id}, counted here.
   */
  public static ChildrenCount read(LockPhase tx, long dirId) throws StorageException {
    if (dirId == Inodes.ROOT_ID) {
      return of(
          tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, LockMode.READ_COMMITTED));
    }
    return tx.foldPartition(InodeRow.TABLE, dirId, FOLD);
  }
}
