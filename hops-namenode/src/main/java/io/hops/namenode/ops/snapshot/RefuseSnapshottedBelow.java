package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/**
 * HDFS's refusal of a delete of a directory holding a snapshottable directory with snapshots, for a
 * delete the subtree protocol does in place (many transactions): checked under the delete's own
 * mark, before its first batch, since the last transaction sees only the emptied root. A delete
 * below a snapshot is never done in place (it would free rows the snapshots read): it is detached
 * and held ({@link io.hops.namenode.ops.Delete#detaching}), decided under the mark, and no snapshot
 * is taken at, above or below a marked directory until its operation ends ({@link
 * SubtreeOperationsAround}), so that decision stands until the last batch.
 */
public final class RefuseSnapshottedBelow extends Operation<Void> {
  private final SnapshotSettings settings;
  private final String path;
  private final long mark;
  private final long markOwner;
  private SnapshotGuard guard;

  public RefuseSnapshottedBelow(SnapshotSettings settings, String path, long mark, long markOwner) {
    this.settings = settings;
    this.path = path;
    this.mark = mark;
    this.markOwner = markOwner;
  }

  @Override
  public String name() {
    return "delete";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    tx.passOwnSubtreeMark(mark, markOwner);
    ResolvedPath resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
    guard = SnapshotGuard.read(settings, tx, resolved.target());
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    guard.refuseSnapshotted();
    return null;
  }
}
