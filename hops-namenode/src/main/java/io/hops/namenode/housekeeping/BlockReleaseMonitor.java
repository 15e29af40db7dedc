package io.hops.namenode.housekeeping;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.namenode.ops.ReleaseBlocks;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees the blocks of deleted files too large for the deleting transaction ({@code released_files},
 * see {@code DeletedInodes}): each round, a page of the queue, and up to {@link #BATCHES_PER_ROUND}
 * transactions of {@link ReleaseBlocks}, each bounded in rows. A leader that dies mid-file leaves a
 * smaller file to free; the next leader goes on with it.
 */
final class BlockReleaseMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(BlockReleaseMonitor.class);
  static final int BATCHES_PER_ROUND = 20;

  private final Storage storage;
  private final LeaderRunner leader;
  private final QueueCursor<ReleasedFileRow> cursor;

  BlockReleaseMonitor(Storage storage, LeaderRunner leader, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.cursor = new QueueCursor<>(ReleasedFileRow.TABLE, QueueCursor.pageRows(conf));
  }

  @Override
  public boolean runsInSafeMode() {
    return false;
  }

  @Override
  public String name() {
    return "block-release";
  }

  @Override
  public void runOnce() throws IOException {
    List<ReleasedFileRow> files;
    try (Transaction tx = storage.begin()) {
      files = cursor.next(tx);
    }
    int batches = 0;
    for (ReleasedFileRow f : files) {
      boolean done = false;
      while (!done && batches < BATCHES_PER_ROUND) {
        done = leader.run(() -> new ReleaseBlocks(f.inodeId()));
        batches++;
      }
      if (done) {
        LOG.info("the blocks of deleted file {} are released", f.inodeId());
      }
      if (batches >= BATCHES_PER_ROUND) {
        return;
      }
    }
  }
}
