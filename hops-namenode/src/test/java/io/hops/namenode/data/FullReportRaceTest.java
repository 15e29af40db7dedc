package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.rpc.DatanodeRpc;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
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
 * writes leave them, where plain inserts would fail the report with a duplicate key.
 */
class FullReportRaceTest {
  private static final long FIRST_BLOCK = 1L << 40;
  private static final long INODE = 1_000_000L;
  private static final int REPLICAS = 2000;

  @Test
  void aReplicaAnIncrementalReportRecordedMeanwhileIsAbsorbed() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // the queues stay as written
    conf.setInt(NamenodeConfig.FULL_REPORT_APPLY_THREADS, 1);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
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

  private static Block block(int i) {
    return new Block(FIRST_BLOCK + i, 1024, BulkReplicas.GENERATION_STAMP);
  }
}
