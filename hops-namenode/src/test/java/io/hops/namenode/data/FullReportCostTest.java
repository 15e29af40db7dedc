package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.ReplicaChange;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A stock DataNode's first full block report, every replica new to the store, costs two round trips
 * per transaction of {@code max-rows / 4} replicas, not a few per replica: on a storage that
 * recorded no replica (EmptyStorageReplicas) a transaction reads its replicas' lookup rows and
 * block rows, one batch each, and nothing else: the storage's replica, check and pending rows are
 * not read. The replicas of blocks no file has are handed back and invalidated after, in a
 * transaction of ReplicaChanges (lookups and invalidations, one batch each).
 */
class FullReportCostTest {
  private static final long FIRST_BLOCK = 1L << 40;
  private static final int KNOWN = 3000;
  private static final int UNKNOWN = 100;
  private static final String OP = "blockReportBatch";

  /** One observed transaction: its operation, the thread it ran on and its accesses. */
  private record Seen(String op, String thread, AccessCounts counts) {}

  @Test
  void aFirstReportReadsItsReplicasRowsInBatchesPerTransaction() throws Exception {
    List<Seen> report = firstReport(new Configuration(false), KNOWN);
    int perTransaction = NamenodeConfig.TRANSACTION_MAX_ROWS_DEFAULT / 4;
    // The unknown replicas come last (the highest block ids): one more transaction invalidates
    // them.
    assertThat(report).hasSize((KNOWN + UNKNOWN + perTransaction - 1) / perTransaction + 1);
    for (Seen s : report) {
      AccessCounts c = s.counts();
      assertThat(c.total() - c.get(AccessKind.WRITE_BATCH))
          .as("round trips of a transaction of %d replicas: %s", perTransaction, c)
          .isLessThanOrEqualTo(2); // lookups and blocks (or invalidations): 3 before, 6 before that
      assertThat(c.get(AccessKind.WRITE_BATCH)).isEqualTo(1);
    }
  }

  /**
   * {@code hops.namenode.full-report.apply-threads}: with 1, the report's handler applies every
   * transaction itself, one after the other; with more, helper threads take some of them.
   */
  @Test
  void aReportsTransactionsRunOnAsManyThreadsAsConfigured() throws Exception {
    Configuration serial = new Configuration(false);
    serial.setInt(NamenodeConfig.FULL_REPORT_APPLY_THREADS, 1);
    assertThat(threadsOf(firstReport(serial, KNOWN)))
        .singleElement()
        .asString()
        .startsWith("IPC Server handler");
    Configuration parallel = new Configuration(false);
    parallel.setInt(NamenodeConfig.FULL_REPORT_APPLY_THREADS, 4);
    parallel.setInt(NamenodeConfig.TRANSACTION_MAX_ROWS, 4000); // 7 transactions of 1,000
    assertThat(threadsOf(firstReport(parallel, 2 * KNOWN)))
        .anyMatch(t -> t.startsWith("IPC Server handler"))
        .anyMatch(t -> t.equals("full-report-apply"));
  }

  private static Set<String> threadsOf(List<Seen> report) {
    return report.stream().map(Seen::thread).collect(Collectors.toSet());
  }

  /**
   * A stock DataNode's first full report of {@code known} replicas of one file's blocks and {@code
   * UNKNOWN} of no file's, once applied: its transactions.
   */
  private static List<Seen> firstReport(Configuration extra, int known) throws Exception {
    Configuration conf = new Configuration(extra);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // the queues stay as written
    try (HopsTestCluster cluster = new HopsTestCluster(conf).withDatanodesInMemory()) {
      cluster.startDatanodes(1);
      Storage store = cluster.namenode().namesystem().storage();
      String pool = cluster.namenode().namesystem().blocks().blockPoolId();
      long inode;
      try (DistributedFileSystem fs = cluster.client()) {
        Path p = new Path("/big");
        fs.create(p, (short) 1).close();
        inode = fs.getClient().getFileInfo(p.toString()).getFileId();
      }
      BulkReplicas.addBlocks(store, inode, FIRST_BLOCK, known);
      String uuid = cluster.datanodes().get(0).getDatanodeUuid();
      DatanodeManager datanodes = cluster.namenode().namesystem().blocks().datanodes();
      eventually(30, "the empty datanode's report", () -> datanodes.node(uuid) != null);
      List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
      cluster
          .namenode()
          .namesystem()
          .runner()
          .observe((op, c) -> seen.add(new Seen(op, Thread.currentThread().getName(), c)));
      cluster.restartDatanode(
          0,
          volumes ->
              BulkReplicas.writeFinalized(volumes.get(0), pool, FIRST_BLOCK, known + UNKNOWN));
      eventually(
          120,
          "the replicas recorded and the unknown ones invalidated",
          () -> recorded(store, datanodes.node(uuid)) == known && orphans(store) == UNKNOWN);
      try (Transaction tx = store.begin()) {
        assertThat(
                tx.findByPartition(UnderReplicatedBlockRow.TABLE, inode, LockMode.READ_COMMITTED))
            .as("each block checked for over-replication")
            .hasSize(known);
      }
      synchronized (seen) {
        return seen.stream().filter(s -> s.op().equals(OP)).toList();
      }
    }
  }

  private static int recorded(Storage store, DatanodeState node) throws Exception {
    if (node == null || node.storages().isEmpty()) {
      return -1;
    }
    return BulkReplicas.recordedOn(store, node.storages().iterator().next().ref.id());
  }

  private static int orphans(Storage store) throws Exception {
    try (Transaction tx = store.begin()) {
      return tx.findByPartition(
              InvalidatedBlockRow.TABLE, ReplicaChange.ORPHAN_PARTITION, LockMode.READ_COMMITTED)
          .size();
    }
  }
}
