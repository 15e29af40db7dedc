package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DeferredChecks;
import io.hops.namenode.blocks.RackHistory.Walk;
import io.hops.namenode.ops.QueueMisplacedBlocks;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The walk that judges every block once the cluster left startup safe mode, where full reports
 * deferred the checks of the replicas they added ({@link DeferredChecks}; HDFS
 * processMisReplicatedBlocks as it leaves safe mode). Each round walks up to {@code
 * dfs.block.misreplication.processing.limit} blocks in pages ({@link ReplicaPages}), reads the
 * replication of their files (read committed, by id), and queues for the replication check, one
 * {@link QueueMisplacedBlocks} transaction per file, every block whose live replicas in service are
 * not as many as its file asks, or break the rack rule; the check judges each again (an excess
 * replica is deleted, a missing one copied). A block queued needlessly costs a check, never a wrong
 * replica. Where the walk is goes into the row at the end of each round (fenced), so a new leader
 * resumes there.
 */
final class DeferredCheckWalk implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(DeferredCheckWalk.class);

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final int pageRows;
  private final int blocksPerRound;

  DeferredCheckWalk(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.pageRows = ReplicaPages.pageRows(conf);
    this.blocksPerRound = ReplicaPages.blocksPerRound(conf);
  }

  @Override
  public String name() {
    return "deferred-check-walk";
  }

  /** Judged from live replicas, once the cluster has left startup safe mode. */
  @Override
  public boolean runsInSafeMode() {
    return false;
  }

  @Override
  public void runOnce() throws IOException {
    VariableRow row;
    try (Transaction tx = storage.begin()) {
      row = tx.find(VariableRow.TABLE, DeferredChecks.key(), LockMode.READ_COMMITTED);
    }
    Walk w = DeferredChecks.walkOf(row);
    if (row == null || (w == null && !leader.run(DeferredChecks::beginWalk))) {
      return;
    }
    if (w == null) {
      w = new Walk(null, 0, 0, System.currentTimeMillis());
      LOG.info("judging every block for replication: full reports deferred their checks");
    }
    long judged = 0;
    while (judged < blocksPerRound) {
      ReplicaPages.Page p = ReplicaPages.next(storage, w.after(), pageRows);
      long queued = queue(p.blocks());
      judged += p.blocks().size();
      if (p.ended()) {
        leader.run(() -> DeferredChecks.saveWalk(null));
        LOG.info(
            "judged every block for replication after startup safe mode: {} blocks, {} queued, {}"
                + " ms",
            w.checked() + p.blocks().size(),
            w.queued() + queued,
            System.currentTimeMillis() - w.dueSinceMillis());
        return;
      }
      w = w.past(p.last(), p.blocks().size(), queued);
    }
    Walk at = w;
    leader.run(() -> DeferredChecks.saveWalk(at));
  }

  /** Queues the blocks of a page that need a check; answers how many. */
  private long queue(List<List<ReplicaRow>> blocks) throws IOException {
    Map<Long, Short> replication = replicationOf(blocks);
    Map<Long, Set<Long>> due = new LinkedHashMap<>();
    for (List<ReplicaRow> b : blocks) {
      Short wanted = replication.get(b.get(0).inodeId());
      if (wanted == null) {
        continue; // the file is gone: its delete removes the rest
      }
      List<String> live = ReplicaPages.liveInService(blockManager.datanodes(), b);
      if (live.size() != wanted
          || (live.size() > 1
              && !blockManager.placement().isPlacementSatisfied(live, live.size()))) {
        due.computeIfAbsent(b.get(0).inodeId(), k -> new HashSet<>()).add(b.get(0).blockId());
      }
    }
    long queued = 0;
    for (Map.Entry<Long, Set<Long>> f : due.entrySet()) {
      queued += leader.run(() -> new QueueMisplacedBlocks(blockManager, f.getKey(), f.getValue()));
    }
    return queued;
  }

  /** The replication of each file of the page (none for a file gone or a directory). */
  private Map<Long, Short> replicationOf(List<List<ReplicaRow>> blocks) throws IOException {
    Map<Long, Short> out = new HashMap<>();
    try (Transaction tx = storage.begin()) {
      for (List<ReplicaRow> b : blocks) {
        long inode = b.get(0).inodeId();
        if (out.containsKey(inode)) {
          continue;
        }
        List<InodeRow> found = tx.findByIndex(InodeRow.TABLE, "id", inode, LockMode.READ_COMMITTED);
        InodeRow file = found.isEmpty() ? null : found.get(0);
        out.put(inode, file == null || file.isDir() ? null : file.replication());
      }
    }
    return out;
  }
}
