package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import io.hops.election.ClusterClock;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Counts the namespace's inodes and blocks for {@code FilesTotal} and {@code BlocksTotal} (HDFS
 * keeps both in memory; hops has no per-operation counter, which would make every create and delete
 * in the cluster update one row). The leader counts each table read committed, decoding no row,
 * every {@value NamenodeConfig#CENSUS_INTERVAL_MS} and writes the totals to the {@code variables}
 * table, where every namenode's metrics read them with one batched read: the values are
 * cluster-wide and agree on every namenode, and at most one interval old.
 */
public final class NamespaceCensus implements HousekeepingTask {
  public static final String FILES = "census.files";
  public static final String BLOCKS = "census.blocks";
  public static final String TAKEN_AT = "census.time";

  private final Storage storage;
  private final LeaderRunner leader;
  private final ClusterClock clock;
  private final long intervalMillis;
  private long last = Long.MIN_VALUE;

  NamespaceCensus(Storage storage, LeaderRunner leader, ClusterClock clock, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.clock = clock;
    this.intervalMillis =
        conf.getLong(NamenodeConfig.CENSUS_INTERVAL_MS, NamenodeConfig.CENSUS_INTERVAL_MS_DEFAULT);
  }

  @Override
  public String name() {
    return "namespace census";
  }

  @Override
  public void runOnce() throws IOException {
    long now = System.nanoTime() / 1_000_000;
    if (last != Long.MIN_VALUE && now - last < intervalMillis) {
      return;
    }
    last = now;
    long files;
    long blocks;
    try (Transaction tx = storage.begin()) {
      files = tx.countAll(InodeRow.TABLE);
      blocks = tx.countAll(BlockInfoRow.TABLE);
    }
    long takenAt = clock.now();
    leader.run(() -> new Write(files, blocks, takenAt));
  }

  /** The totals as the namenodes' metrics read them: {files, blocks, time taken}, or zeros. */
  public static long[] read(Transaction tx) throws IOException {
    List<VariableRow> rows =
        tx.findBatch(
            VariableRow.TABLE,
            List.of(
                VariableRow.TABLE.key(FILES),
                VariableRow.TABLE.key(BLOCKS),
                VariableRow.TABLE.key(TAKEN_AT)),
            LockMode.READ_COMMITTED);
    long[] out = new long[3];
    for (int i = 0; i < 3; i++) {
      out[i] = rows.get(i) == null ? 0 : rows.get(i).longValue();
    }
    return out;
  }

  private static final class Write extends Operation<Void> {
    private final long[] values;
    private List<VariableRow> found;

    Write(long files, long blocks, long takenAt) {
      this.values = new long[] {files, blocks, takenAt};
    }

    @Override
    public String name() {
      return "namespaceCensus";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      found =
          tx.findBatch(
              VariableRow.TABLE,
              List.of(
                  VariableRow.TABLE.key(FILES),
                  VariableRow.TABLE.key(BLOCKS),
                  VariableRow.TABLE.key(TAKEN_AT)),
              LockMode.EXCLUSIVE);
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      String[] names = {FILES, BLOCKS, TAKEN_AT};
      for (int i = 0; i < names.length; i++) {
        VariableRow row = new VariableRow(names[i], values[i], new byte[0]);
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
