package io.hops.namenode.housekeeping;

import io.hops.dal.Durability;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.protocol.BlockCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells datanodes which replicas to delete (HDFS BlockManager.computeInvalidateWork and
 * InvalidateBlocks): each round, up to {@code dfs.block.invalidate.limit} replicas per datanode (at
 * least 20 per second of heartbeat interval, as HDFS) become one {@code DNA_INVALIDATE} command for
 * its next heartbeat. A row stays until the datanode reports the deletion ({@code ReplicaChange}),
 * as pending replications do, so a command that a datanode drops or that dies with its leader is
 * sent again: after {@link #RESEND_HEARTBEATS} heartbeat intervals without the report, at most
 * {@link #MAX_SENDS} times (a datanode that no longer has the replica reports nothing); then, and
 * for a datanode that is dead or unknown, the row is dropped: if the replica is still there, the
 * datanode's block report shows it again and it is invalidated anew. Rows in {@code
 * ReplicaChange.ORPHAN_PARTITION} are replicas of blocks no file has; they go the same way. Each
 * round reads one page of the table after a cursor ({@link QueueCursor}), so a backlog of any size
 * costs a round a page; what was sent when lives in the leader's memory only, so a new leader (or
 * this one in a new term, whose earlier commands were dropped undelivered) sends everything once
 * more, which a datanode shrugs off.
 */
final class InvalidationMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(InvalidationMonitor.class);
  private static final int DROP_BATCH = 500;
  static final int RESEND_HEARTBEATS = 10;
  static final int MAX_SENDS = 3;

  /** When a row was last sent, and how often. */
  private record Sent(long atNanos, int times) {}

  private final Map<Key, Sent> sent = new HashMap<>();
  private final QueueCursor<InvalidatedBlockRow> cursor;

  /** The rows seen since the cursor last started over (at most the table's size, in keys). */
  private final Set<Key> sentSincePass = new HashSet<>();

  private final long resendNanos;

  /** The epoch of the term {@link #sent} belongs to. */
  private long sentEpoch = -1;

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final DatanodeManager dm;
  private final int limit;

  InvalidationMonitor(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.dm = blockManager.datanodes();
    long heartbeatSeconds =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
            TimeUnit.SECONDS);
    this.resendNanos = TimeUnit.SECONDS.toNanos(RESEND_HEARTBEATS * heartbeatSeconds);
    this.limit =
        Math.max(
            20 * (int) heartbeatSeconds,
            conf.getInt(
                DFSConfigKeys.DFS_BLOCK_INVALIDATE_LIMIT_KEY,
                DFSConfigKeys.DFS_BLOCK_INVALIDATE_LIMIT_DEFAULT));
    this.cursor = new QueueCursor<>(InvalidatedBlockRow.TABLE, QueueCursor.pageRows(conf));
  }

  @Override
  public boolean runsInSafeMode() {
    return false;
  }

  @Override
  public String name() {
    return "invalidation";
  }

  @Override
  public void runOnce() throws IOException {
    long epoch = blockManager.leadingEpoch();
    if (epoch != sentEpoch) {
      // What an earlier term queued was dropped undelivered (DatanodeManager.commandsFor): this
      // term sends every row at once, as a new leader does.
      sent.clear();
      sentSincePass.clear();
      sentEpoch = epoch;
    }
    Map<String, List<InvalidatedBlockRow>> byNode = new TreeMap<>();
    List<InvalidatedBlockRow> nowhere = new ArrayList<>();
    Set<Key> present = new HashSet<>();
    long now = System.nanoTime();
    List<InvalidatedBlockRow> page;
    try (Transaction tx = storage.begin()) {
      page = cursor.next(tx);
      for (InvalidatedBlockRow r : page) {
        Key key = InvalidatedBlockRow.TABLE.keyOf(r);
        present.add(key);
        Sent before = sent.get(key);
        StorageRef s = dm.storage(r.storageId());
        DatanodeState n = s == null ? null : dm.node(s.datanodeUuid());
        if (n == null || !dm.isLive(n) || (before != null && before.times() >= MAX_SENDS)) {
          nowhere.add(r);
        } else if (before == null || now - before.atNanos() >= resendNanos) {
          byNode.computeIfAbsent(n.uuid(), k -> new ArrayList<>()).add(r);
        }
      }
    }
    // Forget what was sent of rows that are gone: when the cursor wraps, every row was seen.
    sentSincePass.addAll(present);
    if (cursor.wrapped()) {
      sent.keySet().retainAll(sentSincePass);
      sentSincePass.clear();
    }
    if (!byNode.isEmpty()) {
      // A delete's invalidations are visible before its commit is on disk (the embedded engine
      // syncs its log after the commit): a replica is deleted only once its file's delete is.
      Durability.await(storage.durable());
    }
    int sentNow = 0;
    for (Map.Entry<String, List<InvalidatedBlockRow>> e : byNode.entrySet()) {
      List<InvalidatedBlockRow> rows = e.getValue();
      rows.sort(Comparator.comparingLong(InvalidatedBlockRow::blockId));
      List<InvalidatedBlockRow> taken = rows.subList(0, Math.min(limit, rows.size()));
      if (blockManager.leadingEpoch() != epoch) {
        return; // commands from a namenode that lost its lease are never sent
      }
      for (InvalidatedBlockRow r : taken) {
        Key key = InvalidatedBlockRow.TABLE.keyOf(r);
        Sent before = sent.get(key);
        sent.put(key, new Sent(now, before == null ? 1 : before.times() + 1));
      }
      Block[] blocks = new Block[taken.size()];
      for (int i = 0; i < blocks.length; i++) {
        InvalidatedBlockRow r = taken.get(i);
        blocks[i] = new Block(r.blockId(), r.numBytes(), r.generationStamp());
      }
      dm.node(e.getKey())
          .addCommand(
              epoch,
              new BlockCommand(
                  DatanodeProtocol.DNA_INVALIDATE, blockManager.blockPoolId(), blocks));
      sentNow += blocks.length;
    }
    for (int i = 0; i < nowhere.size(); i += DROP_BATCH) {
      List<InvalidatedBlockRow> batch =
          nowhere.subList(i, Math.min(nowhere.size(), i + DROP_BATCH));
      leader.run(() -> new TakeInvalidations(batch));
    }
    if (sentNow > 0 || !nowhere.isEmpty()) {
      LOG.info(
          "invalidation: {} replicas sent to {} datanodes for deletion; {} dropped (datanode dead"
              + " or unknown, or sent {} times without a report)",
          sentNow,
          byNode.size(),
          nowhere.size(),
          MAX_SENDS);
    }
  }
}
