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
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
 * judges each marked block once from what is true now and counts the rows of {@code
 * invalidated_blocks}; when the last table ends, it writes the totals in one leader transaction. A
 * round reads at most a page of rows, so a backlog of any size costs a round a page and a pass as
 * many rounds as it has pages; the totals are those of the last finished pass (at most a round old
 * while the tables are small), cluster-wide and the same on every namenode, as HDFS's own counts
 * lag its redundancy monitor.
 *
 * <p>A page's blocks are judged together ({@link BlockHealth#ofAll}): one read per table (corrupt
 * replicas, blocks, files, replicas) for up to {@link #JUDGED_PER_BATCH} blocks, not four per
 * block, so a backlog of a dead datanode's blocks costs the leader's round a few accesses.
 */
public final class BlockHealthCensus implements HousekeepingTask {
  private static final List<String> NAMES = BlockHealthCounts.VARIABLES;

  /** The most blocks judged by one batched read per table: bounds a statement's {@code IN} list. */
  static final int JUDGED_PER_BATCH = 1_000;

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
        count(tx, page);
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

  /** Counts a page's rows, judging the blocks not judged yet this pass in batches. */
  private void count(Transaction tx, List<? extends Record> page) throws IOException {
    List<List<Long>> blocks = new ArrayList<>();
    for (Record r : page) {
      List<Long> block = marked(r);
      if (block != null && pass.judged.add(block)) {
        blocks.add(block);
      }
    }
    for (int from = 0; from < blocks.size(); from += JUDGED_PER_BATCH) {
      judge(tx, blocks.subList(from, Math.min(blocks.size(), from + JUDGED_PER_BATCH)));
    }
  }

  /** The block a row marks, {@code [inodeId, blockId]}; null for a row that only counts. */
  private List<Long> marked(Record r) {
    if (r instanceof UnderReplicatedBlockRow u) {
      return List.of(u.inodeId(), u.blockId());
    } else if (r instanceof PendingBlockRow p) {
      pass.pendingReplication++;
      return List.of(p.inodeId(), p.blockId());
    } else if (r instanceof CorruptReplicaRow c) {
      return List.of(c.inodeId(), c.blockId());
    }
    pass.pendingDeletion++;
    return null;
  }

  /** Judges {@code blocks} with one read per table ({@link BlockHealth#ofAll}) and counts them. */
  private void judge(Transaction tx, List<List<Long>> blocks) throws IOException {
    Set<Long> files = new LinkedHashSet<>();
    for (List<Long> b : blocks) {
      files.add(b.get(0));
    }
    Map<List<Long>, Set<Integer>> corrupt = new HashMap<>();
    for (CorruptReplicaRow c :
        tx.findByPartitions(CorruptReplicaRow.TABLE, List.copyOf(files), LockMode.READ_COMMITTED)) {
      corrupt
          .computeIfAbsent(List.of(c.inodeId(), c.blockId()), k -> new HashSet<>())
          .add(c.storageId());
    }
    List<BlockHealth> health =
        BlockHealth.ofAll(tx, blockManager.datanodes(), blocks, corrupt, pass.replication);
    for (int i = 0; i < blocks.size(); i++) {
      BlockHealth h = health.get(i);
      if (h == BlockHealth.NOT_COUNTED) {
        continue;
      }
      if (corrupt.containsKey(blocks.get(i))) {
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
