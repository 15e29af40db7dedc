package io.hops.namenode.ops;

import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/**
 * Frees the next batch of blocks of a deleted file named in {@code released_files} (see {@link
 * DeletedInodes}): at most {@link DeletedInodes#releaseBatch} block rows (a sixteenth of {@code
 * hops.namenode.transaction.max-rows}) with their lookup, replica and queue rows, each replica
 * becoming an invalidation, as a delete does; the last batch also deletes the small-file data rows
 * a snapshot kept under the id. Answers whether the file is done (its {@code released_files} row
 * went with this batch).
 */
public final class ReleaseBlocks extends Operation<Boolean> {
  private final long fileId;
  private DeletedInodes batch;

  public ReleaseBlocks(long fileId) {
    this.fileId = fileId;
  }

  @Override
  public String name() {
    return "releaseBlocks";
  }

  @Override
  public Object partitionHint() {
    return fileId;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    batch = DeletedInodes.readReleaseBatch(tx, fileId);
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    batch.delete(tx);
    return batch.finished();
  }
}
