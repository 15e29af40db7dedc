package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.DeferredChecks;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.data.BulkReplicas;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.rpc.DatanodeRpc;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.server.datanode.FinalizedReplica;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.junit.jupiter.api.Test;

/**
 * While a cluster starts, a full report's new replicas of complete blocks, on a storage that
 * recorded none, queue no replication check (HDFS processFirstBlockReport in startup safe mode);
 * once out of safe mode the leader's walk judges every block and queues those that need one (HDFS
 * processMisReplicatedBlocks): an under-replicated block is copied, an over-replicated one (a
 * datanode back after its replicas were copied elsewhere) loses its excess replica. A report's
 * transaction reads the deferral in the database, so one that commits after the walk began queues
 * its checks itself.
 */
class DeferredCheckWalkTest {
  private static final long F = 1L << 40;
  private static final long G = F + 100;

  @Test
  void aStartingClustersFirstReportsDeferTheirChecksToOneWalkThatQueuesWhatNeedsOne()
      throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      Namesystem ns = cluster.namenode().namesystem();
      long f = file(cluster, "/f", (short) 2);
      long g = file(cluster, "/g", (short) 1);
      BulkReplicas.addBlocks(ns.storage(), f, F, 3);
      BulkReplicas.addBlocks(ns.storage(), g, G, 2);
      ns.blocks().whileStarting(() -> true);
      ns.runAsLeader(DeferredChecks::startDeferring);
      DatanodeRpc rpc = io.hops.namenode.HopsNameNode.datanodeRpc(ns);
      DatanodeRegistration a = register(rpc, ns);
      DatanodeRegistration b = register(rpc, ns);

      report(rpc, ns, a, F, F + 1, F + 2, G, G + 1);
      report(rpc, ns, b, F, G);

      assertThat(queued(ns, f)).as("checks deferred").isEmpty();
      assertThat(queued(ns, g)).as("checks deferred").isEmpty();

      ns.blocks().whileStarting(() -> false);
      walk(ns).runOnce();

      assertThat(queued(ns, f)).as("under-replicated: one of two").containsExactly(F + 1, F + 2);
      assertThat(queued(ns, g)).as("over-replicated: two of one").containsExactly(G);
      assertThat(deferral(ns)).as("the walk ended").isNull();

      Thread.sleep(1100); // a queued block waits a heartbeat interval before its check
      replicationMonitor(ns).runOnce();
      try (Transaction tx = ns.storage().begin()) {
        assertThat(tx.findByPartition(ExcessReplicaRow.TABLE, g, LockMode.READ_COMMITTED))
            .as("the excess replica is deleted")
            .singleElement()
            .extracting(ExcessReplicaRow::blockId)
            .isEqualTo(G);
        assertThat(tx.findByPartition(PendingBlockRow.TABLE, f, LockMode.READ_COMMITTED))
            .as("the under-replicated blocks are copied")
            .extracting(PendingBlockRow::blockId)
            .containsExactlyInAnyOrder(F + 1, F + 2);
      }
    }
  }

  @Test
  void aReportTransactionCommittedAfterTheWalkBeganQueuesItsOwnChecks() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      Namesystem ns = cluster.namenode().namesystem();
      ns.runner()
          .boundRows(2 * 4); // two replicas a transaction (EmptyStorageReplicas: 4 rows each)
      long f = file(cluster, "/f", (short) 2);
      BulkReplicas.addBlocks(ns.storage(), f, F, 6);
      ns.blocks().whileStarting(() -> true); // a stale hint: the row decides
      ns.runAsLeader(DeferredChecks::startDeferring);
      DatanodeRpc rpc = io.hops.namenode.HopsNameNode.datanodeRpc(ns);
      DatanodeRegistration a = register(rpc, ns);
      AtomicInteger transactions = new AtomicInteger();
      ns.faults()
          .arm(
              Faults.Point.FULL_REPORT_TRANSACTION,
              () -> {
                if (transactions.incrementAndGet() == 2) {
                  // The leader leaves safe mode and walks between the report's transactions.
                  DeferredCheckWalk walk = walk(ns);
                  walk.runOnce();
                  assertThat(deferral(ns)).isNull();
                }
              });

      report(rpc, ns, a, F, F + 1, F + 2, F + 3, F + 4, F + 5);

      assertThat(transactions).hasValue(3);
      assertThat(queued(ns, f))
          .as("the first transaction's blocks by the walk, the rest by the report")
          .containsExactly(F, F + 1, F + 2, F + 3, F + 4, F + 5);
    }
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run by the test
    conf.setInt(NamenodeConfig.FULL_REPORT_APPLY_THREADS, 1);
    conf.setInt("dfs.heartbeat.interval", 1);
    return conf;
  }

  /** An empty file of {@code replication}: its inode id. */
  private static long file(HopsTestCluster cluster, String path, short replication)
      throws IOException {
    try (DistributedFileSystem fs = cluster.client()) {
      fs.create(new Path(path), true, 4096, replication, 1024 * 1024).close();
      return fs.getClient().getFileInfo(path).getFileId();
    }
  }

  /** The leader's walk over this namenode's store and blocks, as its housekeeping builds it. */
  private static DeferredCheckWalk walk(Namesystem ns) {
    return new DeferredCheckWalk(
        ns.storage(), new LeaderRunner(ns.runner(), ns.blocks()), ns.blocks(), ns.conf());
  }

  private static ReplicationMonitor replicationMonitor(Namesystem ns) {
    return new ReplicationMonitor(
        ns.storage(), new LeaderRunner(ns.runner(), ns.blocks()), ns.blocks(), ns.conf());
  }

  private static DatanodeRegistration register(DatanodeRpc rpc, Namesystem ns) throws IOException {
    DatanodeRegistration reg = BulkReplicas.registration(ns.blocks().ids().namespaceInfo());
    rpc.registerDatanode(reg);
    return reg;
  }

  /** A datanode's first full report of {@code blocks}, on one storage. */
  private static void report(DatanodeRpc rpc, Namesystem ns, DatanodeRegistration reg, long... ids)
      throws IOException {
    BlockListAsLongs.Builder list = BlockListAsLongs.builder();
    for (long id : ids) {
      list.add(new FinalizedReplica(new Block(id, 0, BulkReplicas.GENERATION_STAMP), null, null));
    }
    rpc.blockReport(
        reg,
        ns.blocks().blockPoolId(),
        new StorageBlockReport[] {
          new StorageBlockReport(new DatanodeStorage("DS-" + reg.getDatanodeUuid()), list.build())
        },
        new BlockReportContext(1, 0, 1, 0));
  }

  private static Set<Long> queued(Namesystem ns, long inode) throws IOException {
    try (Transaction tx = ns.storage().begin()) {
      List<UnderReplicatedBlockRow> rows =
          tx.findByPartition(UnderReplicatedBlockRow.TABLE, inode, LockMode.READ_COMMITTED);
      Set<Long> ids = new TreeSet<>();
      rows.forEach(r -> ids.add(r.blockId()));
      return ids;
    }
  }

  private static VariableRow deferral(Namesystem ns) throws IOException {
    try (Transaction tx = ns.storage().begin()) {
      return tx.find(VariableRow.TABLE, DeferredChecks.key(), LockMode.READ_COMMITTED);
    }
  }
}
