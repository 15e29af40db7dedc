package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The next batch of files kept for snapshots of directory {@code dirId} that none of its snapshots
 * may have any more, released ({@link KeptFiles}); run after a {@link DeleteSnapshot} or a {@link
 * ClearHold} that left more than one batch, or holds found due. Such a call writes, in its
 * transaction, a pending row {@code (0, upTo, dir, "kept")} in partition 0 of {@code
 * snapshot_version_log} ({@link #pendingFor}); the batch that finds nothing more due deletes it. A
 * namenode that stops midway leaves it, and the leader resumes the release from it ({@link
 * #resume}), as it does a reclaim of versions (docs/architecture.md, "Snapshots", "Release").
 */
public final class ReleaseKeptFiles extends Operation<KeptFiles.Left> {
  /** Names a pending row of a release not finished (the reclaims' rows have other names). */
  static final String KEPT = "kept";

  private final SnapshotVersionLogRow pending;
  private KeptFiles kept;
  private boolean recorded;

  private ReleaseKeptFiles(SnapshotVersionLogRow pending) {
    this.pending = pending;
  }

  /** The pending row of the release {@code left} leaves: partition {@code dirId} up to upTo. */
  static SnapshotVersionLogRow pendingFor(KeptFiles.Left left) {
    return new SnapshotVersionLogRow(
        SnapshotVersionLogRow.PENDING, left.upTo(), left.dirId(), KEPT);
  }

  /** Whether a pending row names a release of kept files (else a reclaim of versions). */
  public static boolean releases(SnapshotVersionLogRow pending) {
    return KEPT.equals(pending.name());
  }

  /**
   * Buffers the pending row when {@code left} leaves work to later transactions, so that it
   * survives this namenode; answers {@code left}.
   */
  static KeptFiles.Left recordLeft(ExecutePhase tx, KeptFiles.Left left) throws IOException {
    if (left.more() || !left.holds().isEmpty()) {
      tx.insertIfAbsent(SnapshotVersionLogRow.TABLE, pendingFor(left));
    }
    return left;
  }

  /**
   * Runs what a {@link DeleteSnapshot} left to its end, a bounded transaction each: the holds it
   * found due cleared, each releasing its directory's partition in turn (and starting the reclaim
   * of the versions below it, handed to {@code reclaims}), and the further batches of every
   * partition, the last of which deletes the partition's pending row.
   */
  static void drain(
      TransactionRunner runner, KeptFiles.Left first, Consumer<SnapshotVersionLogRow> reclaims)
      throws IOException {
    Deque<KeptFiles.Left> todo = new ArrayDeque<>();
    todo.add(first);
    // A hold ClearHold cannot find (a row written before schema version 12, which the embedded
    // engine's index lacks) is met again by the next batch: cleared once, then left.
    Set<SnapshotKeptFileRow> cleared = new HashSet<>();
    while (!todo.isEmpty()) {
      KeptFiles.Left left = todo.pop();
      boolean newHolds = false;
      for (SnapshotKeptFileRow hold : left.holds()) {
        if (cleared.add(hold)) {
          newHolds = true;
          todo.add(runner.run(() -> new ClearHold(hold)));
          reclaims.accept(ReclaimVersions.afterHold(hold.heldId(), hold.snapshotId()));
        }
      }
      if (left.more() || newHolds) {
        todo.add(runner.run(() -> new ReleaseKeptFiles(pendingFor(left))));
      }
    }
  }

  /**
   * Finishes the release {@code pending} names, left by a namenode that stopped (the leader's
   * {@code SnapshotVersionReclaims}); the reclaims of the holds it ends are left to their pending
   * rows, which the leader's next rounds take.
   */
  public static void resume(TransactionRunner runner, SnapshotVersionLogRow pending)
      throws IOException {
    drain(
        runner,
        new KeptFiles.Left(pending.pendingDir(), pending.snapshotId(), true, java.util.List.of()),
        reclaim -> {});
  }

  @Override
  public String name() {
    return "releaseKeptFiles";
  }

  @Override
  public Object partitionHint() {
    return pending.pendingDir();
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    long dirId = pending.pendingDir();
    // The directory's row first, as a deleteSnapshot locks it before the kept rows and the pending
    // row: a batch that finds nothing due and a deleteSnapshot that leaves more take turns, so the
    // pending row is never deleted under work that another call left.
    InodeRow seen = tx.inodePaths().byId(dirId);
    // A directory whose holds ended: its files kept past them go on to its heir, batch by batch.
    KeptBeyondHold beyond =
        seen != null && seen.isDir() && seen.snapshotId() == 0
            ? KeptBeyondHold.afterHolds(tx, seen)
            : KeptBeyondHold.STAY;
    if (seen != null) {
      InodeRow dir = tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(seen), LockMode.EXCLUSIVE);
      if (dir == null || dir.id() != dirId) {
        throw new TransientStorageException("releasing kept files: directory " + dirId + " moved");
      }
      beyond.lockInner(tx, seen, dir);
    }
    kept =
        KeptFiles.read(
            tx,
            dirId,
            tx.findByPartition(SnapshotRow.TABLE, dirId, LockMode.READ_COMMITTED),
            pending.snapshotId(),
            false,
            beyond,
            seen != null && seen.parentId() == Inodes.DETACHED && seen.snapshotId() == 0);
    recorded =
        tx.find(
                SnapshotVersionLogRow.TABLE,
                SnapshotVersionLogRow.TABLE.keyOf(pending),
                LockMode.EXCLUSIVE)
            != null;
  }

  @Override
  protected KeptFiles.Left execute(ExecutePhase tx) throws IOException {
    KeptFiles.Left left = kept.release(tx);
    if (recorded && !left.more() && left.holds().isEmpty()) {
      tx.delete(SnapshotVersionLogRow.TABLE, pending);
    }
    return left;
  }
}
