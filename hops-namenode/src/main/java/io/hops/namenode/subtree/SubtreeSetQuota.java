package io.hops.namenode.subtree;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.SetQuota;
import io.hops.namenode.ops.SubtreeTooBigException;
import io.hops.namenode.security.PermissionChecker;
import java.io.IOException;
import org.apache.hadoop.ipc.RetriableException;

/**
 * {@code setQuota} at any size (docs/architecture.md, "Quotas"): a directory that gets its first
 * quota over a subtree bigger than the bound has its usage counted under a mark, after the quiesce,
 * so that no writer below it changes the usage between the count and the commit that starts
 * counting.
 */
final class SubtreeSetQuota {
  private final SubtreeWorkers w;
  private final Quiesce quiesce;

  SubtreeSetQuota(SubtreeWorkers w, Quiesce quiesce) {
    this.w = w;
    this.quiesce = quiesce;
  }

  void setQuota(PermissionChecker pc, String src, long nsQuota, long dsQuota) throws IOException {
    for (int round = 0; ; round++) {
      try {
        w.runner.run(() -> new SetQuota(pc, src, nsQuota, dsQuota, w.bound));
        return;
      } catch (SubtreeTooBigException big) {
        if (round == SubtreeWorkers.ROUNDS) {
          throw new RetriableException("setQuota " + src + ": the subtree kept changing; retry");
        }
        InodeRow root =
            w.marks.mark(
                src,
                SubtreeMarks.QUOTA,
                pc.caller().user(),
                p -> p.target() != null && p.target().isDir() && !p.target().hasQuota());
        if (root == null) {
          continue;
        }
        try {
          // Counted by the quiesce; no permission check: setQuota is the superuser's.
          long[] usage = quiesce.usage(root, SubtreeWorkers.pathOf(src), null);
          w.runner.run(
              () ->
                  new SetQuota(pc, src, nsQuota, dsQuota, w.bound)
                      .withUsage(root.id(), root.subtreeLockOwner(), usage[0], usage[1]));
          return;
        } finally {
          w.unmarkUnlessStopped(root);
        }
      }
    }
  }
}
