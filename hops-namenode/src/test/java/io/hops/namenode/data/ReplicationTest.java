package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.everyBlockOn;
import static io.hops.namenode.data.BlockFiles.holders;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.read;
import static io.hops.namenode.data.BlockFiles.rows;
import static io.hops.namenode.data.BlockFiles.waitFor;
import static io.hops.namenode.data.BlockFiles.withBlockFile;
import static io.hops.namenode.data.BlockFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Transaction;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code hdfs dfs -setrep} through the stock FsShell against stock DataNodes: raising the
 * replication copies the blocks to new datanodes (the leader's periodic housekeeping, which {@code
 * -w} waits for), lowering it deletes the excess replicas from the datanodes' disks. A copy that
 * never arrives is scheduled again after the pending timeout; a block that wants more replicas than
 * there are datanodes gets them when a datanode joins.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicationTest {
  private static final int BLOCK = 1024 * 1024;
  private static final int PENDING_TIMEOUT_SECONDS = 3;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.setInt("dfs.namenode.reconstruction.pending.timeout-sec", PENDING_TIMEOUT_SECONDS);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws Exception {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static int shell(String... args) throws Exception {
    return ThreadConsole.capture(() -> ToolRunner.run(cluster.clientConf(), new FsShell(), args))
        .exit();
  }

  @Test
  void setrepFromOneToThreeWithWaitCopiesEveryBlockToEveryDatanode() throws Exception {
    String path = "/rep/up";
    byte[] data = bytes(BLOCK + BLOCK / 2, 1);
    write(fs, path, data, (short) 1, BLOCK);
    waitFor("one replica of each block", 20, () -> everyBlockOn(fs, path, 1));

    // -w polls until every block has 3 locations: only the periodic housekeeping thread makes
    // the copies here.
    assertThat(shell("-setrep", "-w", "3", path)).isZero();

    List<LocatedBlock> blocks = located(fs, path);
    assertThat(blocks).hasSize(2);
    for (LocatedBlock b : blocks) {
      assertThat(holders(b)).hasSize(3);
      assertThat(withBlockFile(cluster, b.getBlock().getBlockId()))
          .as("datanodes with the file of %s", b.getBlock())
          .isEqualTo(holders(b));
      for (String uuid : holders(b)) {
        assertThat(
                BlockFiles.datanode(cluster, uuid)
                    .getFSDataset()
                    .getStoredBlock(b.getBlock().getBlockPoolId(), b.getBlock().getBlockId()))
            .isNotNull();
      }
    }
    assertThat(read(fs, path, data.length)).isEqualTo(data);
    waitFor("no block of the file queued or pending", 20, () -> settled());
  }

  @Test
  void setrepFromThreeToOneDeletesTheExcessReplicasOnTheDatanodes() throws Exception {
    String path = "/rep/down";
    byte[] data = bytes(2 * BLOCK, 2);
    write(fs, path, data, (short) 3, BLOCK);
    waitFor("three replicas of each block", 20, () -> everyBlockOn(fs, path, 3));
    List<LocatedBlock> before = located(fs, path);

    assertThat(shell("-setrep", "1", path)).isZero();
    assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path(path)).getReplication())
        .isEqualTo((short) 1);

    waitFor("one replica of each block", 30, () -> everyBlockOn(fs, path, 1));
    for (LocatedBlock b : before) {
      long id = b.getBlock().getBlockId();
      waitFor(
          "the excess replicas of blk_" + id + " deleted from the datanodes' disks",
          30,
          () -> withBlockFile(cluster, id).size() == 1);
    }
    for (LocatedBlock b : located(fs, path)) {
      assertThat(withBlockFile(cluster, b.getBlock().getBlockId())).isEqualTo(holders(b));
    }
    assertThat(read(fs, path, data.length)).isEqualTo(data);
    waitFor("no excess-replica rows left once the datanodes deleted them", 20, () -> settled());
  }

  @Test
  void aCopyThatNeverArrivesIsScheduledAgainAfterThePendingTimeout() throws Exception {
    String path = "/rep/lost-copy";
    write(fs, path, bytes(4096, 3), (short) 2, BLOCK);
    waitFor("two replicas", 20, () -> everyBlockOn(fs, path, 2));
    long id = located(fs, path).get(0).getBlock().getBlockId();
    long inode = fs.getClient().getFileInfo(path).getFileId();
    // A copy an earlier leader scheduled to a datanode that never got it.
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      tx.insert(
          PendingBlockRow.TABLE, new PendingBlockRow(inode, id, System.currentTimeMillis(), 1, ""));
      tx.commit();
    }
    long start = System.nanoTime();

    assertThat(fs.setReplication(new org.apache.hadoop.fs.Path(path), (short) 3)).isTrue();

    waitFor("three replicas", 30, () -> everyBlockOn(fs, path, 3));
    // Counted as on its way until it timed out; then copied for real.
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(PENDING_TIMEOUT_SECONDS * 1000L - 500);
    assertThat(withBlockFile(cluster, id)).hasSize(3);
  }

  /** Last: it adds a datanode. */
  @Test
  @Order(Integer.MAX_VALUE)
  void aBlockWantingMoreReplicasThanThereAreDatanodesIsCopiedWhenOneJoins() throws Exception {
    String path = "/rep/four";
    write(fs, path, bytes(4096, 4), (short) 4, BLOCK);
    waitFor("three replicas, one per datanode", 20, () -> everyBlockOn(fs, path, 3));
    long id = located(fs, path).get(0).getBlock().getBlockId();
    waitFor(
        "the block queued as under-replicated, nowhere to copy it to",
        20,
        () ->
            rows(cluster, UnderReplicatedBlockRow.TABLE).stream()
                .anyMatch(r -> r.blockId() == id && r.expectedReplicas() == 4 && r.level() == 2));

    cluster.startDatanodes(1);

    waitFor("four replicas", 30, () -> everyBlockOn(fs, path, 4));
    assertThat(withBlockFile(cluster, id)).hasSize(4);
  }

  /** Nothing is queued, pending or being deleted any more. */
  private static boolean settled() throws java.io.IOException {
    return rows(cluster, UnderReplicatedBlockRow.TABLE).isEmpty()
        && rows(cluster, PendingBlockRow.TABLE).isEmpty()
        && rows(cluster, ExcessReplicaRow.TABLE).isEmpty();
  }
}
