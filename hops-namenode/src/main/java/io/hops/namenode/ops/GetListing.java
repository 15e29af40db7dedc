package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.Namesystem;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * {@code getListing} (ls): as stat, the ancestors in one batch read-committed and the directory
 * with a shared lock, then its children in one partition-pruned scan (B + PK(SHARED) + PPIS). The
 * shared lock keeps children from being added or removed meanwhile, since that updates the
 * directory under an exclusive lock. The root's children are hash-partitioned, so listing the root
 * is an index scan on {@code parent_id} over all partitions instead (DESIGN.md §7).
 *
 * <p>As HDFS: children in signed byte-wise order of their names ({@link
 * DFSUtilClient#compareBytes}), those strictly after {@code startAfter}, at most {@code
 * dfs.ls.limit}; a file lists itself with an empty name; a missing path gives null (the client
 * turns it into a FileNotFoundException). With {@code needLocation}, files carry their block
 * locations; files have no blocks yet, so that is an empty list (the stock client's located listing
 * casts every entry to a located status and needs one).
 */
public final class GetListing extends Operation<DirectoryListing> {
  private static final Comparator<byte[]> BY_NAME = DFSUtilClient::compareBytes;

  private final Namesystem ns;
  private final PermissionChecker pc;
  private final String path;
  private final byte[] startAfter;
  private final boolean needLocation;
  private ResolvedPath resolved;
  private List<InodeRow> children = List.of();

  public GetListing(
      Namesystem ns, PermissionChecker pc, String path, byte[] startAfter, boolean needLocation) {
    this.ns = ns;
    this.pc = pc;
    this.path = path;
    this.startAfter = startAfter == null ? HdfsFileStatus.EMPTY_NAME : startAfter;
    this.needLocation = needLocation;
  }

  @Override
  public String name() {
    return "getListing";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
    InodeRow dir = resolved.target();
    if (dir == null || !dir.isDir()) {
      return;
    }
    children =
        dir.id() == Inodes.ROOT_ID
            ? tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, LockMode.READ_COMMITTED)
            : tx.findByPartition(InodeRow.TABLE, dir.id(), LockMode.READ_COMMITTED);
  }

  @Override
  protected DirectoryListing execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = resolved.target();
    if (target == null) {
      return null;
    }
    if (!target.isDir()) {
      return new DirectoryListing(
          new HdfsFileStatus[] {status(target, HdfsFileStatus.EMPTY_NAME)}, 0);
    }
    pc.check(
        target, PathNames.prefix(resolved.components(), resolved.depth()), FsAction.READ_EXECUTE);
    byte[][] names = new byte[children.size()][];
    Integer[] order = new Integer[children.size()];
    for (int i = 0; i < order.length; i++) {
      names[i] = children.get(i).name().getBytes(StandardCharsets.UTF_8);
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> BY_NAME.compare(names[a], names[b]));
    int first = 0;
    if (startAfter.length > 0) {
      while (first < order.length && BY_NAME.compare(names[order[first]], startAfter) <= 0) {
        first++;
      }
    }
    int count = Math.min(order.length - first, lsLimit());
    HdfsFileStatus[] listing = new HdfsFileStatus[count];
    for (int i = 0; i < count; i++) {
      int child = order[first + i];
      listing[i] = status(children.get(child), names[child]);
    }
    return new DirectoryListing(listing, order.length - first - count);
  }

  private int lsLimit() {
    int limit =
        ns.conf().getInt(DFSConfigKeys.DFS_LIST_LIMIT, DFSConfigKeys.DFS_LIST_LIMIT_DEFAULT);
    return limit > 0 ? limit : DFSConfigKeys.DFS_LIST_LIMIT_DEFAULT;
  }

  private HdfsFileStatus status(InodeRow inode, byte[] localName) throws StorageException {
    HdfsFileStatus s = ns.status(inode, localName);
    if (!needLocation || inode.isDir() || inode.symlink() != null) {
      return s;
    }
    LocatedBlocks none =
        new LocatedBlocks(
            0,
            inode.underConstruction(),
            Collections.<LocatedBlock>emptyList(),
            null,
            false,
            null,
            null);
    return new HdfsFileStatus.Builder()
        .isdir(false)
        .length(s.getLen())
        .replication(s.getReplication())
        .blocksize(s.getBlockSize())
        .mtime(s.getModificationTime())
        .atime(s.getAccessTime())
        .perm(s.getPermission())
        .owner(s.getOwner())
        .group(s.getGroup())
        .path(localName)
        .fileId(s.getFileId())
        .children(s.getChildrenNum())
        .storagePolicy(s.getStoragePolicy())
        .locations(none)
        .build();
  }
}
