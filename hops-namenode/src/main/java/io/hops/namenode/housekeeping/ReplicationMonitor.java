package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.housekeeping.ReplicationCheck.Budget;
import io.hops.namenode.housekeeping.ReplicationCheck.FileBlocks;
import io.hops.namenode.housekeeping.ReplicationCheck.Limits;
import io.hops.namenode.housekeeping.ReplicationCheck.Outcome;
import io.hops.namenode.housekeeping.ReplicationCheck.Transfer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.protocol.BlockCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-replication (HDFS BlockManager.RedundancyMonitor): works through {@code
 * under_replicated_blocks}, the blocks whose replication needs a check. A row is queued by whoever
 * sees a block's replicas change (a replica reported or lost, a dead datanode, a corrupt replica, a
 * closed file, setReplication, a copy that timed out) as level 0 with expected replication -1; a
 * check that cannot help a block now leaves it at HDFS's priority level (0 = one live replica left,
 * 1 = fewer than a third, 2 = fewer than wanted, 4 = none live: corrupt or missing) with the file's
 * replication, behind the others of its level.
 *
 * <p>Each round reads the next page of each level ({@code hops.namenode.housekeeping.page.rows}
 * rows after the level's cursor, one bounded index scan on {@code level} each, so a backlog of any
 * size costs a round five pages) and checks, by level then age within the page, up to {@link
 * #MAX_CHECKS_PER_ROUND} blocks queued or changed since their last check, and a few of those the
 * datanodes could not help last time ({@link #parked}), the blocks of up to {@link
 * #MAX_FILES_PER_CHECK} files a transaction ({@link ReplicationCheck}, {@link #batches}); more if
 * HDFS would look at more ({@code dfs.namenode.replication.work.multiplier.per.iteration} blocks
 * per live datanode: a fixed 1,000 was half of what HDFS looks at with 4 datanodes at 500); at most
 * {@code dfs.namenode.replication.work.multiplier.per.iteration} copies per live datanode are
 * scheduled per round, and a source sends at most {@code dfs.namenode.replication.max-streams} of
 * them (the hard limit for the highest priority). Copies go to the sources as {@code DNA_TRANSFER}
 * commands once the round's checks have committed, one command per source and round. A queued block
 * waits one heartbeat interval before its check, so that the replicas of a block just written,
 * whose reports are in flight, are not copied again.
 */
final class ReplicationMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationMonitor.class);
  static final int MAX_CHECKS_PER_ROUND = 1000;
  static final int MAX_BLOCKS_PER_CHECK = 100;

  /**
   * Files per {@link ReplicationCheck}: each adds a few rows to each of its batched reads, and with
   * one-block files a transaction per file cost more than the check itself.
   */
  static final int MAX_FILES_PER_CHECK = 64;

  private record FileBlock(long inodeId, long blockId) {}

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager bm;
  private final int workMultiplier;
  private final Limits limits;
  private final long graceMillis;

  /**
   * Blocks the datanodes could not help at their last check (no live replica, or nowhere to copy
   * to), with the row as that check wrote it (its timestamp tells a changed row; its level, where a
   * pass forgets it once the row is gone). Soft state of this leader: they are checked again at
   * HDFS's pace (a few per live datanode and round), at once if the row changed or a datanode came
   * or went. A new leader starts without it and checks them all once.
   */
  private final Map<FileBlock, UnderReplicatedBlockRow> parked = new HashMap<>();

  /**
   * Where each level's pass through the queue is: the last key of its last page (null: at the
   * start), and the parked blocks seen in the pass so far. The leader's memory only, a hint.
   */
  private final Key[] cursors = new Key[ReplicationCheck.CORRUPT_OR_MISSING + 1];

  private final List<Set<FileBlock>> parkedSeen = new ArrayList<>();
  private final int pageRows;

  private Set<String> lastLive = Set.of();

  ReplicationMonitor(Storage storage, LeaderRunner leader, BlockManager bm, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.bm = bm;
    this.pageRows = QueueCursor.pageRows(conf);
    for (int level = 0; level < cursors.length; level++) {
      parkedSeen.add(new HashSet<>());
    }
    this.workMultiplier =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION,
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION_DEFAULT);
    long heartbeatMillis =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
            TimeUnit.SECONDS,
            TimeUnit.MILLISECONDS);
    this.graceMillis = heartbeatMillis;
    this.limits =
        new Limits(
            conf.getInt(
                DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY,
                DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_DEFAULT),
            conf.getInt(
                DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY,
                DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_DEFAULT),
            heartbeatMillis
                * conf.getInt(
                    DFSConfigKeys.DFS_NAMENODE_TOLERATE_HEARTBEAT_MULTIPLIER_KEY,
                    DFSConfigKeys.DFS_NAMENODE_TOLERATE_HEARTBEAT_MULTIPLIER_DEFAULT));
  }

  @Override
  public boolean runsInSafeMode() {
    return false;
  }

  @Override
  public String name() {
    return "replication";
  }

  @Override
  public void runOnce() throws IOException {
    int live = bm.datanodes().live().size();
    if (live == 0) {
      return; // nothing to copy from or to; and no way to tell a lost block from a slow start
    }
    Map<Long, List<Long>> byFile = due(live * workMultiplier);
    if (byFile.isEmpty()) {
      return;
    }
    Budget round = new Budget(live * workMultiplier);
    for (DatanodeState n : bm.datanodes().live()) {
      int inFlight = n.copiesInFlight();
      if (inFlight > 0) {
        round.perSource.put(n.uuid(), inFlight); // a source's streams are shared across rounds
      }
    }
    Outcome total = new Outcome();
    // The round's copies, by the epoch they were decided under, sent once the round ends (or
    // fails): one command per source, as HDFS hands a datanode all its transfers in one.
    Map<Long, List<Transfer>> decided = new LinkedHashMap<>();
    try {
      for (List<FileBlocks> batch : batches(byFile)) {
        long epoch = bm.leadingEpoch(); // before the fenced check: see leadingEpoch
        Outcome o = leader.run(() -> new ReplicationCheck(bm, batch, round.copy(), limits));
        round.take(o);
        decided.computeIfAbsent(epoch, e -> new ArrayList<>()).addAll(o.transfers);
        for (UnderReplicatedBlockRow r : o.parked) {
          FileBlock k = new FileBlock(r.inodeId(), r.blockId());
          parked.put(k, r);
          if (r.level() >= 0 && r.level() < parkedSeen.size()) {
            parkedSeen.get(r.level()).add(k); // seen in this pass: the row exists
          }
        }
        total.transfers.addAll(o.transfers);
        total.satisfied += o.satisfied;
        total.waiting += o.waiting;
        total.excessDeleted += o.excessDeleted;
        total.corruptDeleted += o.corruptDeleted;
        total.dropped += o.dropped;
      }
    } finally {
      decided.forEach((epoch, transfers) -> send(transfers, epoch));
    }
    if (!total.transfers.isEmpty() || total.excessDeleted > 0 || total.corruptDeleted > 0) {
      LOG.info(
          "replication: {} copies scheduled, {} excess and {} corrupt replicas to delete, {}"
              + " blocks satisfied, {} waiting, {} dropped from the queue",
          total.transfers.size(),
          total.excessDeleted,
          total.corruptDeleted,
          total.satisfied,
          total.waiting,
          total.dropped);
    }
  }

  /**
   * The due blocks cut into checks, in the queue's order: the blocks of up to {@link
   * #MAX_FILES_PER_CHECK} files, at most {@link #MAX_BLOCKS_PER_CHECK} blocks in all, per
   * transaction; a file of more blocks is checked a part at a time, each part on its own.
   */
  static List<List<FileBlocks>> batches(Map<Long, List<Long>> byFile) {
    List<List<FileBlocks>> out = new ArrayList<>();
    List<FileBlocks> batch = new ArrayList<>();
    int rows = 0;
    for (Map.Entry<Long, List<Long>> f : byFile.entrySet()) {
      List<Long> ids = f.getValue().stream().sorted().toList();
      for (int i = 0; i < ids.size(); i += MAX_BLOCKS_PER_CHECK) {
        List<Long> part = ids.subList(i, Math.min(ids.size(), i + MAX_BLOCKS_PER_CHECK));
        if (batch.size() == MAX_FILES_PER_CHECK || rows + part.size() > MAX_BLOCKS_PER_CHECK) {
          out.add(batch);
          batch = new ArrayList<>();
          rows = 0;
        }
        batch.add(new FileBlocks(f.getKey(), part));
        rows += part.size();
      }
    }
    if (!batch.isEmpty()) {
      out.add(batch);
    }
    return out;
  }

  /**
   * The queued blocks due for a check this round, by file, in priority then age order: every block
   * queued or changed since its last check, up to as many as HDFS looks at in a round ({@code
   * recheck}: live datanodes × work multiplier) and at least {@link #MAX_CHECKS_PER_ROUND}, then as
   * many parked blocks as HDFS would look at in a round.
   */
  private Map<Long, List<Long>> due(int recheck) throws IOException {
    Set<String> liveNow = new HashSet<>();
    bm.datanodes().live().forEach(n -> liveNow.add(n.uuid()));
    if (!liveNow.equals(lastLive)) {
      parked.clear(); // a datanode came or went: every block may be helped now
      lastLive = liveNow;
    }
    long before = bm.now() - graceMillis;
    List<UnderReplicatedBlockRow> fresh = new ArrayList<>();
    List<UnderReplicatedBlockRow> stale = new ArrayList<>();
    try (Transaction tx = storage.begin()) {
      for (int level = 0; level <= ReplicationCheck.CORRUPT_OR_MISSING; level++) {
        List<UnderReplicatedBlockRow> atLevel = nextPage(tx, level);
        atLevel.sort(Comparator.comparingLong(UnderReplicatedBlockRow::timestamp));
        for (UnderReplicatedBlockRow r : atLevel) {
          FileBlock k = new FileBlock(r.inodeId(), r.blockId());
          UnderReplicatedBlockRow parkedAt = parked.get(k);
          if (parkedAt != null && parkedAt.timestamp() == r.timestamp()) {
            stale.add(r);
          } else {
            parked.remove(k);
            if (r.timestamp() <= before) {
              fresh.add(r);
            }
          }
        }
      }
    }
    Map<Long, List<Long>> byFile = new LinkedHashMap<>();
    List<UnderReplicatedBlockRow> chosen = new ArrayList<>();
    int checks = Math.max(MAX_CHECKS_PER_ROUND, recheck);
    chosen.addAll(fresh.subList(0, Math.min(fresh.size(), checks)));
    chosen.addAll(stale.subList(0, Math.min(stale.size(), recheck)));
    for (UnderReplicatedBlockRow r : chosen) {
      byFile.computeIfAbsent(r.inodeId(), k -> new ArrayList<>()).add(r.blockId());
    }
    return byFile;
  }

  /**
   * The next page of a level's rows after its cursor, in primary-key order (one bounded index
   * scan); a short page ends the level's pass, and the next round starts it over. Parked blocks of
   * the level not seen in a whole pass are gone from the queue: forgotten then.
   */
  private List<UnderReplicatedBlockRow> nextPage(Transaction tx, int level) throws IOException {
    List<UnderReplicatedBlockRow> page =
        new ArrayList<>(
            tx.findByIndexFrom(
                UnderReplicatedBlockRow.TABLE,
                "level",
                level,
                cursors[level],
                pageRows,
                LockMode.READ_COMMITTED));
    Set<FileBlock> seen = parkedSeen.get(level);
    for (UnderReplicatedBlockRow r : page) {
      FileBlock k = new FileBlock(r.inodeId(), r.blockId());
      if (parked.containsKey(k)) {
        seen.add(k);
      }
    }
    if (page.size() < pageRows) {
      cursors[level] = null;
      parked.entrySet().removeIf(e -> e.getValue().level() == level && !seen.contains(e.getKey()));
      seen.clear();
    } else {
      cursors[level] = UnderReplicatedBlockRow.TABLE.keyOf(page.get(page.size() - 1));
    }
    return page;
  }

  /**
   * One {@code DNA_TRANSFER} command per source datanode, decided under {@code epoch}. A heartbeat
   * answer carries a bounded number of commands, not of blocks: a command per checked file (a file
   * of one block each) would hand a source at most that many copies a heartbeat, whatever {@code
   * dfs.namenode.replication.max-streams} allows.
   */
  private void send(List<Transfer> transfers, long epoch) {
    Map<DatanodeState, List<Transfer>> bySource = new LinkedHashMap<>();
    for (Transfer t : transfers) {
      bySource.computeIfAbsent(t.source(), k -> new ArrayList<>()).add(t);
    }
    for (Map.Entry<DatanodeState, List<Transfer>> e : bySource.entrySet()) {
      List<Transfer> ts = e.getValue();
      Block[] blocks = new Block[ts.size()];
      DatanodeInfo[][] targets = new DatanodeInfo[ts.size()][];
      StorageType[][] types = new StorageType[ts.size()][];
      String[][] storageIds = new String[ts.size()][];
      for (int i = 0; i < ts.size(); i++) {
        Transfer t = ts.get(i);
        blocks[i] =
            new Block(t.block().blockId(), t.block().numBytes(), t.block().generationStamp());
        int n = t.targets().size();
        targets[i] = new DatanodeInfo[n];
        types[i] = new StorageType[n];
        storageIds[i] = new String[n];
        for (int j = 0; j < n; j++) {
          StorageStat s = t.targets().get(j);
          targets[i][j] = bm.datanodes().node(s.ref.datanodeUuid()).info();
          types[i][j] = s.ref.type();
          storageIds[i][j] = s.ref.storageUuid();
        }
        LOG.debug(
            "ask {} to replicate blk_{} to {}",
            e.getKey().id().getXferAddr(),
            t.block().blockId(),
            List.of(targets[i]));
      }
      e.getKey()
          .addCommand(
              epoch,
              new BlockCommand(
                  DatanodeProtocol.DNA_TRANSFER,
                  bm.blockPoolId(),
                  blocks,
                  targets,
                  types,
                  storageIds));
    }
  }
}
