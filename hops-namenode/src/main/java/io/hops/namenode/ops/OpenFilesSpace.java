package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The storage space of files being written, each with its last block read (one pruned scan per
 * file): a block not yet complete counts as a full one ({@link FileSpace}).
 */
public final class OpenFilesSpace extends Operation<Long> {
  private final List<InodeRow> files;
  private final Map<Long, BlockInfoRow> last = new HashMap<>();

  public OpenFilesSpace(List<InodeRow> files) {
    this.files = files;
  }

  @Override
  public String name() {
    return "openFilesSpace";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    last.putAll(lastBlocks(tx, files));
  }

  /**
   * The last block of each file of {@code inodes} that is being written (one pruned scan each, read
   * committed), by file id: what {@link FileSpace} needs beyond the inode.
   */
  public static Map<Long, BlockInfoRow> lastBlocks(LockPhase tx, List<InodeRow> inodes)
      throws IOException {
    Map<Long, BlockInfoRow> last = new HashMap<>();
    for (InodeRow f : inodes) {
      if (f.isDir() || !f.underConstruction()) {
        continue;
      }
      for (BlockInfoRow b :
          tx.findByPartition(BlockInfoRow.TABLE, f.id(), LockMode.READ_COMMITTED)) {
        BlockInfoRow l = last.get(f.id());
        if (l == null || b.blockIndex() > l.blockIndex()) {
          last.put(f.id(), b);
        }
      }
    }
    return last;
  }

  /** The namespace and storage space {@code inodes} count against quotas. */
  public static long[] usage(LockPhase tx, List<InodeRow> inodes) throws IOException {
    Map<Long, BlockInfoRow> last = lastBlocks(tx, inodes);
    long ds = 0;
    for (InodeRow r : inodes) {
      ds += FileSpace.of(r, last.get(r.id()));
    }
    return new long[] {inodes.size(), ds};
  }

  @Override
  protected Long execute(ExecutePhase tx) {
    long space = 0;
    for (InodeRow f : files) {
      space += FileSpace.of(f, last.get(f.id()));
    }
    return space;
  }
}
