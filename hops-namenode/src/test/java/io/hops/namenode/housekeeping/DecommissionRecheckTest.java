package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * After a whole walk of a decommissioning datanode found blocks short, the admin monitor looks only
 * at those again, in one batched read of their queue rows, not at every replica of the datanode
 * each round (HDFS's pruned list): with a walk repeated each round, a datanode of 100,000 replicas
 * cost 100,000 transactions a round while its copies were made. Once the blocks are copied, a whole
 * walk confirms it and the datanode is DECOMMISSIONED.
 */
// Serial: counts what one leader's rounds do; starved of CPU beside a second test JVM, a namenode
// may lose and win its leadership again between two rounds (docs/development.md, "The whole
// suite").
@Tag("serial")
class DecommissionRecheckTest {
  private static final int FILES = 100;
  private static final int PAGE = 5;

  @Test
  void aRoundAfterAWalkChecksOnlyTheShortBlocksAndTheDatanodeEndsDecommissioned() throws Exception {
    Path exclude = Files.createTempFile("decommission-recheck-", "");
    try (HopsTestCluster cluster = new HopsTestCluster(conf(exclude))) {
      cluster.startDatanodes(3);
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      try (DistributedFileSystem fs = cluster.client()) {
        DataNode leaving = decommissionFirst(cluster, fs, exclude);
        // Three datanodes for replication 3: no block can be copied yet.
        housekeeping.runOnce(); // the whole walk: every block short, and queued
        CountedTransactions counted = CountedTransactions.of(cluster, "decommissionCheck");
        housekeeping.runOnce();
        // Before: the walk again, a DecommissionCheck per file; now one batched read of the
        // blocks' queue rows, which say they are still short.
        assertThat(counted.checks().get()).as("decommission checks of the next round").isZero();
        assertThat(state(fs, leaving)).isEqualTo(AdminStates.DECOMMISSION_INPROGRESS);

        cluster.startDatanodes(1);
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (state(fs, leaving) != AdminStates.DECOMMISSIONED) {
          assertThat(System.nanoTime()).as("decommissioned within 120 s").isLessThan(deadline);
          housekeeping.runOnce();
          Thread.sleep(200);
        }
        String gone = leaving.getDatanodeId().getXferAddr();
        for (int i = 0; i < FILES; i++) {
          for (BlockLocation l :
              fs.getFileBlockLocations(new org.apache.hadoop.fs.Path("/f" + i), 0, 1024)) {
            assertThat(java.util.Arrays.stream(l.getNames()).filter(a -> !a.equals(gone)))
                .as("/f%d in service", i)
                .hasSize(3);
          }
        }
      }
    }
  }

  @Test
  void aRecheckEndsAtAPageOfWhichNoBlockWasDone() throws Exception {
    Path exclude = Files.createTempFile("decommission-recheck-", "");
    Configuration conf = conf(exclude);
    conf.setInt(NamenodeConfig.HOUSEKEEPING_PAGE_ROWS, PAGE);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      cluster.startDatanodes(3);
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      try (DistributedFileSystem fs = cluster.client()) {
        DataNode leaving = decommissionFirst(cluster, fs, exclude);
        // Three datanodes for replication 3: no block can be copied.
        housekeeping.runOnce(); // the whole walk: every block short, and queued
        housekeeping.runOnce(); // the replication checks park them
        io.hops.dal.Storage storage = cluster.namenode().namesystem().storage();
        AccessCounts before = storage.accessCounts();
        housekeeping.runOnce();
        long batched = storage.accessCounts().minus(before).get(AccessKind.BATCH);
        // Before: every short block's queue and pending rows, a page at a time (2 batched reads
        // for each of the FILES / PAGE pages: 45 with the other tasks' reads); now one page's.
        assertThat(batched)
            .as("batched reads of a round that finds no block done")
            .isLessThan(FILES / PAGE);
        assertThat(state(fs, leaving)).isEqualTo(AdminStates.DECOMMISSION_INPROGRESS);
      }
    }
  }

  /** Housekeeping rounds when asked, heartbeats each second, {@code exclude} the excluded hosts. */
  private static Configuration conf(Path exclude) {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.set(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, "0");
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 1024);
    conf.set(DFSConfigKeys.DFS_HOSTS_EXCLUDE, exclude.toString());
    return conf;
  }

  /**
   * Writes {@code FILES} one-block files of replication 3, waits for them and for the namenode's
   * leadership, then excludes the first datanode and refreshes the nodes; answers that datanode.
   */
  private static DataNode decommissionFirst(
      HopsTestCluster cluster, DistributedFileSystem fs, Path exclude) throws Exception {
    for (int i = 0; i < FILES; i++) {
      try (FSDataOutputStream out =
          fs.create(new org.apache.hadoop.fs.Path("/f" + i), true, 4096, (short) 3, 1024)) {
        out.write(new byte[1024]);
      }
    }
    for (int i = 0; i < FILES; i++) {
      HopsTestCluster.awaitReplicas(fs, new org.apache.hadoop.fs.Path("/f" + i), 3);
    }
    BlockManager bm = cluster.namenode().namesystem().blocks();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!bm.isLeader()) {
      assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
      Thread.sleep(50);
    }
    DataNode leaving = cluster.datanodes().get(0);
    Files.writeString(exclude, leaving.getDatanodeId().getXferAddr() + "\n");
    fs.refreshNodes();
    return leaving;
  }

  private static AdminStates state(DistributedFileSystem fs, DataNode dn) throws Exception {
    for (var d :
        fs.getDataNodeStats(org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.ALL)) {
      if (d.getDatanodeUuid().equals(dn.getDatanodeUuid())) {
        return d.getAdminState();
      }
    }
    return null;
  }
}
