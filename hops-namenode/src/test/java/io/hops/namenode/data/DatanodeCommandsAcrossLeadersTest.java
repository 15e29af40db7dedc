package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.holders;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.withBlockFile;
import static io.hops.namenode.data.BlockFiles.write;
import static io.hops.namenode.data.DataFiles.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.config.NamenodeConfig;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.junit.jupiter.api.Test;

/**
 * The commands a leader decides for datanodes wait for their heartbeats in its memory, tagged with
 * its leader epoch, and are handed out only under that epoch: a leader that loses its lease before
 * a datanode's heartbeat never sends them, not even once it leads again under a later epoch (the
 * tables they were made from may have changed meanwhile), and the next leader makes them again from
 * the tables ({@code invalidated_blocks}, {@code pending_blocks}).
 */
class DatanodeCommandsAcrossLeadersTest {
  private static final int BLOCK = 1024 * 1024;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    return conf;
  }

  @Test
  void aCopyADeposedLeaderQueuedIsNotSentOnceItLeadsAgain() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf());
        HopsNameNode second = cluster.startAnotherNamenode()) {
      HopsNameNode first = cluster.namenode();
      cluster.startDatanodes(2, new Configuration(false), second);
      eventually(10, "both see each other", () -> sees(first, 2) && sees(second, 2));
      try (DistributedFileSystem fs = cluster.client(second)) {
        String path = "/deposed/copy";
        write(fs, path, bytes(4096, 3), (short) 1, BLOCK);
        HopsTestCluster.awaitReplicas(fs, new Path(path), 1);
        long id = located(fs, path).get(0).getBlock().getBlockId();
        String source = holders(located(fs, path).get(0)).iterator().next();
        DataNode sourceDn = BlockFiles.datanode(cluster, source);
        DataNodeTestUtils.setHeartbeatsDisabledForTests(sourceDn, true);

        // The leader schedules a copy; its command waits for the source's next heartbeat.
        fs.setReplication(new Path(path), (short) 2);
        DatanodeState atFirst = first.namesystem().blocks().datanodes().node(source);
        eventually(10, "the leader queued the copy", () -> atFirst.pendingCommands() > 0);

        // The leader stalls and loses its lease; meanwhile the copy is no longer wanted.
        long deposedEpoch = first.election().epoch();
        first.election().injectRoundDelay(Duration.ofSeconds(6));
        eventually(15, "the second namenode leads", () -> second.namesystem().blocks().isLeader());
        fs.setReplication(new Path(path), (short) 1);

        // The first namenode leads again, under a later epoch, before the source heartbeats.
        first.election().injectRoundDelay(Duration.ZERO);
        second.close();
        eventually(
            30,
            "the first namenode leads again",
            () ->
                first.namesystem().blocks().isLeader() && first.election().epoch() > deposedEpoch);
        DataNodeTestUtils.setHeartbeatsDisabledForTests(sourceDn, false);
        Thread.sleep(5_000); // several heartbeats of the source to the leader

        assertThat(replicated(sourceDn)).as("copies the source made").isZero();
        assertThat(withBlockFile(cluster, id)).containsExactly(source);
      }
    }
  }

  @Test
  void invalidationsAndCopiesALeaderDecidedAreDeliveredByTheNextLeader() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf());
        HopsNameNode second = cluster.startAnotherNamenode()) {
      HopsNameNode first = cluster.namenode();
      List<DataNode> dns = cluster.startDatanodes(3, new Configuration(false), second);
      eventually(10, "both see each other", () -> sees(first, 2) && sees(second, 2));
      try (DistributedFileSystem fs = cluster.client(second)) {
        String doomed = "/handover/doomed";
        String copied = "/handover/copied";
        write(fs, doomed, bytes(4096, 4), (short) 3, BLOCK);
        write(fs, copied, bytes(4096, 5), (short) 2, BLOCK);
        HopsTestCluster.awaitReplicas(fs, new Path(doomed), 3);
        HopsTestCluster.awaitReplicas(fs, new Path(copied), 2);
        long doomedId = located(fs, doomed).get(0).getBlock().getBlockId();
        long copiedId = located(fs, copied).get(0).getBlock().getBlockId();
        for (DataNode dn : dns) {
          DataNodeTestUtils.setHeartbeatsDisabledForTests(dn, true);
        }

        // The leader decides three deletions and a copy, and dies before any heartbeat.
        fs.delete(new Path(doomed), false);
        fs.setReplication(new Path(copied), (short) 3);
        DatanodeManager dm = first.namesystem().blocks().datanodes();
        eventually(
            10,
            "the leader queued the deletions and the copy",
            () -> dm.all().stream().mapToInt(DatanodeState::pendingCommands).sum() >= 4);
        first.crash();
        eventually(15, "the second namenode leads", () -> second.namesystem().blocks().isLeader());
        for (DataNode dn : dns) {
          DataNodeTestUtils.setHeartbeatsDisabledForTests(dn, false);
        }

        eventually(30, "the deleted block gone from every disk", () -> gone(cluster, doomedId));
        eventually(30, "the copy made", () -> withBlockFile(cluster, copiedId).size() == 3);
        HopsTestCluster.awaitReplicas(fs, new Path(copied), 3);
      }
    }
  }

  private static boolean gone(HopsTestCluster cluster, long blockId) throws Exception {
    return withBlockFile(cluster, blockId).isEmpty();
  }

  /** The datanode's {@code BlocksReplicated} counter: the copies it made on command. */
  private static long replicated(DataNode dn) throws Exception {
    ObjectName name = new ObjectName("Hadoop:service=DataNode,name=" + dn.getMetrics().name());
    return ((Number)
            ManagementFactory.getPlatformMBeanServer().getAttribute(name, "BlocksReplicated"))
        .longValue();
  }

  private static boolean sees(HopsNameNode nn, int members) {
    return nn.election().membership().ids().size() == members;
  }
}
