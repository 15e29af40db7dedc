package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.housekeeping.ReplicationCheck.FileBlocks;
import io.hops.namenode.ops.QueueMisplacedBlocks;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's admin monitor (HDFS DatanodeAdminDefaultMonitor): every {@code
 * dfs.namenode.decommission.interval} it reads the admin states from the database, ends the
 * maintenance of each datanode whose maintenance expired ({@link
 * io.hops.namenode.blocks.DatanodeAdmin#endMaintenance}), and walks the replicas of each
 * decommissioning or entering-maintenance datanode (at most {@code
 * dfs.namenode.decommission.max.concurrent.tracked.nodes} of them, 0: all), by index pages on
 * {@code replicas.storage_id}, checking each file's blocks there ({@link DecommissionCheck}), which
 * queues for re-replication the blocks without enough replicas elsewhere; at most {@code
 * dfs.namenode.decommission.blocks.per.interval} replicas per round. After a whole walk that found
 * blocks short, only those are looked at again ({@link #recheck}) until all are sufficient, and
 * then a whole walk confirms it (HDFS's pruned list and final full scan). A datanode whose whole
 * walk found every block sufficient is DECOMMISSIONED ({@link
 * io.hops.namenode.blocks.DatanodeAdmin#markDecommissioned}), or IN_MAINTENANCE if it is live
 * ({@link io.hops.namenode.blocks.DatanodeAdmin#markInMaintenance}; HDFS's {@code
 * isNodeHealthyForDecommissionOrMaintenance}, without its exception for a dead one when the cluster
 * has no block to replicate).
 *
 * <p>The state is in the database: where a walk is is this leader's memory only (a hint), and a new
 * leader starts each decommissioning datanode's walk again.
 */
final class DatanodeAdminMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeAdminMonitor.class);

  /** A block of a file. */
  private record FileBlock(long inodeId, long blockId) {}

  /**
   * The blocks a recheck looks at in one batched read: small enough that the page which ends a
   * round ({@link #recheck}) costs little.
   */
  static final int RECHECK_PAGE_ROWS = 1000;

  /** Where one datanode's walk is, and what it found so far. */
  private static final class Walk {
    final Deque<StorageRef> storagesLeft;

    /** Whether it judges for maintenance rather than decommission. */
    final boolean maintenance;

    Key cursor;
    int insufficient;
    int outOfServiceOnly;
    int inOpenFiles;
    int checked;

    /** The blocks this walk found not yet sufficient, by file. */
    final List<FileBlock> found = new ArrayList<>();

    /**
     * Between two whole walks: the blocks the last one found short, still to see sufficient before
     * the next whole walk (null while walking).
     */
    Deque<FileBlock> waiting;

    Walk(List<StorageRef> storages, boolean maintenance) {
      this.storagesLeft = new ArrayDeque<>(storages);
      this.maintenance = maintenance;
    }
  }

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final DatanodeManager dm;
  private final long intervalMillis;
  private final int blocksPerInterval;
  private final int maxTracked;
  private final int pageRows;
  private final int defaultReplication;
  private final Map<String, Walk> walks = new HashMap<>();

  /** The admin state this leader last saw of each datanode (its memory only). */
  private final Map<String, AdminStates> seen = new HashMap<>();

  /** Datanodes back in service whose blocks are being queued for the excess check. */
  private final Map<String, Walk> returning = new LinkedHashMap<>();

  private long lastRun = Long.MIN_VALUE;

  DatanodeAdminMonitor(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.dm = blockManager.datanodes();
    this.intervalMillis =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_DEFAULT,
            TimeUnit.SECONDS,
            TimeUnit.MILLISECONDS);
    this.blocksPerInterval =
        Math.max(
            1,
            conf.getInt(
                DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_BLOCKS_PER_INTERVAL_KEY,
                DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_BLOCKS_PER_INTERVAL_DEFAULT));
    this.maxTracked =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_MAX_CONCURRENT_TRACKED_NODES,
            DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_MAX_CONCURRENT_TRACKED_NODES_DEFAULT);
    this.pageRows = QueueCursor.pageRows(conf);
    this.defaultReplication =
        conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
  }

  @Override
  public String name() {
    return "datanode-admin";
  }

  @Override
  public void runOnce() throws IOException {
    long now = Time.monotonicNow();
    if (lastRun != Long.MIN_VALUE && now - lastRun < intervalMillis) {
      return;
    }
    lastRun = now;
    dm.admin().refresh(true);
    for (DatanodeState n : dm.all()) {
      if (n.isMaintenance()
          && !DatanodeInfo.maintenanceNotExpired(dm.admin().maintenanceExpiry(n.id()))
          && dm.admin().endMaintenance(n.uuid())) {
        LOG.info(
            "datanode {} ({}): maintenance expired, back in service",
            n.id().getXferAddr(),
            n.uuid());
      }
    }
    for (DatanodeState n : dm.all()) {
      AdminStates before = seen.put(n.uuid(), n.adminState());
      if (isLeaving(before) && !isLeaving(n.adminState())) {
        record(n.uuid(), null);
      }
      if (before != null
          && before != AdminStates.NORMAL
          && n.adminState() == AdminStates.NORMAL
          && dm.isLive(n)) {
        returning.put(n.uuid(), newWalk(n.uuid(), false));
      }
    }
    queueReturned();
    List<DatanodeState> tracked =
        dm.all().stream()
            .filter(
                n ->
                    n.adminState() == AdminStates.DECOMMISSION_INPROGRESS
                        || n.adminState() == AdminStates.ENTERING_MAINTENANCE)
            .sorted(Comparator.comparing(DatanodeState::uuid))
            .limit(maxTracked > 0 ? maxTracked : Long.MAX_VALUE)
            .toList();
    Set<String> uuids = tracked.stream().map(DatanodeState::uuid).collect(Collectors.toSet());
    walks.keySet().retainAll(uuids);
    int budget = blocksPerInterval;
    for (DatanodeState n : tracked) {
      if (budget <= 0) {
        break;
      }
      boolean maintenance = n.adminState() == AdminStates.ENTERING_MAINTENANCE;
      Walk w = walks.get(n.uuid());
      if (w == null || w.maintenance != maintenance) {
        w = newWalk(n.uuid(), maintenance); // a datanode that changed course starts again
        walks.put(n.uuid(), w);
      }
      if (w.waiting != null) {
        budget -= recheck(w, budget);
        if (!w.waiting.isEmpty()) {
          continue;
        }
        w = newWalk(n.uuid(), maintenance); // all seen sufficient: a whole walk confirms it
        walks.put(n.uuid(), w);
      }
      while (budget > 0 && !w.storagesLeft.isEmpty()) {
        budget -= Math.max(1, checkPage(w, Math.min(budget, pageRows)));
      }
      if (w.storagesLeft.isEmpty()) {
        walks.remove(n.uuid());
        if (w.insufficient > 0) {
          // HDFS DatanodeAdminDefaultMonitor: until the next whole walk, only the blocks found
          // short are looked at again, so that a walk of every replica is not repeated each round
          // while their copies are made.
          Walk next = newWalk(n.uuid(), maintenance);
          next.waiting = new ArrayDeque<>(w.found);
          walks.put(n.uuid(), next);
        }
        record(
            n.uuid(),
            new RecordLeavingStatus.Walked(w.insufficient, w.outOfServiceOnly, w.inOpenFiles));
        if (w.insufficient == 0 && maintenance) {
          if (!dm.isLive(n)) {
            LOG.info(
                "datanode {} ({}) is entering maintenance but dead: it stays so until it is back",
                n.id().getXferAddr(),
                n.uuid());
          } else if (dm.admin().markInMaintenance(n.uuid())) {
            LOG.info(
                "datanode {} ({}) is in maintenance: its {} replicas have enough live copies"
                    + " elsewhere",
                n.id().getXferAddr(),
                n.uuid(),
                w.checked);
          }
        } else if (w.insufficient == 0) {
          if (dm.admin().markDecommissioned(n.uuid())) {
            LOG.info(
                "datanode {} ({}) is decommissioned: its {} replicas have enough copies elsewhere",
                n.id().getXferAddr(),
                n.uuid(),
                w.checked);
          }
        } else {
          LOG.info(
              "datanode {} ({}) is {}: {} of its {} blocks are not yet replicated elsewhere",
              n.id().getXferAddr(),
              n.uuid(),
              n.adminState(),
              w.insufficient,
              w.checked);
        }
      }
    }
  }

  /** Stores a leaving datanode's counts for every namenode's /jmx; null forgets them. */
  private void record(String uuid, RecordLeavingStatus.Walked found) throws IOException {
    long now = Time.now();
    leader.run(() -> new RecordLeavingStatus(uuid, found, now));
  }

  /**
   * HDFS processExtraRedundancyBlocksOnInService: the blocks of a datanode back in service from
   * decommission or maintenance may now have a replica too many; each is queued for the replication
   * check, which deletes the surplus. At most a page of replicas per round.
   */
  private void queueReturned() throws IOException {
    int budget = pageRows;
    while (budget > 0 && !returning.isEmpty()) {
      Map.Entry<String, Walk> e = returning.entrySet().iterator().next();
      Walk w = e.getValue();
      if (w.storagesLeft.isEmpty()) {
        returning.remove(e.getKey());
        LOG.info("datanode {} back in service: its {} blocks queued", e.getKey(), w.checked);
        continue;
      }
      List<ReplicaRow> page = nextPage(w, pageRows);
      Map<Long, Set<Long>> byFile = new LinkedHashMap<>();
      for (ReplicaRow r : page) {
        byFile.computeIfAbsent(r.inodeId(), k -> new java.util.HashSet<>()).add(r.blockId());
      }
      for (Map.Entry<Long, Set<Long>> f : byFile.entrySet()) {
        w.checked +=
            leader.run(() -> new QueueMisplacedBlocks(blockManager, f.getKey(), f.getValue()));
      }
      budget -= Math.max(1, page.size());
    }
  }

  private static boolean isLeaving(AdminStates s) {
    return s == AdminStates.DECOMMISSION_INPROGRESS || s == AdminStates.ENTERING_MAINTENANCE;
  }

  private Walk newWalk(String uuid, boolean maintenance) {
    try {
      return new Walk(dm.storagesOf(uuid), maintenance);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The next page of the walk's storage (an index page); moves the walk past it. */
  private List<ReplicaRow> nextPage(Walk w, int rows) throws IOException {
    StorageRef s = w.storagesLeft.peek();
    List<ReplicaRow> page;
    try (Transaction tx = storage.begin()) {
      page =
          tx.findByIndexFrom(
              ReplicaRow.TABLE, "storage_id", s.id(), w.cursor, rows, LockMode.READ_COMMITTED);
    }
    if (page.size() < rows) {
      w.storagesLeft.poll();
      w.cursor = null;
    } else {
      w.cursor = ReplicaRow.TABLE.keyOf(page.get(page.size() - 1));
    }
    return page;
  }

  /** Checks the next page of the walk's storage; returns the replicas read. */
  private int checkPage(Walk w, int rows) throws IOException {
    List<ReplicaRow> page = nextPage(w, rows);
    Map<Long, List<Long>> byFile = new TreeMap<>();
    for (ReplicaRow r : page) {
      byFile.computeIfAbsent(r.inodeId(), k -> new ArrayList<>()).add(r.blockId());
    }
    for (DecommissionCheck.Found found : check(w, byFile)) {
      w.insufficient += found.counts().underReplicated();
      w.outOfServiceOnly += found.counts().outOfServiceOnly();
      w.inOpenFiles += found.counts().underReplicatedInOpenFiles();
      for (FileBlocks f : found.insufficient()) {
        f.blockIds().forEach(b -> w.found.add(new FileBlock(f.inodeId(), b)));
      }
    }
    w.checked += page.size();
    return page.size();
  }

  /**
   * {@link DecommissionCheck}s of the files' blocks, several files a transaction ({@link
   * ReplicationMonitor#batches}), files by id ascending.
   */
  private List<DecommissionCheck.Found> check(Walk w, Map<Long, List<Long>> byFile)
      throws IOException {
    List<DecommissionCheck.Found> found = new ArrayList<>();
    for (List<FileBlocks> batch : ReplicationMonitor.batches(new TreeMap<>(byFile))) {
      found.add(
          leader.run(
              () -> new DecommissionCheck(blockManager, batch, defaultReplication, w.maintenance)));
    }
    return found;
  }

  /**
   * Looks again, once each, at up to {@code budget} of the blocks the walk's last whole walk found
   * short: one batched read of their queue and pending rows (a page at a time); a block still
   * queued for re-replication or with a copy in flight is still short, and the others are checked
   * again ({@link DecommissionCheck}, which queues them if they still need it). The blocks still
   * short go back to the end of the list. A page of which no block was done ends the round: the
   * copies are made about in the order the walk queued the blocks, so the pages behind it are
   * mostly not done either, and reading them every round cost the leader's round a third of its
   * time while a datanode of 21,000 blocks decommissioned (docs/benchmarks.md, "Decommission and
   * re-replication"). The page goes to the end, so the next round starts further on and a block
   * that cannot be helped holds up no other. Returns the blocks looked at.
   */
  private int recheck(Walk w, int budget) throws IOException {
    int n = Math.min(budget, w.waiting.size());
    int rows = Math.min(pageRows, RECHECK_PAGE_ROWS);
    int done = 0;
    while (done < n) {
      List<FileBlock> page = new ArrayList<>();
      while (page.size() < Math.min(rows, n - done)) {
        page.add(w.waiting.poll());
      }
      done += page.size();
      int behind = w.waiting.size();
      List<Key> keys =
          page.stream()
              .map(b -> UnderReplicatedBlockRow.TABLE.key(b.inodeId(), b.blockId()))
              .toList();
      List<UnderReplicatedBlockRow> queued;
      List<PendingBlockRow> inFlight;
      try (Transaction tx = storage.begin()) {
        queued = tx.findBatch(UnderReplicatedBlockRow.TABLE, keys, LockMode.READ_COMMITTED);
        inFlight =
            tx.findBatch(
                PendingBlockRow.TABLE,
                page.stream()
                    .map(b -> PendingBlockRow.TABLE.key(b.inodeId(), b.blockId()))
                    .toList(),
                LockMode.READ_COMMITTED);
      }
      Map<Long, List<Long>> again = new LinkedHashMap<>();
      for (int i = 0; i < page.size(); i++) {
        FileBlock b = page.get(i);
        if (queued.get(i) != null || inFlight.get(i) != null) {
          w.waiting.add(b);
        } else {
          again.computeIfAbsent(b.inodeId(), k -> new ArrayList<>()).add(b.blockId());
        }
      }
      for (DecommissionCheck.Found found : check(w, again)) {
        for (FileBlocks f : found.insufficient()) {
          f.blockIds().forEach(b -> w.waiting.add(new FileBlock(f.inodeId(), b)));
        }
      }
      if (w.waiting.size() - behind == page.size()) {
        break; // none of the page done
      }
    }
    return Math.max(1, done);
  }
}
