package io.hops.namenode.subtree;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.Delete;
import io.hops.namenode.ops.SubtreeTooBigException;
import io.hops.namenode.quota.QuotaDirsOnPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.RetryCache;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.ipc.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code delete} at any size (docs/architecture.md, "Subtree operations"): one transaction first;
 * past the bound, under a mark, either unlinked at once and reclaimed in the background (below a
 * snapshot, once the snapshots that have it are gone), or quiesced and deleted level by level in
 * place, then finished by one transaction under the mark.
 *
 * <p>Memory: the quiesce of a delete in place keeps one entry per inode (id, parent id, name):
 * about 100 bytes with a short name, so 1 M inodes cost about 100 MB of heap until the delete ends;
 * each level is dropped once deleted.
 */
final class SubtreeDelete {
  private static final Logger LOG = LoggerFactory.getLogger(SubtreeDelete.class);

  private final SubtreeWorkers w;
  private final Quiesce quiesce;
  private final LevelDelete levels;
  private final SubtreeReclaim reclaim;
  private final SubtreeOperations.SnapshottedBelow snapshottedBelow;
  private final boolean inBackground;

  SubtreeDelete(
      SubtreeWorkers w,
      Quiesce quiesce,
      LevelDelete levels,
      SubtreeReclaim reclaim,
      SubtreeOperations.SnapshottedBelow snapshottedBelow,
      boolean inBackground) {
    this.w = w;
    this.quiesce = quiesce;
    this.levels = levels;
    this.reclaim = reclaim;
    this.snapshottedBelow = snapshottedBelow;
    this.inBackground = inBackground;
  }

  boolean delete(
      PermissionChecker pc, String src, boolean recursive, RetryCache.Codec<Boolean> codec)
      throws IOException {
    for (int round = 0; ; round++) {
      try {
        return w.runner.runAtMostOnce(
            () -> new Delete(w.limits, w.snapshotSettings, pc, src, recursive), codec);
      } catch (SubtreeTooBigException big) {
        if (round == SubtreeWorkers.ROUNDS) {
          throw new RetriableException("delete " + src + ": the subtree kept changing; retry");
        }
        Boolean done = underMark(pc, src, recursive, codec);
        if (done != null) {
          return done;
        }
      }
    }
  }

  private Boolean underMark(
      PermissionChecker pc, String src, boolean recursive, RetryCache.Codec<Boolean> codec)
      throws IOException {
    InodeRow root =
        w.marks.mark(
            src, SubtreeMarks.DELETE, pc.caller().user(), p -> SubtreeWorkers.nonEmptyDir(p));
    if (root == null) {
      return null; // changed meanwhile: the one-transaction delete decides
    }
    long start = System.nanoTime();
    boolean unlinked = false;
    try {
      if (inBackground || w.snapshotSettings.enabled()) {
        // Below a snapshot the subtree is kept, so it is detached whatever the setting says.
        Unlinked out = unlink(pc, src, recursive, codec, root);
        if (out != null) {
          unlinked = out.unlinked();
          return out.answer();
        }
      }
      InodeRow top = root;
      long quiesceNanos = 0;
      long deleteNanos = 0;
      for (int pass = 0; ; pass++) {
        String path = SubtreeWorkers.pathOf(src);
        long q0 = System.nanoTime();
        Quiesce.Found found = quiesce.levels(top, path, pc);
        long inodes = found.inodes();
        snapshottedBelow.refuse(path, root.id(), root.subtreeLockOwner());
        long d0 = System.nanoTime();
        List<Long> quotaDirs = w.runner.run(() -> new QuotaDirsOnPath(path));
        levels.detachHeld(root, found.held(), quotaDirs);
        levels.levels(root, found.levels(), quotaDirs);
        quiesceNanos += d0 - q0;
        deleteNanos += System.nanoTime() - d0;
        try {
          boolean out =
              w.runner.runAtMostOnce(
                  () ->
                      new Delete(w.limits, w.snapshotSettings, pc, src, recursive)
                          .underOwnMark(root.id(), root.subtreeLockOwner()),
                  codec);
          LOG.info(
              "subtree delete of {} ({} inodes) took {} ms: quiesce {} ms, deletion {} ms",
              path,
              inodes + 1,
              (System.nanoTime() - start) / 1_000_000,
              quiesceNanos / 1_000_000,
              deleteNanos / 1_000_000);
          return out;
        } catch (SubtreeTooBigException again) {
          // Writers that resolved their paths before the mark added more: read and delete again.
          if (pass == SubtreeWorkers.ROUNDS) {
            throw new RetriableException("delete " + src + ": the subtree kept growing; retry");
          }
          top = again.root();
        }
      }
    } finally {
      if (!unlinked) {
        w.unmarkUnlessStopped(root);
      }
    }
  }

  /**
   * A big delete that answers once its marked root is unlinked ({@link Delete#detaching}): HDFS's
   * sub-access check for a caller who is not the superuser (the quiesce, reading and checking,
   * keeping nothing), then one transaction, then the rows are freed in the background ({@link
   * SubtreeReclaim}). Null if a directory above has a quota: the delete is then done in place, so
   * that the quota's usage drops before the client hears back; null too where no snapshot covers
   * the subtree when this namenode does not delete in the background. Below a snapshot the detached
   * subtree is held: it is reclaimed once the snapshots that have it are gone.
   */
  private Unlinked unlink(
      PermissionChecker pc,
      String src,
      boolean recursive,
      RetryCache.Codec<Boolean> codec,
      InodeRow root)
      throws IOException {
    long start = System.nanoTime();
    String path = SubtreeWorkers.pathOf(src);
    long[] usage = null;
    Map<Long, Long> heldBelow = new HashMap<>();
    if (!pc.isSuperuser()) {
      // The sub-access check walks the subtree anyway: it counts it too where a snapshot may keep
      // it.
      if (w.snapshotSettings.enabled()) {
        usage = quiesce.usage(root, path, pc, heldBelow);
      } else {
        quiesce.check(root, path, pc);
      }
    }
    boolean out;
    try {
      out = unlinkCounted(pc, src, recursive, codec, root, usage, heldBelow);
    } catch (Delete.UncountedSubtreeException covered) {
      // Below a snapshot: its usage stays charged to every directory above, so it is counted under
      // the mark first (HDFS's delete walks it too, cleanSubtree).
      long[] counted = quiesce.usage(root, path, null, heldBelow);
      try {
        out = unlinkCounted(pc, src, recursive, codec, root, counted, heldBelow);
      } catch (SubtreeTooBigException inPlace) {
        return null;
      }
    } catch (SubtreeTooBigException inPlace) {
      return null;
    }
    InodeRow detached = reclaim.detached(root.id());
    if (detached != null && SubtreeReclaim.held(detached) && !detached.subtreeLocked()) {
      LOG.info(
          "subtree delete of {} unlinked inode {} in {} ms; its rows stay for the snapshots that"
              + " have them (hold {})",
          src,
          root.id(),
          (System.nanoTime() - start) / 1_000_000,
          detached.snapshotId());
      return new Unlinked(out, true);
    }
    if (!SubtreeReclaim.underMark(detached, root)) {
      // The path no longer led to the marked root (a delete of an ancestor unlinked it first, or
      // the name was replaced): nothing was unlinked, and the caller must clear the mark, or a
      // reclaim of the ancestor's subtree would meet it for as long as this namenode lives.
      LOG.info(
          "subtree delete of {} unlinked nothing: the path no longer leads to inode {}",
          src,
          root.id());
      return new Unlinked(out, false);
    }
    LOG.info(
        "subtree delete of {} unlinked inode {} in {} ms; its rows are freed in the background",
        src,
        root.id(),
        (System.nanoTime() - start) / 1_000_000);
    reclaim.later(root.id(), 0);
    return new Unlinked(out, true);
  }

  /**
   * The unlinking transaction, with the subtree's usage if counted ({@code usage}, or null) and the
   * holds of the held directories in it.
   */
  private boolean unlinkCounted(
      PermissionChecker pc,
      String src,
      boolean recursive,
      RetryCache.Codec<Boolean> codec,
      InodeRow root,
      long[] usage,
      Map<Long, Long> heldBelow)
      throws IOException {
    return w.runner.runAtMostOnce(
        () -> {
          Delete d =
              new Delete(w.limits, w.snapshotSettings, pc, src, recursive)
                  .underOwnMark(root.id(), root.subtreeLockOwner())
                  .withDetachedUsage(usage, heldBelow);
          return inBackground ? d.detaching() : d.detachingIfCovered();
        },
        codec);
  }

  /** The client's answer, and whether the marked root was unlinked (its mark then stays). */
  private record Unlinked(boolean answer, boolean unlinked) {}
}
