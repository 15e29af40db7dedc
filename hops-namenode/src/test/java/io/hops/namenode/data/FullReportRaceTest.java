package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.ReplicaChange;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.ops.ReleaseBlocks;
import io.hops.namenode.rpc.DatanodeRpc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
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
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.junit.jupiter.api.Test;

/**
 * A first full report does not read again the replica rows its diff found absent: an incremental
 * report of the same datanode applied between the diff and the report's transaction (the RPC server
 * runs both at once) records a replica and its check row first, and the report's insert-if-absent
 * writes leave them, where plain inserts would fail the report with a duplicate key. The bulk path
 * of a storage that recorded nothing (EmptyStorageReplicas) stays exact when an incremental report
 * or the delete of the file comes between its transactions. Over MariaDB when HOPS_TEST_MYSQL_URL
 * is set.
 */
class FullReportRaceTest {
  private static final long FIRST_BLOCK = 1L << 40;
  private static final long INODE = 1_000_000L;
  private static final int REPLICAS = 2000;
  private static final int SMALL_MAX_ROWS = 2000;

  @Test
  void aReplicaAnIncrementalReportRecordedMeanwhileIsAbsorbed() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // the queues stay as written
    conf.setInt(NamenodeConfig.FULL_REPORT_APPLY_THREADS, 1);
    try (HopsTestCluster cluster = cluster(conf)) {
      Namesystem ns = cluster.namenode().namesystem();
      BulkReplicas.addBlocks(ns.storage(), INODE, FIRST_BLOCK, REPLICAS);
      DatanodeRpc rpc = io.hops.namenode.HopsNameNode.datanodeRpc(ns);
      DatanodeRegistration reg = BulkReplicas.registration(ns.blocks().ids().namespaceInfo());
      rpc.registerDatanode(reg);
      String pool = ns.blocks().blockPoolId();
      DatanodeStorage storage = new DatanodeStorage("DS-" + reg.getDatanodeUuid());
      BlockListAsLongs.Builder list = BlockListAsLongs.builder();
      for (int i = 0; i < REPLICAS; i++) {
        list.add(new FinalizedReplica(block(i), null, null));
      }
      long raced = FIRST_BLOCK + 1;
      AtomicBoolean once = new AtomicBoolean();
      ns.faults()
          .arm(
              Faults.Point.FULL_REPORT_TRANSACTION,
              () -> {
                if (once.compareAndSet(false, true)) {
                  rpc.blockReceivedAndDeleted(
                      reg,
                      pool,
                      new StorageReceivedDeletedBlocks[] {
                        new StorageReceivedDeletedBlocks(
                            storage,
                            new ReceivedDeletedBlockInfo[] {
                              new ReceivedDeletedBlockInfo(
                                  block(1),
                                  ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK,
                                  null)
                            })
                      });
                }
              });

      rpc.blockReport(
          reg,
          pool,
          new StorageBlockReport[] {new StorageBlockReport(storage, list.build())},
          new BlockReportContext(1, 0, 1, 0));

      assertThat(once).isTrue();
      int storageId =
          ns.blocks().datanodes().node(reg.getDatanodeUuid()).storages().iterator().next().ref.id();
      assertThat(BulkReplicas.recordedOn(ns.storage(), storageId)).isEqualTo(REPLICAS);
      try (Transaction tx = ns.storage().begin()) {
        assertThat(
                tx.findByPartition(
                    ReplicaRow.TABLE, INODE, "block_id", raced, LockMode.READ_COMMITTED))
            .singleElement()
            .extracting(ReplicaRow::storageId)
            .isEqualTo(storageId);
        assertThat(
                tx.findByPartition(UnderReplicatedBlockRow.TABLE, INODE, LockMode.READ_COMMITTED))
            .as("each block queued once for its over-replication check")
            .hasSize(REPLICAS);
      }
    }
  }

  /**
   * An incremental report between two of the bulk path's transactions, of a block an earlier one
   * recorded and of one a later one records: one replica row each, every block checked once.
   */
  @Test
  void anIncrementalReportBetweenBatchesLeavesOneRowPerReplica() throws Exception {
    try (HopsTestCluster cluster = cluster(smallTransactions())) {
      Namesystem ns = cluster.namenode().namesystem();
      BulkReplicas.addBlocks(ns.storage(), INODE, FIRST_BLOCK, REPLICAS);
      Reporter dn = Reporter.register(ns);
      AtomicInteger transactions = atSecondTransaction(ns, () -> dn.received(1, REPLICAS - 1));

      dn.report();

      assertThat(transactions).hasValue(REPLICAS / (SMALL_MAX_ROWS / 4));
      assertThat(BulkReplicas.recordedOn(ns.storage(), dn.storageId(ns))).isEqualTo(REPLICAS);
      try (Transaction tx = ns.storage().begin()) {
        for (int i : new int[] {1, REPLICAS - 1}) {
          assertThat(
                  tx.findByPartition(
                      ReplicaRow.TABLE,
                      INODE,
                      "block_id",
                      FIRST_BLOCK + i,
                      LockMode.READ_COMMITTED))
              .singleElement()
              .extracting(ReplicaRow::storageId)
              .isEqualTo(dn.storageId(ns));
        }
        assertThat(
                tx.findByPartition(UnderReplicatedBlockRow.TABLE, INODE, LockMode.READ_COMMITTED))
            .hasSize(REPLICAS);
      }
    }
  }

  /**
   * The file is deleted and its blocks released between two of the bulk path's transactions: the
   * later ones find no block row and hand their replicas to ReplicaChanges, which invalidates them;
   * no replica row is left behind, and every reported replica is to be deleted from the datanode,
   * those recorded before the delete by the release, the others by the report.
   */
  @Test
  void aDeleteOfTheFileBetweenBatchesLeavesNoReplicaRow() throws Exception {
    try (HopsTestCluster cluster = cluster(smallTransactions())) {
      Namesystem ns = cluster.namenode().namesystem();
      long inode;
      Path file = new Path("/reported");
      try (DistributedFileSystem fs = cluster.client()) {
        fs.create(file, (short) 1).close();
        inode = fs.getClient().getFileInfo(file.toString()).getFileId();
      }
      BulkReplicas.addBlocks(ns.storage(), inode, FIRST_BLOCK, REPLICAS);
      Reporter dn = Reporter.register(ns);
      AtomicInteger transactions =
          atSecondTransaction(
              ns,
              () -> {
                try (DistributedFileSystem fs = cluster.client()) {
                  assertThat(fs.delete(file, false)).isTrue();
                }
                while (!ns.runAsLeader(() -> new ReleaseBlocks(inode))) {
                  // the release's next batch
                }
              });

      dn.report();

      assertThat(transactions.get()).isGreaterThan(2);
      int storageId = dn.storageId(ns);
      assertThat(BulkReplicas.recordedOn(ns.storage(), storageId)).isZero();
      try (Transaction tx = ns.storage().begin()) {
        assertThat(tx.findByPartition(ReplicaRow.TABLE, inode, LockMode.READ_COMMITTED)).isEmpty();
        assertThat(tx.findByPartition(BlockInfoRow.TABLE, inode, LockMode.READ_COMMITTED))
            .isEmpty();
        List<InvalidatedBlockRow> invalidated = new ArrayList<>();
        invalidated.addAll(
            tx.findByPartition(InvalidatedBlockRow.TABLE, inode, LockMode.READ_COMMITTED));
        invalidated.addAll(
            tx.findByPartition(
                InvalidatedBlockRow.TABLE,
                ReplicaChange.ORPHAN_PARTITION,
                LockMode.READ_COMMITTED));
        assertThat(invalidated)
            .allMatch(r -> r.storageId() == storageId)
            .extracting(InvalidatedBlockRow::blockId)
            .doesNotHaveDuplicates()
            .hasSize(REPLICAS);
      }
    }
  }

  /** Over the MariaDB of HOPS_TEST_MYSQL_URL if one is configured, else the embedded store. */
  private static HopsTestCluster cluster(Configuration conf) throws IOException {
    HopsTestCluster mdb = HopsTestCluster.onMariadbOrNull(conf);
    return mdb != null ? mdb : new HopsTestCluster(conf);
  }

  /** Transactions of a few hundred replicas, so that a report of {@link #REPLICAS} takes four. */
  private static Configuration smallTransactions() {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // the queues stay as written
    conf.setInt(NamenodeConfig.FULL_REPORT_APPLY_THREADS, 1);
    conf.setInt(NamenodeConfig.TRANSACTION_MAX_ROWS, SMALL_MAX_ROWS);
    return conf;
  }

  /** Runs {@code fault} before the report's second transaction; counts its transactions. */
  private static AtomicInteger atSecondTransaction(Namesystem ns, Faults.Fault fault) {
    AtomicInteger transactions = new AtomicInteger();
    ns.faults()
        .arm(
            Faults.Point.FULL_REPORT_TRANSACTION,
            () -> {
              if (transactions.incrementAndGet() == 2) {
                fault.hit();
              }
            });
    return transactions;
  }

  /** A registered datanode of one storage, reporting through the namenode's datanode RPC. */
  private record Reporter(
      DatanodeRpc rpc, DatanodeRegistration reg, String pool, DatanodeStorage storage) {
    static Reporter register(Namesystem ns) throws IOException {
      DatanodeRpc rpc = io.hops.namenode.HopsNameNode.datanodeRpc(ns);
      DatanodeRegistration reg = BulkReplicas.registration(ns.blocks().ids().namespaceInfo());
      rpc.registerDatanode(reg);
      return new Reporter(
          rpc, reg, ns.blocks().blockPoolId(), new DatanodeStorage("DS-" + reg.getDatanodeUuid()));
    }

    /** A full report of the {@link #REPLICAS} blocks. */
    void report() throws IOException {
      BlockListAsLongs.Builder list = BlockListAsLongs.builder();
      for (int i = 0; i < REPLICAS; i++) {
        list.add(new FinalizedReplica(block(i), null, null));
      }
      rpc.blockReport(
          reg,
          pool,
          new StorageBlockReport[] {new StorageBlockReport(storage, list.build())},
          new BlockReportContext(1, 0, 1, 0));
    }

    /** An incremental report: blocks {@code is} received. */
    void received(int... is) throws IOException {
      ReceivedDeletedBlockInfo[] infos = new ReceivedDeletedBlockInfo[is.length];
      for (int j = 0; j < is.length; j++) {
        infos[j] =
            new ReceivedDeletedBlockInfo(
                block(is[j]), ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK, null);
      }
      rpc.blockReceivedAndDeleted(
          reg,
          pool,
          new StorageReceivedDeletedBlocks[] {new StorageReceivedDeletedBlocks(storage, infos)});
    }

    int storageId(Namesystem ns) {
      return ns.blocks()
          .datanodes()
          .node(reg.getDatanodeUuid())
          .storages()
          .iterator()
          .next()
          .ref
          .id();
    }
  }

  private static Block block(int i) {
    return new Block(FIRST_BLOCK + i, 1024, BulkReplicas.GENERATION_STAMP);
  }
}
