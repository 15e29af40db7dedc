package io.hops.namenode.housekeeping;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.namenode.blocks.BlockManager;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduled copies that did not arrive within {@code
 * dfs.namenode.reconstruction.pending.timeout-sec} (HDFS
 * PendingReconstructionBlocks.PendingReconstructionMonitor): the blocks go back to the
 * re-replication queue ({@link PendingTimeout}, one transaction per file). {@code pending_blocks}
 * has no index on its timestamp: each round reads one page of it after a cursor ({@link
 * QueueCursor}), so a backlog of any size costs a round a page.
 *
 * <p>A copy is asked for through a command that waits in the scheduling leader's memory for the
 * source datanode's next heartbeat; a leader that dies takes the commands it had not yet handed out
 * with it. So a new leader also times out every copy scheduled before its term began, once the term
 * is {@link #takeoverGraceMillis} old (a few heartbeats: the copies the old leader did hand out
 * arrive by then), instead of waiting out the full timeout for copies that were never asked for. A
 * copy both leaders asked for is made twice at worst, and the extra replica is removed as any
 * excess one.
 */
final class PendingReplicationMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(PendingReplicationMonitor.class);

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final long timeoutMillis;
  private final long takeoverGraceMillis;
  private final QueueCursor<PendingBlockRow> cursor;

  /** The leader epoch this namenode last ran a round in, and when that round began. */
  private long epoch = -1;

  private long termStart = -1;

  PendingReplicationMonitor(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.timeoutMillis =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_NAMENODE_RECONSTRUCTION_PENDING_TIMEOUT_SEC_KEY,
            DFSConfigKeys.DFS_NAMENODE_RECONSTRUCTION_PENDING_TIMEOUT_SEC_DEFAULT,
            TimeUnit.SECONDS,
            TimeUnit.MILLISECONDS);
    long heartbeatMillis =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
            TimeUnit.SECONDS,
            TimeUnit.MILLISECONDS);
    this.takeoverGraceMillis = Math.min(timeoutMillis, 3 * heartbeatMillis);
    this.cursor = new QueueCursor<>(PendingBlockRow.TABLE, QueueCursor.pageRows(conf));
  }

  /**
   * Copies scheduled before this time are timed out now: those older than the timeout and, once
   * this leader's term is past its grace, those scheduled before the term began.
   */
  private long cutoff(long now) {
    io.hops.election.LeaderElection election = blockManager.election();
    long current = election == null ? 0 : election.epoch();
    if (termStart < 0 || current != epoch) {
      epoch = current;
      termStart = now;
    }
    long cutoff = now - timeoutMillis;
    return now - termStart >= takeoverGraceMillis ? Math.max(cutoff, termStart) : cutoff;
  }

  @Override
  public String name() {
    return "pending-replication";
  }

  @Override
  public void runOnce() throws IOException {
    long cutoff = cutoff(blockManager.now());
    Map<Long, List<Long>> byFile = new TreeMap<>();
    try (Transaction tx = storage.begin()) {
      for (PendingBlockRow p : cursor.next(tx)) {
        if (p.timestamp() < cutoff) {
          byFile.computeIfAbsent(p.inodeId(), k -> new ArrayList<>()).add(p.blockId());
        }
      }
    }
    int timedOut = 0;
    for (Map.Entry<Long, List<Long>> f : byFile.entrySet()) {
      List<Long> ids = f.getValue().stream().sorted().toList();
      LOG.debug("copies timed out of file {}: blocks {}", f.getKey(), ids);
      for (int i = 0; i < ids.size(); i += DeadDatanodeMonitor.BATCH) {
        List<Long> batch = ids.subList(i, Math.min(ids.size(), i + DeadDatanodeMonitor.BATCH));
        timedOut +=
            leader.run(() -> new PendingTimeout(blockManager.clock(), f.getKey(), batch, cutoff));
      }
    }
    if (timedOut > 0) {
      LOG.info("{} scheduled block copies timed out; their blocks are queued again", timedOut);
    }
  }
}
