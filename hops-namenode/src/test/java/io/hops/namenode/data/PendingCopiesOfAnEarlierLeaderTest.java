package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.everyBlockOn;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.rows;
import static io.hops.namenode.data.BlockFiles.waitFor;
import static io.hops.namenode.data.BlockFiles.withBlockFile;
import static io.hops.namenode.data.BlockFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Transaction;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A copy that an earlier leader scheduled (its pending row) but whose command died with that leader
 * does not hold a block under-replicated for the whole pending timeout: once the new leader's term
 * is a few heartbeats old, copies scheduled before the term began time out and are scheduled again.
 * Here the timeout is 10 minutes and the copy is made within seconds.
 */
class PendingCopiesOfAnEarlierLeaderTest {
  private static final int BLOCK = 1024 * 1024;

  private static long beforeStart;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    beforeStart = System.currentTimeMillis();
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.setInt("dfs.namenode.reconstruction.pending.timeout-sec", 600);
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

  @Test
  void aCopyScheduledBeforeTheLeaderTookOverIsScheduledAgainWithoutWaitingOutTheTimeout()
      throws Exception {
    String path = "/pending/of-an-earlier-leader";
    write(fs, path, bytes(4096, 5), (short) 2, BLOCK);
    waitFor("two replicas", 20, () -> everyBlockOn(fs, path, 2));
    long id = located(fs, path).get(0).getBlock().getBlockId();
    long inode = fs.getClient().getFileInfo(path).getFileId();
    // Scheduled by a leader before this namenode's term, a second before it started: well within
    // the 10-minute timeout, so it counts as a copy on its way.
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      tx.insert(PendingBlockRow.TABLE, new PendingBlockRow(inode, id, beforeStart - 1000, 1, ""));
      tx.commit();
    }

    assertThat(fs.setReplication(new Path(path), (short) 3)).isTrue();

    waitFor("three replicas", 30, () -> everyBlockOn(fs, path, 3));
    assertThat(withBlockFile(cluster, id)).hasSize(3);
    waitFor(
        "the old pending row gone",
        20,
        () ->
            rows(cluster, PendingBlockRow.TABLE).stream()
                .noneMatch(r -> r.blockId() == id && r.timestamp() < beforeStart));
  }
}
