package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A scheduled copy that arrives queues no check of its block (HDFS addStoredBlock: a block that is
 * not short is not queued): re-checking every arrived copy cost a replication round half its
 * checks, every one satisfied (docs/benchmarks.md, "Decommission and re-replication"). A block
 * whose copies on their way would leave it over-replicated stays queued instead, so its surplus is
 * deleted once they are in.
 */
// Serial: counts what one leader's rounds leave in the queue (see ReplicationCommandsTest).
@Tag("serial")
class ArrivedCopiesTest {
  private static final int FILES = 20;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION, FILES);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, 4 * FILES);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, 4 * FILES);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 1024);
    return conf;
  }

  @Test
  void anArrivedCopyQueuesNoCheckOfItsBlock() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      cluster.startDatanodes(1);
      BlockManager bm = cluster.namenode().namesystem().blocks();
      Storage storage = cluster.namenode().namesystem().storage();
      try (DistributedFileSystem fs = cluster.client()) {
        for (int i = 0; i < FILES; i++) {
          write(fs, file(i), (short) 1);
        }
        cluster.startDatanodes(1);
        for (int i = 0; i < FILES; i++) {
          fs.setReplication(file(i), (short) 2);
        }
        awaitLeader(bm);
        Thread.sleep(1500); // a queued block waits one heartbeat interval before its check
        cluster.namenode().housekeeping().runOnce(); // a copy of every block scheduled
        awaitNoPendingCopies(storage);
        for (int i = 0; i < FILES; i++) {
          assertThat(locations(fs, file(i))).as("replicas of " + file(i)).hasSize(2);
        }
        // Before: every arrived copy queued its block again, for a check that found it satisfied.
        assertThat(rows(storage, UnderReplicatedBlockRow.TABLE))
            .as("checks queued by arrived copies")
            .isEmpty();
      }
    }
  }

  @Test
  void aBlockWhoseCopiesWouldOvershootStaysQueuedUntilTheyArrive() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      List<DataNode> dns = cluster.startDatanodes(3);
      BlockManager bm = cluster.namenode().namesystem().blocks();
      Storage storage = cluster.namenode().namesystem().storage();
      try (DistributedFileSystem fs = cluster.client()) {
        Path f = file(0);
        write(fs, f, (short) 2);
        LocatedBlock lb = fs.getClient().getLocatedBlocks(f.toString(), 0).get(0);
        long inodeId = fs.getClient().getFileInfo(f.toString()).getFileId();
        long blockId = lb.getBlock().getBlockId();
        List<String> holders =
            List.of(lb.getLocations()).stream().map(d -> d.getDatanodeUuid()).toList();
        String other =
            dns.stream()
                .map(DataNode::getDatanodeUuid)
                .filter(u -> !holders.contains(u))
                .findFirst()
                .orElseThrow();
        int target = bm.datanodes().storagesOf(other).get(0).id();
        awaitLeader(bm);
        awaitNoPendingCopies(storage);
        Thread.sleep(1500);
        cluster.namenode().housekeeping().runOnce(); // the checks the write queued
        assertThat(rows(storage, UnderReplicatedBlockRow.TABLE)).as("checked").isEmpty();
        // A copy to the third datanode on its way, scheduled while one of the two replicas was
        // away, and the replica back: both replicas live, the copy will make a third.
        try (Transaction tx = storage.begin()) {
          tx.insert(
              PendingBlockRow.TABLE,
              new PendingBlockRow(inodeId, blockId, bm.now(), 1, Integer.toString(target)));
          tx.insert(
              UnderReplicatedBlockRow.TABLE,
              new UnderReplicatedBlockRow(inodeId, blockId, 0, 0, -1));
          tx.commit();
        }
        cluster.namenode().housekeeping().runOnce();
        // Before: satisfied, counting the copy, and dropped from the queue; and since an arrived
        // copy queues no check, the third replica would never be deleted.
        assertThat(rows(storage, UnderReplicatedBlockRow.TABLE))
            .as("the block stays queued while its copy is on its way")
            .hasSize(1);
        assertThat(rows(storage, PendingBlockRow.TABLE)).as("no copy scheduled").hasSize(1);
      }
    }
  }

  private static void write(DistributedFileSystem fs, Path p, short replication) throws Exception {
    try (FSDataOutputStream out = fs.create(p, true, 4096, replication, 1024)) {
      out.write(new byte[1024]);
    }
  }

  private static List<?> locations(DistributedFileSystem fs, Path p) throws Exception {
    return List.of(fs.getFileBlockLocations(p, 0, 1024)[0].getNames());
  }

  private static void awaitNoPendingCopies(Storage storage) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!rows(storage, PendingBlockRow.TABLE).isEmpty()) {
      assertThat(System.nanoTime()).as("copies arrived within 60 s").isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private static void awaitLeader(BlockManager bm) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!bm.isLeader()) {
      assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static <R extends Record> List<R> rows(Storage storage, io.hops.dal.schema.Table<R> t)
      throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(t, LockMode.READ_COMMITTED);
    }
  }

  private static Path file(int i) {
    return new Path("/f" + i);
  }
}
