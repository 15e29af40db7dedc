package io.hops.namenode.subtree;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.Rename;
import io.hops.namenode.ops.SubtreeTooBigException;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.RetryCache;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.ipc.RetriableException;

/**
 * {@code rename} and {@code rename2} at any size (docs/architecture.md, "Subtree operations"): only
 * a rename to the trash reads the subtree (HDFS checks what a delete checks); a big one does it
 * under the mark, then moves the root in one transaction. The quiesce keeps only the directories of
 * two levels.
 */
final class SubtreeRename {
  private final SubtreeWorkers w;
  private final Quiesce quiesce;

  SubtreeRename(SubtreeWorkers w, Quiesce quiesce) {
    this.w = w;
    this.quiesce = quiesce;
  }

  boolean rename(
      PermissionChecker pc,
      String src,
      String dst,
      boolean oldApi,
      Options.Rename[] options,
      RetryCache.Codec<Boolean> codec)
      throws IOException {
    Supplier<Rename> plain =
        () ->
            oldApi
                ? Rename.oldApi(w.limits, w.clock, w.snapshotSettings, pc, src, dst)
                : Rename.withOptions(w.limits, w.clock, w.snapshotSettings, pc, src, dst, options);
    for (int round = 0; ; round++) {
      try {
        return w.runner.runAtMostOnce(plain, codec);
      } catch (SubtreeTooBigException big) {
        if (round == SubtreeWorkers.ROUNDS) {
          throw new RetriableException("rename " + src + ": the subtree kept changing; retry");
        }
        // An empty directory too: the charges of what snapshots keep below it, which the rename
        // carries, may be past the bound to count (docs/architecture.md, "Snapshots").
        InodeRow root =
            w.marks.mark(
                src,
                SubtreeMarks.RENAME,
                pc.caller().user(),
                p -> p.target() != null && p.target().isDir());
        if (root == null) {
          continue;
        }
        try {
          // The quiesce counts the subtree too: a move between quota directories carries it.
          long[] usage = quiesce.usage(root, SubtreeWorkers.pathOf(src), pc);
          return w.runner.runAtMostOnce(
              () ->
                  plain
                      .get()
                      .underOwnMark(root.id(), root.subtreeLockOwner())
                      .withMovedUsage(usage[0], usage[1]),
              codec);
        } finally {
          w.unmarkUnlessStopped(root);
        }
      }
    }
  }
}
