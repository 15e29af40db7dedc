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
import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.ReplicaChange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A stock DataNode's first full block report, every replica new to the store, costs a handful of
 * round trips per transaction of {@code max-rows / 12} replicas, not a few per replica: the rows of
 * a transaction's replicas are read in one batch per table. Replicas of blocks no file has are
 * invalidated on the way, from the same batches.
 */
class FullReportCostTest {
  private static final long FIRST_BLOCK = 1L << 40;
  private static final int KNOWN = 3000;
  private static final int UNKNOWN = 100;
  private static final String OP = "blockReportBatch";

  /** One observed transaction: its operation and its accesses. */
  private record Seen(String op, AccessCounts counts) {}

  @Test
  void aFirstReportReadsItsReplicasRowsInBatchesPerTransaction() throws Exception {
    Configuration conf = new Configuration(false);
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
      BulkReplicas.addBlocks(store, inode, FIRST_BLOCK, KNOWN);
      String uuid = cluster.datanodes().get(0).getDatanodeUuid();
      DatanodeManager datanodes = cluster.namenode().namesystem().blocks().datanodes();
      eventually(30, "the empty datanode's report", () -> datanodes.node(uuid) != null);
      List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
      cluster.namenode().namesystem().runner().observe((op, c) -> seen.add(new Seen(op, c)));
      cluster.restartDatanode(
          0,
          volumes ->
              BulkReplicas.writeFinalized(volumes.get(0), pool, FIRST_BLOCK, KNOWN + UNKNOWN));
      eventually(
          120,
          "the replicas recorded and the unknown ones invalidated",
          () -> recorded(store, datanodes.node(uuid)) == KNOWN && orphans(store) == UNKNOWN);
      try (Transaction tx = store.begin()) {
        assertThat(
                tx.findByPartition(UnderReplicatedBlockRow.TABLE, inode, LockMode.READ_COMMITTED))
            .as("each block checked for over-replication")
            .hasSize(KNOWN);
      }
      List<AccessCounts> report;
      synchronized (seen) {
        report = seen.stream().filter(s -> s.op().equals(OP)).map(Seen::counts).toList();
      }
      int perTransaction = NamenodeConfig.TRANSACTION_MAX_ROWS_DEFAULT / 12;
      assertThat(report).hasSize((KNOWN + UNKNOWN + perTransaction - 1) / perTransaction);
      for (AccessCounts c : report) {
        assertThat(c.total() - c.get(AccessKind.WRITE_BATCH))
            .as("round trips of a transaction of %d replicas: %s", perTransaction, c)
            .isLessThanOrEqualTo(6);
        assertThat(c.get(AccessKind.WRITE_BATCH)).isEqualTo(1);
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
