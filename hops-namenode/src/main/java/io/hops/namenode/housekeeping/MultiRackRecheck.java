package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockPlacement;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.RackHistory;
import io.hops.namenode.blocks.RackHistory.Stage;
import io.hops.namenode.blocks.RackHistory.State;
import io.hops.namenode.blocks.RackHistory.Walk;
import io.hops.namenode.ops.QueueMisplacedBlocks;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The re-check of every block that a cluster's second rack makes due (HDFS
 * BlockManager.processMisReplicatedBlocks, started by checkIfClusterIsNowMultiRack): while the
 * {@code multi_rack} row says it is due ({@link RackHistory}), each round walks the {@code
 * replicas} table in primary-key order (so a block's replicas come together), pages of {@code
 * hops.namenode.housekeeping.page.rows} rows read committed, up to {@code
 * dfs.block.misreplication.processing.limit} blocks a round, and queues for the replication check
 * the blocks whose live replicas, two or more, break the rack rule ({@link
 * BlockPlacement#isPlacementSatisfied}), one {@link QueueMisplacedBlocks} transaction per file; the
 * check judges each again and copies it to another rack. Where the walk is goes into the row at the
 * end of each round (fenced, as the leader's), so a new leader resumes there; at the end of the
 * walk the row says multi-rack only. Blocks written meanwhile need no walk: placement spreads them,
 * and a completed block is checked then.
 */
final class MultiRackRecheck implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(MultiRackRecheck.class);

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final DatanodeManager dm;
  private final int pageRows;
  private final int blocksPerRound;

  /** This leader saw the row say multi-rack: it never becomes due again. */
  private boolean settled;

  MultiRackRecheck(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.dm = blockManager.datanodes();
    this.pageRows = ReplicaPages.pageRows(conf);
    this.blocksPerRound = ReplicaPages.blocksPerRound(conf);
  }

  @Override
  public String name() {
    return "multi-rack-recheck";
  }

  /** Judged from live replicas: waits while a start has not heard from every datanode. */
  @Override
  public boolean runsInSafeMode() {
    return false;
  }

  @Override
  public void runOnce() throws IOException {
    if (settled) {
      return;
    }
    State s;
    try (Transaction tx = storage.begin()) {
      s = RackHistory.read(tx, LockMode.READ_COMMITTED);
    }
    if (s.stage() == Stage.MULTI_RACK) {
      settled = true;
      return;
    }
    if (s.stage() != Stage.RECHECK_DUE) {
      return;
    }
    Walk w = s.walk();
    if (w.after() == null) {
      LOG.info("the cluster is on two racks or more: re-checking every block for replication");
    }
    long judged = 0;
    while (judged < blocksPerRound) {
      Page p = nextPage(w);
      judged += p.blocks;
      if (p.last == null) {
        finish(w.checked() + p.blocks, w.queued() + p.queued, w.dueSinceMillis());
        return;
      }
      w = w.past(p.last, p.blocks, p.queued);
    }
    Walk at = w;
    leader.run(() -> new SaveWalk(at));
    LOG.info(
        "re-checking every block for replication: {} blocks processed, {} mis-replicated queued",
        at.checked(),
        at.queued());
  }

  /** What one page did: blocks judged and queued, the last replica judged (null: walk ended). */
  private record Page(long blocks, long queued, ReplicaRow last) {}

  private Page nextPage(Walk w) throws IOException {
    ReplicaPages.Page page = ReplicaPages.next(storage, w.after(), pageRows);
    Map<Long, Set<Long>> misplaced = new LinkedHashMap<>();
    for (List<ReplicaRow> b : page.blocks()) {
      if (isMisplaced(b)) {
        misplaced.computeIfAbsent(b.get(0).inodeId(), k -> new HashSet<>()).add(b.get(0).blockId());
      }
    }
    long queued = 0;
    for (Map.Entry<Long, Set<Long>> f : misplaced.entrySet()) {
      queued += leader.run(() -> new QueueMisplacedBlocks(blockManager, f.getKey(), f.getValue()));
    }
    int judged = page.blocks().size();
    return new Page(judged, queued, page.ended() ? null : page.last());
  }

  /**
   * Whether a block's live replicas in service, two or more, break the rack rule for as many
   * replicas as they are (a single one, or none, is low redundancy: queued when it became so).
   */
  private boolean isMisplaced(List<ReplicaRow> replicas) throws IOException {
    List<String> live = ReplicaPages.liveInService(dm, replicas);
    return live.size() > 1 && !blockManager.placement().isPlacementSatisfied(live, live.size());
  }

  private void finish(long checked, long queued, long dueSinceMillis) throws IOException {
    leader.run(() -> new SaveWalk(null));
    settled = true;
    LOG.info(
        "re-checked every block for replication since the cluster became multi-rack: {} blocks"
            + " processed, {} mis-replicated queued, {} ms after it was due",
        checked,
        queued,
        System.currentTimeMillis() - dueSinceMillis);
  }

  /**
   * Stores where the walk is ({@code null}: it ended, the row says multi-rack), if the row still
   * says the re-check is due. One PK read and one write.
   */
  private static final class SaveWalk extends Operation<Void> {
    private final Walk walk;
    private State old;

    SaveWalk(Walk walk) {
      this.walk = walk;
    }

    @Override
    public String name() {
      return "saveMultiRackRecheck";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      old = State.of(tx.find(VariableRow.TABLE, RackHistory.key(), LockMode.EXCLUSIVE));
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      if (old.stage() == Stage.RECHECK_DUE) {
        tx.update(
            VariableRow.TABLE,
            (walk == null ? RackHistory.multiRack() : RackHistory.recheckDue(walk)).row());
      }
      return null;
    }
  }
}
