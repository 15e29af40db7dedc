package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/**
 * The next batch of files kept for snapshots of directory {@code dirId} that none of its snapshots
 * may have any more, released ({@link KeptFiles}); run after a {@link DeleteSnapshot} that left
 * more than one batch. Answers whether another batch may be due.
 */
public final class ReleaseKeptFiles extends Operation<Boolean> {
  private final long dirId;
  private final long upTo;
  private KeptFiles kept;

  public ReleaseKeptFiles(long dirId, long upTo) {
    this.dirId = dirId;
    this.upTo = upTo;
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
            tx, dirId, tx.findByPartition(SnapshotRow.TABLE, dirId, LockMode.READ_COMMITTED), upTo);
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    return kept.release(tx);
  }
}
