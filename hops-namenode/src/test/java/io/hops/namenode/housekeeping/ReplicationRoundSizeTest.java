package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A replication round looks at as many queued blocks as HDFS's does ({@code
 * dfs.namenode.replication.work.multiplier.per.iteration} per live datanode) when that is more than
 * {@link ReplicationMonitor#MAX_CHECKS_PER_ROUND}: with the fixed 1,000, re-replicating a datanode
 * of 100,000 blocks took twice HDFS's rounds at a multiplier of 500 (docs/benchmarks.md,
 * "Decommission and re-replication").
 */
// Serial: counts what one leader's round does (see ReplicationCommandsTest).
@Tag("serial")
class ReplicationRoundSizeTest {
  private static final int FILES = 11;
  private static final int BLOCKS_PER_FILE = 100;
  private static final int BLOCKS = FILES * BLOCKS_PER_FILE;

  @Test
  void aRoundChecksAsManyBlocksAsHdfsWhenThatIsMoreThanAThousand() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    // Two live datanodes at 600: HDFS looks at 1,200 blocks a round.
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION, 600);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, 2 * BLOCKS);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, 2 * BLOCKS);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 1024);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      DataNode source = cluster.startDatanodes(1).get(0);
      BlockManager bm = cluster.namenode().namesystem().blocks();
      try (DistributedFileSystem fs = cluster.client()) {
        for (int i = 0; i < FILES; i++) {
          try (FSDataOutputStream out = fs.create(file(i), true, 4096, (short) 1, 1024)) {
            out.write(new byte[1024 * BLOCKS_PER_FILE]);
          }
        }
        cluster.startDatanodes(1);
        // The copies stay queued for the source: none arrives to be checked again.
        DataNodeTestUtils.setHeartbeatsDisabledForTests(source, true);
        for (int i = 0; i < FILES; i++) {
          fs.setReplication(file(i), (short) 2);
        }
      }
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!bm.isLeader()) {
        assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
        Thread.sleep(50);
      }
      Thread.sleep(1500); // a queued block waits one heartbeat interval before its check
      cluster.namenode().housekeeping().runOnce();
      try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
        // Before: 1,000 copies, the rest left for the next round.
        assertThat(tx.scanAll(PendingBlockRow.TABLE, LockMode.READ_COMMITTED))
            .as("blocks given a copy in one round")
            .hasSize(BLOCKS);
      }
    }
  }

  private static Path file(int i) {
    return new Path("/f" + i);
  }
}
