package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeManager.Node;
import io.hops.namenode.blocks.StorageRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
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
 * its next heartbeat, and their rows go ({@link TakeInvalidations}). Rows of a datanode that is
 * dead or unknown are dropped: if it comes back, its block report shows what it still has. Rows in
 * {@code ReplicaChange.ORPHAN_PARTITION} are replicas of blocks no file has; they go the same way.
 * The table is read whole each round (FTS): it holds only what has not been sent yet.
 */
final class InvalidationMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(InvalidationMonitor.class);
  private static final int DROP_BATCH = 500;

  private final Namesystem ns;
  private final DatanodeManager dm;
  private final int limit;

  InvalidationMonitor(Namesystem ns) {
    this.ns = ns;
    this.dm = ns.blocks().datanodes();
    long heartbeatSeconds =
        ns.conf()
            .getTimeDuration(
                DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
                DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
                TimeUnit.SECONDS);
    this.limit =
        Math.max(
            20 * (int) heartbeatSeconds,
            ns.conf()
                .getInt(
                    DFSConfigKeys.DFS_BLOCK_INVALIDATE_LIMIT_KEY,
                    DFSConfigKeys.DFS_BLOCK_INVALIDATE_LIMIT_DEFAULT));
  }

  @Override
  public String name() {
    return "invalidation";
  }

  @Override
  public void runOnce() throws IOException {
    Map<String, List<InvalidatedBlockRow>> byNode = new TreeMap<>();
    List<InvalidatedBlockRow> nowhere = new ArrayList<>();
    try (Transaction tx = ns.storage().begin()) {
      for (InvalidatedBlockRow r : tx.scanAll(InvalidatedBlockRow.TABLE, LockMode.READ_COMMITTED)) {
        StorageRef s = dm.storage(r.storageId());
        Node n = s == null ? null : dm.node(s.datanodeUuid());
        if (n == null || !dm.isLive(n)) {
          nowhere.add(r);
        } else {
          byNode.computeIfAbsent(n.uuid(), k -> new ArrayList<>()).add(r);
        }
      }
    }
    int sent = 0;
    for (Map.Entry<String, List<InvalidatedBlockRow>> e : byNode.entrySet()) {
      List<InvalidatedBlockRow> rows = e.getValue();
      rows.sort(Comparator.comparingLong(InvalidatedBlockRow::blockId));
      List<InvalidatedBlockRow> batch = rows.subList(0, Math.min(limit, rows.size()));
      List<InvalidatedBlockRow> taken = ns.run(() -> new TakeInvalidations(batch));
      if (taken.isEmpty()) {
        continue;
      }
      Block[] blocks = new Block[taken.size()];
      for (int i = 0; i < blocks.length; i++) {
        InvalidatedBlockRow r = taken.get(i);
        blocks[i] = new Block(r.blockId(), r.numBytes(), r.generationStamp());
      }
      dm.node(e.getKey())
          .addCommand(
              new BlockCommand(DatanodeProtocol.DNA_INVALIDATE, ns.blocks().blockPoolId(), blocks));
      sent += blocks.length;
    }
    for (int i = 0; i < nowhere.size(); i += DROP_BATCH) {
      List<InvalidatedBlockRow> batch =
          nowhere.subList(i, Math.min(nowhere.size(), i + DROP_BATCH));
      ns.run(() -> new TakeInvalidations(batch));
    }
    if (sent > 0 || !nowhere.isEmpty()) {
      LOG.info(
          "invalidation: {} replicas sent to {} datanodes for deletion; {} dropped (datanode dead"
              + " or unknown)",
          sent,
          byNode.size(),
          nowhere.size());
    }
  }
}
