package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The next batch of files kept for snapshots of directory {@code dirId} that none of its snapshots
 * may have any more, released ({@link KeptFiles}); run after a {@link DeleteSnapshot} or a {@link
 * ClearHold} that left more than one batch.
 */
public final class ReleaseKeptFiles extends Operation<KeptFiles.Left> {
  private final long dirId;
  private final long upTo;
  private KeptFiles kept;

  private ReleaseKeptFiles(long dirId, long upTo) {
    this.dirId = dirId;
    this.upTo = upTo;
  }

  /**
   * Runs what a {@link DeleteSnapshot} left to its end, a bounded transaction each: the holds it
   * found due cleared, each releasing its directory's partition in turn, and the further batches of
   * every partition. If this namenode stops midway, what is left stays kept until the next {@code
   * deleteSnapshot} of the directory.
   */
  static void drain(TransactionRunner runner, KeptFiles.Left first) throws IOException {
    Deque<KeptFiles.Left> todo = new ArrayDeque<>();
    todo.add(first);
    while (!todo.isEmpty()) {
      KeptFiles.Left left = todo.pop();
      for (SnapshotKeptFileRow hold : left.holds()) {
        todo.add(runner.run(() -> new ClearHold(hold)));
        ReclaimVersions.drain(runner, ReclaimVersions.afterHold(hold.heldId(), hold.snapshotId()));
      }
      if (left.more()) {
        todo.add(runner.run(() -> new ReleaseKeptFiles(left.dirId(), left.upTo())));
      }
    }
  }

  @Override
  public String name() {
    return "releaseKeptFiles";
  }

  @Override
  public Object partitionHint() {
    return dirId;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    kept =
        KeptFiles.read(
            tx,
            dirId,
            tx.findByPartition(SnapshotRow.TABLE, dirId, LockMode.READ_COMMITTED),
            upTo,
            false);
  }

  @Override
  protected KeptFiles.Left execute(ExecutePhase tx) throws IOException {
    return kept.release(tx);
  }
}
