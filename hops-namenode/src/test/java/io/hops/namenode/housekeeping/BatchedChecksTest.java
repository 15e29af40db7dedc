package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The replication and decommission checks take the blocks of many files in one transaction, one
 * read per table for all of them: with a transaction per file, a datanode of 100,000 one-block
 * files cost 100,000 transactions to re-replicate or to decommission (docs/benchmarks.md,
 * "Decommission and re-replication").
 */
// Serial: counts what one leader's rounds do (see DecommissionRecheckTest).
@Tag("serial")
class BatchedChecksTest {
  private static final int FILES = 100;

  /** At most {@link ReplicationMonitor#MAX_FILES_PER_CHECK} one-block files a transaction. */
  private static final int CHECKS = 2;

  @Test
  void aRoundChecksTheBlocksOfManyFilesInEachTransaction() throws Exception {
    Configuration conf = conf();
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      cluster.startDatanodes(3);
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      try (DistributedFileSystem fs = cluster.client()) {
        write(fs, (short) 2);
        awaitLeader(cluster.namenode().namesystem().blocks());
        for (int i = 0; i < FILES; i++) {
          fs.setReplication(file(i), (short) 3);
        }
        Thread.sleep(1_500); // a queued block waits a heartbeat interval before its check
        CountedTransactions counted = CountedTransactions.of(cluster, "replicationCheck");
        housekeeping.runOnce();
        // Before: a ReplicationCheck per file, 100 transactions and 400 pruned scans.
        assertThat(counted.checks().get()).as("replication checks of the round").isEqualTo(CHECKS);
        assertThat(counted.scans().get()).as("pruned scans of the round").isEqualTo(4L * CHECKS);
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (int i = 0; i < FILES; i++) {
          while (fs.getFileBlockLocations(file(i), 0, 1024)[0].getHosts().length < 3) {
            assertThat(System.nanoTime())
                .as("/f%d at 3 replicas within 60 s", i)
                .isLessThan(deadline);
            housekeeping.runOnce();
            Thread.sleep(200);
          }
        }
      }
    }
  }

  @Test
  void aDecommissionWalkChecksTheBlocksOfManyFilesInEachTransaction() throws Exception {
    Path exclude = Files.createTempFile("batched-checks-", "");
    Configuration conf = conf();
    conf.set(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, "0");
    conf.set(DFSConfigKeys.DFS_HOSTS_EXCLUDE, exclude.toString());
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      cluster.startDatanodes(3);
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      try (DistributedFileSystem fs = cluster.client()) {
        write(fs, (short) 3);
        awaitLeader(cluster.namenode().namesystem().blocks());
        DataNode leaving = cluster.datanodes().get(0);
        Files.writeString(exclude, leaving.getDatanodeId().getXferAddr() + "\n");
        fs.refreshNodes();
        CountedTransactions counted = CountedTransactions.of(cluster, "decommissionCheck");
        housekeeping.runOnce(); // the whole walk: every block of the datanode, each short
        // Before: a DecommissionCheck per file, 100 transactions and 400 pruned scans.
        assertThat(counted.checks().get()).as("decommission checks of the walk").isEqualTo(CHECKS);
        assertThat(counted.scans().get()).as("pruned scans of the walk").isEqualTo(3L * CHECKS);
      }
    }
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 1024);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION, 100);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, 100);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, 100);
    return conf;
  }

  private static void write(DistributedFileSystem fs, short replication) throws Exception {
    for (int i = 0; i < FILES; i++) {
      try (FSDataOutputStream out = fs.create(file(i), true, 4096, replication, 1024)) {
        out.write(new byte[1024]);
      }
    }
    for (int i = 0; i < FILES; i++) {
      HopsTestCluster.awaitReplicas(fs, file(i), replication);
    }
  }

  private static void awaitLeader(BlockManager bm) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!bm.isLeader()) {
      assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static org.apache.hadoop.fs.Path file(int i) {
    return new org.apache.hadoop.fs.Path("/f" + i);
  }
}
