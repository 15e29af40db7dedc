package io.hops.namenode.subtree;

import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.namenode.ops.ContentSummaryOp;
import io.hops.namenode.ops.GetQuotaUsage;
import io.hops.namenode.ops.SubtreeTooBigException;
import io.hops.namenode.ops.snapshot.RenamedDirectoryCount;
import io.hops.namenode.ops.snapshot.SnapshotContent;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * {@code getContentSummary} and {@code getQuotaUsage} at any size (docs/architecture.md, "Subtree
 * operations"): one transaction first; past the bound the subtree is counted level by level in
 * short read-committed transactions with no mark, as HDFS releases its lock while it counts a big
 * directory. Only the directories of two levels are kept.
 */
final class SubtreeContentSummary {
  private final SubtreeWorkers w;

  SubtreeContentSummary(SubtreeWorkers w) {
    this.w = w;
  }

  ContentSummary contentSummary(PermissionChecker pc, String src) throws IOException {
    try {
      return w.runner.run(() -> new ContentSummaryOp(w.limits, w.snapshotSettings, pc, src));
    } catch (SubtreeTooBigException big) {
      return summarize(pc, big);
    }
  }

  /** The quota row of a directory with a quota, else the content summary. */
  QuotaUsage quotaUsage(PermissionChecker pc, String src) throws IOException {
    QuotaUsage usage = w.runner.run(() -> new GetQuotaUsage(pc, src));
    if (usage == null || !pc.isSuperuser()) {
      // HDFS checks READ_EXECUTE over the whole subtree either way: the summary does.
      ContentSummary summary = contentSummary(pc, src);
      return usage == null ? summary : usage;
    }
    return usage;
  }

  /**
   * Counts the subtree with what its snapshots alone hold, as {@link ContentSummaryOp} does in one
   * transaction: each step of the walk reads it for the covered directories of its run ({@link
   * SubtreeWalk#count}), each held entry counted once over the steps; then the subtrees of the
   * directories renamed away from a snapshot's entry, as they were, in transactions of the bound.
   */
  private ContentSummary summarize(PermissionChecker pc, SubtreeTooBigException big)
      throws IOException {
    QuotaRow q = big.quota();
    boolean check = !pc.isSuperuser();
    long[] c = new long[4]; // length, files, directories, space
    c[2] = 1;
    SnapshotContent.Sum held = new SnapshotContent.Sum();
    SubtreeWalk.count(
        w.runner,
        w.bound,
        new SubtreeWalk.Dir(big.root(), big.path(), big.cover()),
        (dir, depth, children) -> {
          if (check && depth == 1) {
            // The root first, here where the walk's first transaction has read its ACL.
            pc.check(dir.row(), dir.path(), FsAction.READ_EXECUTE);
          }
          c[0] += children.length();
          c[1] += children.files();
          c[3] += children.space();
          for (InodeRow r : children.dirs()) {
            c[2]++;
            if (check) {
              pc.check(r, SubtreeWalk.childPath(dir.path(), r.name()), FsAction.READ_EXECUTE);
            }
          }
        },
        held::add,
        w.pool,
        w.threads);
    for (List<RenamedDirectoryCount.Pending> left = held.renamed(); !left.isEmpty(); ) {
      List<RenamedDirectoryCount.Pending> from = left;
      RenamedDirectoryCount.Step step = w.runner.run(() -> new CountRenamed(from, w.bound));
      held.add(step.part());
      left = step.left();
    }
    SnapshotContent s = held.total();
    return new ContentSummary.Builder()
        .length(c[0] + s.length())
        .fileCount(c[1] + s.files())
        .directoryCount(c[2] + s.dirs())
        .quota(q == null ? -1 : q.nsQuota())
        .spaceConsumed(c[3] + s.space() + s.keptByTruncates())
        .snapshotLength(s.length())
        .snapshotFileCount(s.files())
        .snapshotDirectoryCount(s.dirs())
        .snapshotSpaceConsumed(s.space())
        .spaceQuota(q == null ? -1 : q.dsQuota())
        .erasureCodingPolicy("")
        .build();
  }

  /** One transaction of the count of renamed directories' subtrees as they were. */
  private static final class CountRenamed extends Operation<RenamedDirectoryCount.Step> {
    private final List<RenamedDirectoryCount.Pending> from;
    private final int bound;
    private RenamedDirectoryCount.Step step;

    CountRenamed(List<RenamedDirectoryCount.Pending> from, int bound) {
      this.from = from;
      this.bound = bound;
    }

    @Override
    public String name() {
      return "subtreeCount";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      step = RenamedDirectoryCount.read(tx, from, bound);
    }

    @Override
    protected RenamedDirectoryCount.Step execute(ExecutePhase tx) {
      return step;
    }
  }
}
