package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.blocks.BlockHealth;
import io.hops.namenode.blocks.BlockHealthCounts;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Block health for {@code getStats} ({@code hdfs dfs -df}, {@code dfsadmin -report}, the metrics
 * and the web status page), counted by the leader so that a call costs one batched read of the
 * {@code variables} table instead of scans of four tables and reads for every block in trouble.
 *
 * <p>A pass walks the tables that mark blocks needing attention, {@code under_replicated_blocks},
 * {@code pending_blocks} and {@code corrupt_replicas}, in primary-key pages ({@link QueueCursor}),
 * judges each marked block once from what is true now ({@link BlockHealth#of}) and counts the rows
 * of {@code invalidated_blocks}; when the last table ends, it writes the totals in one leader
 * transaction. A round reads at most a page of rows, so a backlog of any size costs a round a page
 * and a pass as many rounds as it has pages; the totals are those of the last finished pass (at
 * most a round old while the tables are small), cluster-wide and the same on every namenode, as
 * HDFS's own counts lag its redundancy monitor.
 */
public final class BlockHealthCensus implements HousekeepingTask {
  private static final List<String> NAMES = BlockHealthCounts.VARIABLES;

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final int pageRows;
  private final List<QueueCursor<? extends Record>> tables;
  private int table;
  private Pass pass = new Pass();

  /** What a pass has seen so far. */
  private static final class Pass {
    final Set<List<Long>> judged = new HashSet<>();
    final Map<Long, Short> replication = new HashMap<>();
    long low;
    long corrupt;
    long missing;
    long missingOne;
    long pendingDeletion;
    long pendingReplication;

    /** In the order of {@link BlockHealthCounts#VARIABLES}. */
    long[] values() {
      return new long[] {low, corrupt, missing, missingOne, pendingDeletion, pendingReplication};
    }
  }

  BlockHealthCensus(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.pageRows = QueueCursor.pageRows(conf);
    this.tables =
        List.of(
            new QueueCursor<>(UnderReplicatedBlockRow.TABLE, pageRows),
            new QueueCursor<>(PendingBlockRow.TABLE, pageRows),
            new QueueCursor<>(CorruptReplicaRow.TABLE, pageRows),
            new QueueCursor<>(InvalidatedBlockRow.TABLE, pageRows));
  }

  @Override
  public String name() {
    return "block health census";
  }

  @Override
  public void runOnce() throws IOException {
    int read = 0;
    long[] finished = null;
    try (Transaction tx = storage.begin()) {
      while (read < pageRows && finished == null) {
        QueueCursor<? extends Record> cursor = tables.get(table);
        List<? extends Record> page = cursor.next(tx);
        read += Math.max(1, page.size());
        for (Record r : page) {
          count(tx, r);
        }
        if (cursor.wrapped()) {
          table++;
          if (table == tables.size()) {
            finished = pass.values();
            table = 0;
            pass = new Pass();
          }
        }
      }
    }
    if (finished != null) {
      long[] values = finished;
      leader.run(() -> new Write(values));
    }
  }

  private void count(Transaction tx, Record r) throws IOException {
    DatanodeManager datanodes = blockManager.datanodes();
    long inodeId;
    long blockId;
    if (r instanceof UnderReplicatedBlockRow u) {
      inodeId = u.inodeId();
      blockId = u.blockId();
    } else if (r instanceof PendingBlockRow p) {
      pass.pendingReplication++;
      inodeId = p.inodeId();
      blockId = p.blockId();
    } else if (r instanceof CorruptReplicaRow c) {
      inodeId = c.inodeId();
      blockId = c.blockId();
    } else {
      pass.pendingDeletion++;
      return;
    }
    if (!pass.judged.add(List.of(inodeId, blockId))) {
      return;
    }
    Set<Integer> corrupt = new HashSet<>();
    for (CorruptReplicaRow c :
        tx.findByPartition(
            CorruptReplicaRow.TABLE, inodeId, "block_id", blockId, LockMode.READ_COMMITTED)) {
      corrupt.add(c.storageId());
    }
    BlockHealth h = BlockHealth.of(tx, datanodes, inodeId, blockId, corrupt, pass.replication);
    if (h == BlockHealth.NOT_COUNTED) {
      return;
    }
    if (!corrupt.isEmpty()) {
      pass.corrupt++;
    }
    switch (h) {
      case LOW_REDUNDANCY -> pass.low++;
      case MISSING -> pass.missing++;
      case MISSING_REPLICATION_ONE -> {
        pass.missing++;
        pass.missingOne++;
      }
      default -> {}
    }
  }

  private static final class Write extends Operation<Void> {
    private final long[] values;
    private List<VariableRow> found = new ArrayList<>();

    Write(long[] values) {
      this.values = values;
    }

    @Override
    public String name() {
      return "blockHealthCensus";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      found = tx.findBatch(VariableRow.TABLE, BlockHealthCounts.keys(), LockMode.EXCLUSIVE);
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      for (int i = 0; i < NAMES.size(); i++) {
        VariableRow row = new VariableRow(NAMES.get(i), values[i], new byte[0]);
        if (found.get(i) != null && found.get(i).longValue() == values[i]) {
          continue; // unchanged: no write
        }
        if (found.get(i) == null) {
          tx.insert(VariableRow.TABLE, row);
        } else {
          tx.update(VariableRow.TABLE, row);
        }
      }
      return null;
    }
  }
}
