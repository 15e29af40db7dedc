package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.hdfs.server.protocol.BlockCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The copies a replication round decides reach their source in one {@code DNA_TRANSFER} command, as
 * HDFS hands them: a heartbeat answer carries a bounded number of commands, so a command per
 * checked file (files of one block, as most are) held a source to that many copies a heartbeat
 * whatever {@code dfs.namenode.replication.max-streams} allowed, and a datanode of 100,000 blocks
 * took hours to drain.
 */
// Serial: counts what one leader's rounds do; starved of CPU beside a second test JVM, a namenode
// may lose and win its leadership again between two rounds (docs/development.md, "The whole
// suite").
@Tag("serial")
class ReplicationCommandsTest {
  private static final int FILES = 100;

  @Test
  void aRoundHandsASourceAllItsCopiesInOneCommand() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf(FILES))) {
      DataNode source = oneSourceOfManyCopies(cluster, FILES);
      BlockManager bm = cluster.namenode().namesystem().blocks();
      cluster.namenode().housekeeping().runOnce();
      try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
        assertThat(tx.scanAll(PendingBlockRow.TABLE, LockMode.READ_COMMITTED)).hasSize(FILES);
      }
      List<DatanodeCommand> commands =
          bm.datanodes()
              .commandsFor(bm.datanodes().node(source.getDatanodeUuid()), FILES, bm.leadingEpoch());
      assertThat(commands).hasSize(1);
      BlockCommand transfer = (BlockCommand) commands.get(0);
      assertThat(transfer.getAction()).isEqualTo(DatanodeProtocol.DNA_TRANSFER);
      assertThat(transfer.getBlocks()).hasSize(FILES);
    }
  }

  /**
   * A source's max-streams are shared by the rounds: the next round gives it none while the copies
   * of the last one are still queued for it (HDFS: {@code getNumberOfBlocksToBeReplicated}, then
   * {@code xmitsInProgress}). Before, each round handed it max-streams more: at 100,000 replicas a
   * datanode, thousands of copies ran at once in the bench's one JVM, each a thread and sockets.
   */
  @Test
  void aSourceGetsNoMoreThanMaxStreamsAcrossRounds() throws Exception {
    int streams = FILES / 4;
    try (HopsTestCluster cluster = new HopsTestCluster(conf(streams))) {
      DataNode source = oneSourceOfManyCopies(cluster, streams);
      BlockManager bm = cluster.namenode().namesystem().blocks();
      cluster.namenode().housekeeping().runOnce();
      DatanodeState s = bm.datanodes().node(source.getDatanodeUuid());
      assertThat(s.copiesInFlight()).as("copies queued after the first round").isEqualTo(streams);
      // More blocks to copy from the source while the first round's copies still wait for it.
      try (DistributedFileSystem fs = cluster.client()) {
        for (int i = streams; i < FILES; i++) {
          fs.setReplication(new Path("/f" + i), (short) 2);
        }
      }
      Thread.sleep(1500); // a queued block waits one heartbeat interval before its check
      cluster.namenode().housekeeping().runOnce();
      assertThat(s.copiesInFlight()).as("copies queued after the second round").isEqualTo(streams);
    }
  }

  private static Configuration conf(int maxStreams) {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION, FILES);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, maxStreams);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, maxStreams);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 1024);
    return conf;
  }

  /**
   * {@link #FILES} one-block files on one datanode, the source, raised to two replicas with a
   * second datanode to copy to; the source's heartbeats stop, so its commands stay queued where the
   * test reads them. Returns once the namenode leads and the blocks are due for their check.
   */
  private static DataNode oneSourceOfManyCopies(HopsTestCluster cluster, int raised)
      throws Exception {
    DataNode source = cluster.startDatanodes(1).get(0);
    BlockManager bm = cluster.namenode().namesystem().blocks();
    try (DistributedFileSystem fs = cluster.client()) {
      for (int i = 0; i < FILES; i++) {
        try (FSDataOutputStream out = fs.create(new Path("/f" + i), true, 4096, (short) 1, 1024)) {
          out.write(new byte[1024]);
        }
      }
      for (int i = 0; i < FILES; i++) {
        HopsTestCluster.awaitReplicas(fs, new Path("/f" + i), 1);
      }
      cluster.startDatanodes(1);
      DataNodeTestUtils.setHeartbeatsDisabledForTests(source, true);
      for (int i = 0; i < raised; i++) {
        fs.setReplication(new Path("/f" + i), (short) 2);
      }
    }
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!bm.isLeader()) {
      assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
      Thread.sleep(50);
    }
    Thread.sleep(1500); // a queued block waits one heartbeat interval before its check
    return source;
  }
}
