package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * {@code getListing} (ls): as stat, the ancestors in one batch read-committed and the directory
 * with a shared lock, then one page of its children: a bounded range scan of its partition from
 * {@code startAfter} (B + PK(SHARED) + PPIS), whose cost is the page and not the directory, since
 * names are keyed in HDFS's order ({@link io.hops.dal.schema.SignedByteOrder}). The shared lock
 * keeps children from being added or removed meanwhile, since that updates the directory under an
 * exclusive lock. The root's children are hash-partitioned, so listing the root is an index scan on
 * {@code parent_id} over all partitions, sorted here, instead (docs/architecture.md, "Database cost
 * per operation").
 *
 * <p>As HDFS: children in signed byte-wise order of their names ({@link
 * DFSUtilClient#compareBytes}), those strictly after {@code startAfter}, at most {@code
 * dfs.ls.limit}; a file lists itself with an empty name; a missing path gives null (the client
 * turns it into a FileNotFoundException). With {@code needLocation}, files carry their block
 * locations (the stock client's located listing casts every entry to a located status and needs
 * one), read for the page's files only.
 */
public final class GetListing extends Operation<DirectoryListing> {
  private static final Comparator<byte[]> BY_NAME = DFSUtilClient::compareBytes;

  private final FileStatuses statuses;
  private final SnapshotSettings snapshotSettings;
  private final Limits limits;
  private final BlockManager blockManager;
  private final SmallFileStore smallFiles;
  private final PermissionChecker pc;
  private final String path;
  private final byte[] startAfter;
  private final boolean needLocation;
  private ResolvedPath resolved;
  private SnapshotView snapshot;
  private List<InodeRow> children = List.of();

  /** The children's names, like {@link #children} in listing order. */
  private byte[][] names;

  private int first;
  private int count;
  private boolean wholeDirectory;
  private final Map<Long, FileBlocks> blocks = new HashMap<>();

  /** Block locations come from {@code blockManager}, or {@code smallFiles} for a database file. */
  public GetListing(
      FileStatuses statuses,
      SnapshotSettings snapshotSettings,
      Limits limits,
      BlockManager blockManager,
      SmallFileStore smallFiles,
      PermissionChecker pc,
      String path,
      byte[] startAfter,
      boolean needLocation) {
    this.statuses = statuses;
    this.snapshotSettings = snapshotSettings;
    this.limits = limits;
    this.blockManager = blockManager;
    this.smallFiles = smallFiles;
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
    snapshot = SnapshotView.read(snapshotSettings, tx, resolved, true);
    InodeRow dir = resolved.target();
    if (dir == null || snapshot != null) {
      return;
    }
    if (!dir.isDir()) {
      readBlocks(tx, dir);
      return;
    }
    if (dir.id() == Inodes.ROOT_ID) {
      readRootPage(tx);
    } else {
      readPage(tx, dir.id());
    }
    if (needLocation) {
      // As HDFS: the page also ends when the located blocks reach the listing limit (each block
      // counts once per replica), after at least one entry. The blocks of each listed file that
      // may have some are read here, one set of pruned scans of its own partition per file.
      int budget = lsLimit();
      for (int i = 0; i < count; i++) {
        if (i > 0 && budget <= 0) {
          count = i;
          break;
        }
        FileBlocks f = readBlocks(tx, children.get(first + i));
        if (f != null) {
          for (var b : f.blocks()) {
            budget -= Math.max(1, f.replicas(b.blockId()).size());
          }
        }
      }
    }
  }

  /**
   * One page of a directory's children: a range scan of its partition from {@code startAfter}
   * (names are keyed in HDFS's signed byte order), one row more than the page to learn whether more
   * follow. Its cost is the page, not the directory.
   */
  private void readPage(LockPhase tx, long dirId) throws IOException {
    int limit = lsLimit();
    Key after =
        startAfter.length == 0
            ? null
            : InodeRow.TABLE.key(dirId, dirId, new String(startAfter, StandardCharsets.UTF_8));
    children = tx.scanFrom(InodeRow.TABLE, dirId, after, limit + 1, LockMode.READ_COMMITTED);
    names = namesOf(children);
    first = 0;
    count = Math.min(children.size(), limit);
  }

  /**
   * The root's children are hash-partitioned (docs/architecture.md, "Database cost per operation"):
   * all of them by index, sorted here.
   */
  private void readRootPage(LockPhase tx) throws IOException {
    children =
        new ArrayList<>(
            tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, LockMode.READ_COMMITTED));
    children.sort(Comparator.comparing(GetListing::nameBytes, BY_NAME));
    names = namesOf(children);
    first = 0;
    if (startAfter.length > 0) {
      while (first < names.length && BY_NAME.compare(names[first], startAfter) <= 0) {
        first++;
      }
    }
    count = Math.min(names.length - first, lsLimit());
    wholeDirectory = true;
  }

  private static byte[] nameBytes(InodeRow row) {
    return row.name().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[][] namesOf(List<InodeRow> rows) {
    byte[][] names = new byte[rows.size()][];
    for (int i = 0; i < names.length; i++) {
      names[i] = nameBytes(rows.get(i));
    }
    return names;
  }

  /**
   * The entries after the page, as HDFS counts them, where known: the root's children are all read,
   * and a page from the start of a directory knows the directory's child count. A later page says
   * how many it read beyond itself (at least 1 while more follow): HDFS's count needs the rank of
   * {@code startAfter} among the children, which a range scan does not give, and clients use it
   * only as "more follow" (and, from the first page, to size the listing).
   */
  private int remaining(InodeRow dir) {
    int after = names.length - first - count;
    if (after == 0 || wholeDirectory) {
      return after;
    }
    return startAfter.length == 0 ? Math.max(after, dir.childrenCount() - count) : after;
  }

  /** The blocks of a file that may have some (with {@code needLocation}), or null. */
  private FileBlocks readBlocks(LockPhase tx, InodeRow inode) throws IOException {
    if (!needLocation
        || inode.isDir()
        || inode.symlink() != null
        || inode.fileStoredInDb()
        || (inode.size() == 0 && !inode.underConstruction())) {
      return null;
    }
    FileBlocks f =
        FileBlocks.lock(tx, inode.id(), LockMode.READ_COMMITTED, blockManager.datanodes());
    blocks.put(inode.id(), f);
    return f;
  }

  @Override
  protected DirectoryListing execute(ExecutePhase tx) throws IOException {
    if (snapshot != null) {
      // Without block locations: those of files as they were come with block retention.
      return snapshot.listing(statuses, pc, startAfter, lsLimit());
    }
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = resolved.target();
    if (target == null) {
      SnapshotView.refuseListingOfSnapshots(resolved);
      return null;
    }
    if (!target.isDir()) {
      return new DirectoryListing(
          new HdfsFileStatus[] {status(statuses.page(), target, HdfsFileStatus.EMPTY_NAME)}, 0);
    }
    pc.check(
        target, PathNames.prefix(resolved.components(), resolved.depth()), FsAction.READ_EXECUTE);
    HdfsFileStatus[] listing = new HdfsFileStatus[count];
    FileStatuses.Page page = statuses.page();
    for (int i = 0; i < count; i++) {
      listing[i] = status(page, children.get(first + i), names[first + i]);
    }
    return new DirectoryListing(listing, remaining(target));
  }

  private int lsLimit() {
    return limits.listLimit();
  }

  private HdfsFileStatus status(FileStatuses.Page page, InodeRow inode, byte[] localName)
      throws IOException {
    // As HDFS: the target's effective policy, a child's own or else the target's.
    byte inherited = io.hops.namenode.blocks.StoragePolicies.effective(resolved.inodes());
    HdfsFileStatus s =
        page.status(
            inode,
            localName,
            io.hops.namenode.blocks.StoragePolicies.orInherited(inode.storagePolicy(), inherited));
    if (!needLocation || inode.isDir() || inode.symlink() != null) {
      return s;
    }
    FileBlocks f = blocks.get(inode.id());
    LocatedBlocks located =
        inode.fileStoredInDb()
            ? smallFiles.listedBlocks(inode, blockManager.blockPoolId())
            : f == null
                ? new LocatedBlocks(
                    0,
                    inode.underConstruction(),
                    Collections.<LocatedBlock>emptyList(),
                    null,
                    false,
                    null,
                    null)
                : blockManager.locatedBlocks(
                    f, inode.underConstruction(), 0, Long.MAX_VALUE, pc.caller().clientMachine());
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
        .flags(
            s.hasAcl()
                ? java.util.EnumSet.of(HdfsFileStatus.Flags.HAS_ACL)
                : java.util.EnumSet.noneOf(HdfsFileStatus.Flags.class))
        .locations(located)
        .build();
  }
}
