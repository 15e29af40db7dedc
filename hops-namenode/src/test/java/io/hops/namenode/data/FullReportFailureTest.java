package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.rpc.DatanodeRpc;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.server.datanode.FinalizedReplica;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.junit.jupiter.api.Test;

/**
 * A full report whose transaction fails fails as a serial apply would: no further transaction of it
 * starts, however many run at once, and the datanode gets the failure (it sends the report again).
 */
class FullReportFailureTest {
  private static final long FIRST_BLOCK = 1L << 40;
  private static final int TRANSACTIONS = 12;

  @Test
  void noTransactionStartsAfterOneFailedOnOneThread() throws Exception {
    assertThat(startedBeforeTheReportFailed(1)).isEqualTo(1);
  }

  @Test
  void noTransactionStartsAfterOneFailedOnSeveralThreads() throws Exception {
    assertThat(startedBeforeTheReportFailed(4)).isBetween(1, 4);
  }

  /** How many of a report's transactions began when each one fails, with {@code threads}. */
  private static int startedBeforeTheReportFailed(int threads) throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.FULL_REPORT_APPLY_THREADS, threads);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      Namesystem ns = cluster.namenode().namesystem();
      int replicas = TRANSACTIONS * (ns.runner().maxRows() / 12);
      BulkReplicas.addBlocks(ns.storage(), 1_000_000L, FIRST_BLOCK, replicas);
      DatanodeRpc rpc = io.hops.namenode.HopsNameNode.datanodeRpc(ns);
      DatanodeRegistration reg = BulkReplicas.registration(ns.blocks().ids().namespaceInfo());
      rpc.registerDatanode(reg);
      BlockListAsLongs.Builder list = BlockListAsLongs.builder();
      for (int i = 0; i < replicas; i++) {
        list.add(new FinalizedReplica(new Block(FIRST_BLOCK + i, 1024, 1001), null, null));
      }
      StorageBlockReport[] report = {
        new StorageBlockReport(new DatanodeStorage("DS-" + reg.getDatanodeUuid()), list.build())
      };
      AtomicInteger started = new AtomicInteger();
      ns.faults()
          .arm(
              Faults.Point.FULL_REPORT_TRANSACTION,
              () -> {
                started.incrementAndGet();
                throw new IOException("injected");
              });
      assertThatThrownBy(
              () ->
                  rpc.blockReport(
                      reg, ns.blocks().blockPoolId(), report, new BlockReportContext(1, 0, 1, 0)))
          .isInstanceOf(IOException.class)
          .hasMessage("injected");
      return started.get();
    }
  }
}
