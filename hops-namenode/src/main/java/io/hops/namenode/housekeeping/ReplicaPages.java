package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * A walk of every block through the {@code replicas} table in primary-key order, so that a block's
 * replicas come together (HDFS processMisReplicatedBlocks walks its blocks map): pages of {@code
 * pageRows} rows read committed; a full page's last block is left to the next page, and a page of
 * one block's replicas reads all of them. Shared by the walks after a second rack ({@link
 * MultiRackRecheck}) and after startup safe mode ({@link DeferredCheckWalk}).
 */
final class ReplicaPages {
  private ReplicaPages() {}

  /** The blocks of one page, each its replicas; {@code ended}: the walk is at its end. */
  record Page(List<List<ReplicaRow>> blocks, boolean ended) {
    /** The last replica judged, where the next page starts. */
    ReplicaRow last() {
      List<ReplicaRow> b = blocks.get(blocks.size() - 1);
      return b.get(b.size() - 1);
    }
  }

  /** The rows of a page: {@code hops.namenode.housekeeping.page.rows}, at least 2. */
  static int pageRows(Configuration conf) {
    return Math.max(2, QueueCursor.pageRows(conf));
  }

  /** Blocks a walk judges in a round: {@code dfs.block.misreplication.processing.limit}. */
  static int blocksPerRound(Configuration conf) {
    return Math.max(
        1,
        conf.getInt(
            DFSConfigKeys.DFS_BLOCK_MISREPLICATION_PROCESSING_LIMIT,
            DFSConfigKeys.DFS_BLOCK_MISREPLICATION_PROCESSING_LIMIT_DEFAULT));
  }

  static Page next(Storage storage, Key after, int pageRows) throws IOException {
    List<ReplicaRow> rows;
    try (Transaction tx = storage.begin()) {
      rows = tx.scanFrom(ReplicaRow.TABLE, null, after, pageRows, LockMode.READ_COMMITTED);
    }
    boolean ended = rows.size() < pageRows;
    List<List<ReplicaRow>> blocks = new ArrayList<>();
    for (ReplicaRow r : rows) {
      List<ReplicaRow> cur = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
      if (cur == null
          || cur.get(0).inodeId() != r.inodeId()
          || cur.get(0).blockId() != r.blockId()) {
        cur = new ArrayList<>();
        blocks.add(cur);
      }
      cur.add(r);
    }
    if (!ended && blocks.size() > 1) {
      blocks.remove(blocks.size() - 1); // may go on in the next page: judged with it
    } else if (!ended && !blocks.isEmpty()) {
      blocks.set(0, allReplicas(storage, blocks.get(0).get(0))); // a page of replicas or more
    }
    return new Page(blocks, ended);
  }

  /** Every replica of {@code r}'s block, in key order (one pruned index scan). */
  private static List<ReplicaRow> allReplicas(Storage storage, ReplicaRow r) throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx
          .findByPartition(
              ReplicaRow.TABLE, r.inodeId(), "block_id", r.blockId(), LockMode.READ_COMMITTED)
          .stream()
          .sorted(Comparator.comparingInt(ReplicaRow::storageId))
          .toList();
    }
  }

  /**
   * The datanodes of a block's live replicas in service (not decommissioning, not in maintenance).
   */
  static List<String> liveInService(DatanodeManager dm, List<ReplicaRow> replicas)
      throws IOException {
    List<String> live = new ArrayList<>();
    for (ReplicaRow r : replicas) {
      StorageRef s = dm.storage(r.storageId());
      DatanodeState n = s == null ? null : dm.node(s.datanodeUuid());
      if (n != null && dm.isLive(n) && !n.isDecommission() && !n.isMaintenance()) {
        live.add(s.datanodeUuid());
      }
    }
    return live;
  }
}
