package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.ChangedStorages;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.FullReportRequests;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.housekeeping.RemoveStorageReplicas.FileBlock;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Datanodes whose heartbeats stopped (HDFS HeartbeatManager.heartbeatCheck and
 * DatanodeManager.removeDeadDatanode): their replicas are forgotten, storage by storage, in small
 * transactions ({@link RemoveStorageReplicas}), and the blocks they held are queued for
 * re-replication. A round reads at most {@link #PAGES_PER_ROUND} pages of rows ({@code
 * hops.namenode.housekeeping.page.rows} each): a storage's replicas by index pages on {@code
 * replicas.storage_id}, then its pipeline locations, which have no such index, by pages of the
 * pipeline table; each page is forgotten in transactions of {@link #BATCH} blocks. HDFS forgets a
 * dead datanode's replicas at once, under its namesystem lock; at the defaults a datanode of
 * 100,000 replicas is forgotten in one round of 100 bounded transactions (before: 20 rounds of 50
 * transactions of 100, 186 s on a loaded machine, docs/benchmarks.md), a million in ten.
 *
 * <p>A datanode that dies in maintenance keeps its replicas while its maintenance lasts: they are
 * forgotten only if it ends while the datanode is still dead (HDFS stopMaintenance).
 *
 * <p>A datanode declared dead gets none of the commands queued for it. Once its replicas are
 * forgotten, or once it is back before they all are, a full report of it is asked for in the
 * database ({@link FullReportRequests}): the owner of its reports, which may be another namenode,
 * has it register again and send one, as HDFS's registration command does; a datanode that comes
 * back before its turn here keeps its replicas.
 */
final class DeadDatanodeMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(DeadDatanodeMonitor.class);

  /** Blocks forgotten by one transaction: 6 batched reads, at most 4 writes a block. */
  static final int BATCH = 1_000;

  /** Pages of a dead datanode's rows a round reads and forgets. */
  static final int PAGES_PER_ROUND = 10;

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final DatanodeManager dm;

  /** Declared dead and not yet forgotten (a failed round leaves them here for the next one). */
  private final Map<String, DatanodeState> toForget = new LinkedHashMap<>();

  /**
   * Dead in maintenance: what they hold is kept (HDFS removeDeadDatanode does not remove a
   * maintenance datanode's blocks) until their maintenance ends while they are still dead.
   */
  private final Map<String, DatanodeState> keptInMaintenance = new LinkedHashMap<>();

  private final int pageRows;

  // Where forgetting the first of toForget is: the leader's memory, a hint (a new leader's
  // DatanodeManager declares the datanode dead again and starts over).
  private String current;
  private Deque<StorageRef> storagesLeft = new ArrayDeque<>();
  private Key replicaCursor;
  private Key pipelineCursor;
  private boolean replicasDone;
  private int removed;

  DeadDatanodeMonitor(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.dm = blockManager.datanodes();
    this.pageRows = QueueCursor.pageRows(conf);
  }

  @Override
  public String name() {
    return "dead-datanodes";
  }

  @Override
  public void runOnce() throws IOException {
    for (DatanodeState n : dm.takeNewlyDead()) {
      n.clearCommands(); // a dead datanode gets none of them
      toForget.put(n.uuid(), n);
    }
    for (DatanodeState n : List.copyOf(keptInMaintenance.values())) {
      if (dm.isLive(n)) {
        keptInMaintenance.remove(n.uuid()); // back, with all it held
      } else if (!n.isMaintenance()) {
        keptInMaintenance.remove(n.uuid());
        toForget.put(n.uuid(), n); // HDFS stopMaintenance of a dead datanode
      }
    }
    int budget = PAGES_PER_ROUND * pageRows;
    while (budget > 0 && !toForget.isEmpty()) {
      DatanodeState n = toForget.values().iterator().next();
      if (!n.uuid().equals(current)) {
        if (n.isMaintenance() && !dm.isLive(n)) {
          LOG.info(
              "dead datanode {} ({}) is in maintenance: its replicas are kept",
              n.id().getXferAddr(),
              n.uuid());
          toForget.remove(n.uuid());
          keptInMaintenance.put(n.uuid(), n);
          continue;
        }
        start(n);
      }
      if (dm.isLive(n)) {
        // Back in time: what it holds is still there, but for what was forgotten already (here or
        // by an earlier leader, which this one cannot count), which its full report restores.
        registerAgain(n);
        finish(n);
        continue;
      }
      if (storagesLeft.isEmpty()) {
        registerAgain(n);
        LOG.info(
            "dead datanode {} ({}): {} replicas forgotten, their blocks queued for re-replication",
            n.id().getXferAddr(),
            n.uuid(),
            removed);
        finish(n);
        continue;
      }
      budget -= Math.max(1, forgetPage(storagesLeft.peek()));
    }
  }

  private void start(DatanodeState n) throws IOException {
    current = n.uuid();
    storagesLeft = new ArrayDeque<>(dm.storagesOf(n.uuid()));
    replicaCursor = null;
    pipelineCursor = null;
    replicasDone = false;
    removed = 0;
  }

  private void finish(DatanodeState n) {
    toForget.remove(n.uuid());
    current = null;
  }

  /**
   * Asks, in the database, for a full report of {@code n} once it is back: the owner of its
   * reports, which may not be this namenode, sends the datanode a registration command and applies
   * the report ({@link io.hops.namenode.blocks.FullReportRequests}).
   */
  private void registerAgain(DatanodeState n) throws IOException {
    leader.run(() -> FullReportRequests.request(n.uuid()));
  }

  /**
   * Forgets the next page of a storage's replicas (an index page on {@code replicas.storage_id}),
   * or, once they are done, of the pipeline table's rows (which has no such index); returns the
   * rows read. The storage is done after a short page of both.
   */
  private int forgetPage(StorageRef s) throws IOException {
    List<FileBlock> held = new ArrayList<>();
    int read;
    try (Transaction tx = storage.begin()) {
      if (!replicasDone) {
        List<ReplicaRow> page =
            tx.findByIndexFrom(
                ReplicaRow.TABLE,
                "storage_id",
                s.id(),
                replicaCursor,
                pageRows,
                LockMode.READ_COMMITTED);
        page.forEach(r -> held.add(new FileBlock(r.inodeId(), r.blockId())));
        read = page.size();
        replicasDone = page.size() < pageRows;
        replicaCursor = replicasDone ? null : ReplicaRow.TABLE.keyOf(page.get(page.size() - 1));
      } else {
        List<ReplicaUnderConstructionRow> page =
            tx.scanFrom(
                ReplicaUnderConstructionRow.TABLE,
                null,
                pipelineCursor,
                pageRows,
                LockMode.READ_COMMITTED);
        for (ReplicaUnderConstructionRow r : page) {
          if (r.storageId() == s.id()) {
            held.add(new FileBlock(r.inodeId(), r.blockId()));
          }
        }
        read = page.size();
        boolean done = page.size() < pageRows;
        pipelineCursor =
            done ? null : ReplicaUnderConstructionRow.TABLE.keyOf(page.get(page.size() - 1));
        if (done) {
          storagesLeft.poll();
          replicasDone = false;
        }
      }
    }
    boolean noting = ChangedStorages.noting(blockManager);
    // Both pages come in (inode, block) order, the order RemoveStorageReplicas locks in.
    for (int i = 0; i < held.size(); i += BATCH) {
      List<FileBlock> batch = held.subList(i, Math.min(held.size(), i + BATCH));
      removed +=
          leader.run(() -> new RemoveStorageReplicas(blockManager.clock(), s.id(), batch, noting));
    }
    return read;
  }
}
