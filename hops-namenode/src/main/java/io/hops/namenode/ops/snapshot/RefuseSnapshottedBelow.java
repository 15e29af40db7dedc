package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.namenode.ops.Delete;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/**
 * HDFS's refusal of a delete of a directory holding a snapshottable directory with snapshots, for a
 * delete the subtree protocol does in place (many transactions): checked under the delete's own
 * mark, before its first batch, since the last transaction sees only the emptied root. A delete in
 * place below a snapshot is refused too: it would free rows the snapshots read (such a delete is
 * detached and held instead, {@link io.hops.namenode.ops.Delete#detaching}, and comes here only
 * below a directory with a quota as well).
 */
public final class RefuseSnapshottedBelow extends Operation<Void> {
  private final SnapshotSettings settings;
  private final String path;
  private final long mark;
  private final long markOwner;
  private SnapshotGuard guard;
  private ResolvedPath resolved;
  private boolean covered;

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
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
    guard = SnapshotGuard.read(settings, tx, resolved.target());
    covered = tx.coveringSnapshot(resolved) != 0;
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    guard.refuseSnapshotted();
    if (covered) {
      throw new IOException(Delete.notYetBelowSnapshotAndQuota(resolved.path()));
    }
    return null;
  }
}
