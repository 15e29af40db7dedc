package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.snapshot.SnapshotContent;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.ops.snapshot.SnapshotSummary;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * {@code getContentSummary} (what {@code hdfs dfs -count} and {@code -du -s} print): length, file
 * and directory counts (the directory itself included), space consumed (length times replication)
 * and the quotas (-1 unless the directory has a quota row). The target is read as stat does (B +
 * PK(SHARED)), then its subtree level by level, each non-empty directory's children counted ({@link
 * ChildrenCount}: one pruned scan, or a count the store kept since the directory last changed),
 * bounded as delete is; past the bound {@link io.hops.namenode.subtree.SubtreeOperations} counts it
 * over many short transactions, as HDFS itself yields its lock while it counts a big directory.
 *
 * <p>The subtree's directories are locked SHARED, its files read committed: a directory's children
 * change only under an exclusive lock on it, so with every directory of the subtree locked shared
 * the counts are those of one moment, not a mix of before and after a concurrent rename that moves
 * an entry from a part not yet read into one already counted. A file's length and replication are
 * its own, read as committed at some moment; locking every file too cost a lock and a second scan
 * per directory and bought nothing. The bound keeps the lock set small; the locks block writers of
 * this subtree's directories only for one short transaction.
 *
 * <p>As HDFS (FSDirStatAndListingOp, INodeDirectory.computeContentSummary): a missing path is a
 * {@link FileNotFoundException}; the caller needs READ_EXECUTE on every directory of the subtree,
 * checked in HDFS's depth-first order. A path inside a snapshot is counted as it was ({@link
 * SnapshotSummary}).
 */
public final class ContentSummaryOp extends Operation<ContentSummary> {
  /** HDFS's name for the policy of files that are replicated, not erasure-coded. */
  private static final String REPLICATED = "Replicated";

  private final PermissionChecker pc;
  private final String src;
  private final int bound;
  private ResolvedPath resolved;
  private SubtreeScan subtree;
  private QuotaRow quota;
  private SnapshotContent snapshots = SnapshotContent.NONE;
  private final SnapshotSettings snapshotSettings;
  private SnapshotSummary atSnapshot;
  private long cover;

  public ContentSummaryOp(
      Limits limits, SnapshotSettings snapshotSettings, PermissionChecker pc, String src) {
    this.snapshotSettings = snapshotSettings;
    this.pc = pc;
    this.src = src;
    this.bound = limits.inodesInOneTx();
  }

  @Override
  public String name() {
    return "getContentSummary";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.SHARED);
    SnapshotView view = SnapshotView.read(snapshotSettings, tx, resolved, false);
    if (view != null) {
      atSnapshot =
          SnapshotSummary.read(
              tx,
              view,
              PathNames.prefix(resolved.components(), resolved.components().length),
              !pc.isSuperuser());
      return;
    }
    InodeRow target = resolved.target();
    if (target == null) {
      return;
    }
    subtree = SubtreeScan.readToCount(tx, target, path(), bound);
    if (target.isDir() && !subtree.exceeded()) {
      snapshots = SnapshotContent.read(tx, coveredDirectories(tx), subtree.marked(), bound);
    }
    if (target.isDir() && (subtree.exceeded() || snapshots == null)) {
      cover = tx.summaryCover(resolved.inodes()); // for the subtree protocol's count
    } else if (!target.isDir()) {
      snapshots = SnapshotContent.ofFile(tx, target, tx.summaryCover(resolved.inodes()) != 0);
    }
    if (target.isDir() && target.hasQuota()) {
      quota = tx.find(QuotaRow.TABLE, QuotaRow.TABLE.key(target.id()), LockMode.READ_COMMITTED);
    }
  }

  /**
   * The subtree's directories that a snapshottable directory with snapshots covers (the one above
   * the target, or one below it), each with that directory's id, or a held directory (minus its id;
   * {@link LockPhase#summaryCover}); none when snapshots are off.
   */
  private Map<Long, Long> coveredDirectories(LockPhase tx) {
    Map<Long, Long> covering = new HashMap<>();
    Map<Long, Long> covered = new HashMap<>();
    for (SubtreeScan.Node n : subtree.nodes()) { // parents before children
      long above =
          n.parent() == null
              ? tx.summaryCover(resolved.inodes())
              : covering.get(n.parent().row().id());
      long dir = SnapshotContent.coverBelow(above, tx.summaryCover(List.of(n.row())));
      covering.put(n.row().id(), dir);
      if (dir != 0) {
        covered.put(n.row().id(), dir);
      }
    }
    return covered;
  }

  private String path() {
    return PathNames.prefix(resolved.components(), resolved.depth());
  }

  @Override
  protected ContentSummary execute(ExecutePhase tx) throws IOException {
    if (atSnapshot != null) {
      return atSnapshot.answer(pc);
    }
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("File does not exist: " + path());
    }
    if (subtree.exceeded() || snapshots == null) {
      throw new SubtreeTooBigException("getContentSummary", path(), target, quota, cover);
    }
    checkAccess();
    long length = target.isDir() ? subtree.length() : target.size();
    long files = target.isDir() ? subtree.files() : 1;
    long dirs = target.isDir() ? subtree.nodes().size() : 0;
    long space = target.isDir() ? subtree.space() : target.size() * target.replication();
    // What only snapshots hold counts too, and again as the snapshot figures (HDFS
    // INode.computeAndConvertContentSummary); the blocks truncates keep of live files count in
    // their files' space only (HDFS INodeFile.storagespaceConsumed).
    return new ContentSummary.Builder()
        .length(length + snapshots.length())
        .fileCount(files + snapshots.files())
        .directoryCount(dirs + snapshots.dirs())
        .quota(quota == null ? -1 : quota.nsQuota())
        .spaceConsumed(space + snapshots.space() + snapshots.keptByTruncates())
        .snapshotLength(snapshots.length())
        .snapshotFileCount(snapshots.files())
        .snapshotDirectoryCount(snapshots.dirs())
        .snapshotSpaceConsumed(snapshots.space())
        .spaceQuota(quota == null ? -1 : quota.dsQuota())
        .erasureCodingPolicy(target.isDir() ? "" : REPLICATED)
        .build();
  }

  /** READ_EXECUTE on each directory, depth-first with children in name order, as HDFS. */
  private void checkAccess() throws IOException {
    if (pc.isSuperuser()) {
      return;
    }
    Deque<SubtreeScan.Node> stack = new ArrayDeque<>();
    stack.push(subtree.top());
    while (!stack.isEmpty()) {
      SubtreeScan.Node n = stack.pop();
      if (!n.row().isDir()) {
        continue;
      }
      pc.check(n.row(), n.path(), FsAction.READ_EXECUTE);
      List<SubtreeScan.Node> children = subtree.childrenOf(n);
      for (int i = children.size() - 1; i >= 0; i--) {
        stack.push(children.get(i));
      }
    }
  }
}
