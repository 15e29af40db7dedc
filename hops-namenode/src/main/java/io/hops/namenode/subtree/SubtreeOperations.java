package io.hops.namenode.subtree;

import io.hops.election.ClusterClock;
import io.hops.namenode.config.Limits;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.ops.SubtreeTooBigException;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.RetryCache;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.QuotaUsage;

/**
 * Directory operations at any size (docs/architecture.md, "Subtree operations", the HopsFS paper's
 * subtree protocol), one class each: {@link SubtreeDelete}, {@link SubtreeRename}, {@link
 * SubtreeSetQuota}, {@link SubtreeContentSummary}, and {@link SubtreeReclaim} for the subtrees a
 * delete unlinked. Each first runs as one transaction; an operation whose subtree is over {@code
 * hops.namenode.subtree.max-inodes-in-one-tx} writes nothing and says so ({@link
 * SubtreeTooBigException}), and then:
 *
 * <ol>
 *   <li>one short transaction marks the subtree's root ({@link SubtreeMarks});
 *   <li>the quiesce reads the subtree level by level, locking and releasing its rows in batches
 *       ({@link Quiesce} over {@link SubtreeWalk}), and checks HDFS's sub-access permission on the
 *       way;
 *   <li>a delete removes it level by level from the deepest, leaves first, in parallel batches of
 *       one transaction each ({@link LevelDelete}); a rename to the trash needs nothing more;
 *   <li>the operation runs once more as one transaction under its own mark: it now finds the
 *       subtree empty (delete) or already checked (rename), clears the mark with its own write and
 *       records its outcome in the retry cache, exactly once.
 * </ol>
 *
 * <p>This class builds them over the threads they share ({@link SubtreeWorkers}) and is what the
 * namenode calls.
 */
public final class SubtreeOperations {
  /**
   * HDFS's refusal of a delete in place of a directory holding one with snapshots, checked under
   * the delete's own mark before its first batch, since the last transaction sees only the emptied
   * root; a delete in place below a snapshot is refused too (it would free what the snapshots
   * read). The wiring runs {@code ops/snapshot/RefuseSnapshottedBelow} when snapshots are enabled.
   */
  @FunctionalInterface
  public interface SnapshottedBelow {
    void refuse(String path, long mark, long markOwner) throws IOException;
  }

  private final SubtreeWorkers workers;
  private final SubtreeDelete delete;
  private final SubtreeRename rename;
  private final SubtreeSetQuota setQuota;
  private final SubtreeContentSummary summary;
  private final SubtreeReclaim reclaim;

  /**
   * Runs its transactions through {@code runner} under {@code marks}; the operations it runs check
   * {@code limits}, record times of {@code clock} and read {@code snapshotSettings}; {@code conf}
   * gives the pool's threads and whether a big delete is reclaimed in the background.
   */
  public SubtreeOperations(
      TransactionRunner runner,
      SubtreeMarks marks,
      Faults faults,
      Limits limits,
      ClusterClock clock,
      SnapshotSettings snapshotSettings,
      SnapshottedBelow snapshottedBelow,
      Configuration conf) {
    this.workers =
        new SubtreeWorkers(
            runner,
            marks,
            faults,
            limits,
            clock,
            snapshotSettings,
            conf.getInt(NamenodeConfig.SUBTREE_THREADS, NamenodeConfig.SUBTREE_THREADS_DEFAULT));
    Quiesce quiesce = new Quiesce(workers);
    LevelDelete levels = new LevelDelete(workers);
    this.reclaim = new SubtreeReclaim(workers, quiesce, levels);
    this.delete =
        new SubtreeDelete(
            workers,
            quiesce,
            levels,
            reclaim,
            snapshottedBelow,
            conf.getBoolean(
                NamenodeConfig.SUBTREE_DELETE_IN_BACKGROUND,
                NamenodeConfig.SUBTREE_DELETE_IN_BACKGROUND_DEFAULT));
    this.rename = new SubtreeRename(workers, quiesce);
    this.setQuota = new SubtreeSetQuota(workers, quiesce);
    this.summary = new SubtreeContentSummary(workers);
  }

  public SubtreeMarks marks() {
    return workers.marks;
  }

  /**
   * The namenode stops: operations in progress end between two of their transactions, leaving their
   * marks to be cleared by whoever meets them once this namenode has left the membership.
   */
  public void stop() {
    workers.stop();
  }

  /** {@code delete}, at any size ({@link SubtreeDelete}). */
  public boolean delete(
      PermissionChecker pc, String src, boolean recursive, RetryCache.Codec<Boolean> codec)
      throws IOException {
    return delete.delete(pc, src, recursive, codec);
  }

  /** {@code rename} and {@code rename2} at any size ({@link SubtreeRename}). */
  public boolean rename(
      PermissionChecker pc,
      String src,
      String dst,
      boolean oldApi,
      Options.Rename[] options,
      RetryCache.Codec<Boolean> codec)
      throws IOException {
    return rename.rename(pc, src, dst, oldApi, options, codec);
  }

  /** {@code setQuota} at any size ({@link SubtreeSetQuota}). */
  public void setQuota(PermissionChecker pc, String src, long nsQuota, long dsQuota)
      throws IOException {
    setQuota.setQuota(pc, src, nsQuota, dsQuota);
  }

  /** {@code getQuotaUsage} ({@link SubtreeContentSummary}). */
  public QuotaUsage quotaUsage(PermissionChecker pc, String src) throws IOException {
    return summary.quotaUsage(pc, src);
  }

  /** {@code getContentSummary} at any size ({@link SubtreeContentSummary}). */
  public ContentSummary contentSummary(PermissionChecker pc, String src) throws IOException {
    return summary.contentSummary(pc, src);
  }

  /** Frees every row of the detached subtree {@code id} ({@link SubtreeReclaim#reclaim}). */
  public void reclaim(long id) throws IOException {
    reclaim.reclaim(id);
  }

  /**
   * The leader's sweep: reclaims the detached subtrees whose reclaiming namenode is dead (taking
   * over its mark first) or that this namenode should be reclaiming and is not. Returns how many it
   * started.
   */
  public int resumeReclaims() throws IOException {
    return reclaim.resume();
  }

  /** Whether this namenode has a reclaim queued or running. */
  public boolean reclaiming() {
    return reclaim.reclaiming();
  }
}
