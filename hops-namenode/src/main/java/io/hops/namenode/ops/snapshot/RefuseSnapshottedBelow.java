package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.ipc.RetriableException;

/**
 * HDFS's refusal of a delete of a directory holding a snapshottable directory with snapshots, for a
 * delete the subtree protocol does in place (many transactions): checked under the delete's own
 * mark, before its first batch, since the last transaction sees only the emptied root. A delete in
 * place below a snapshot is refused too, as a retriable failure: it would free rows the snapshots
 * read. Such a delete is detached and held instead ({@link io.hops.namenode.ops.Delete#detaching});
 * it comes here only when a snapshot above was taken after the delete found none.
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
      // A snapshot taken above it since the delete chose to do it in place: the retry detaches it.
      throw new RetriableException(
          "delete " + resolved.path() + ": a snapshot was taken above it meanwhile; retry");
    }
    return null;
  }
}
