package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.everyBlockOn;
import static io.hops.namenode.data.BlockFiles.holders;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.read;
import static io.hops.namenode.data.BlockFiles.waitFor;
import static io.hops.namenode.data.BlockFiles.withBlockFile;
import static io.hops.namenode.data.BlockFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * A datanode that stops (DataNode.shutdown, no goodbye) is declared dead once its heartbeats are
 * overdue (2 × recheck interval + 10 × heartbeat interval, as HDFS); its replicas are forgotten and
 * each block it held is copied to the datanode that had none, by the periodic housekeeping.
 */
class DeadDatanodeTest {
  private static final int BLOCK = 1024 * 1024;

  @Test
  void theBlocksOfADeadDatanodeAreCopiedToAnotherWithinTheExpiryInterval() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(BlockFiles.fastDeadDatanodes())) {
      cluster.startDatanodes(4);
      DatanodeManager dm = cluster.namenode().namesystem().blocks().datanodes();
      String path = "/dead/f";
      byte[] data = bytes(2 * BLOCK + 100, 9);
      try (DistributedFileSystem fs = cluster.client()) {
        write(fs, path, data, (short) 3, BLOCK);
        waitFor("three replicas of each block", 20, () -> everyBlockOn(fs, path, 3));
        List<LocatedBlock> before = located(fs, path);
        String victim = holders(before.get(0)).iterator().next();
        DataNode dn = BlockFiles.datanode(cluster, victim);

        long stopped = System.nanoTime();
        dn.shutdown();
        waitFor(
            "every block on three datanodes other than the dead one",
            (int) (dm.expiryMillis() / 1000) + 30,
            () ->
                located(fs, path).stream()
                    .allMatch(b -> holders(b).size() == 3 && !holders(b).contains(victim)));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);

        assertThat(dm.isLive(dm.node(victim))).isFalse();
        // Declared dead once the expiry interval has passed since its last heartbeat (up to one
        // heartbeat before it stopped), copied within a few housekeeping rounds.
        assertThat(tookMillis).isBetween(dm.expiryMillis() - 1_500, dm.expiryMillis() + 15_000);
        for (LocatedBlock b : located(fs, path)) {
          long id = b.getBlock().getBlockId();
          assertThat(withBlockFile(cluster, id)).containsAll(holders(b));
        }
        assertThat(read(fs, path, data.length)).isEqualTo(data);
      }
    }
  }

  /**
   * The namenode's wall clock runs 30 s ahead of the database's (the cluster clock): the blocks of
   * a dead datanode are queued for copies at the cluster clock's time, so the copies start within
   * the same few rounds; at the namenode's own time, each queued block would look 30 s young and
   * wait out that time first.
   */
  @Test
  void theBlocksOfADeadDatanodeAreCopiedOnTimeWhenTheNamenodesClockIsOff() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(BlockFiles.fastDeadDatanodes())) {
      cluster.namenode().namesystem().blocks().clock().skewForTesting(Duration.ofSeconds(-30));
      cluster.startDatanodes(4);
      DatanodeManager dm = cluster.namenode().namesystem().blocks().datanodes();
      String path = "/dead/skewed";
      byte[] data = bytes(BLOCK + 100, 7);
      try (DistributedFileSystem fs = cluster.client()) {
        write(fs, path, data, (short) 3, BLOCK);
        waitFor("three replicas of each block", 20, () -> everyBlockOn(fs, path, 3));
        String victim = holders(located(fs, path).get(0)).iterator().next();
        long stopped = System.nanoTime();
        BlockFiles.datanode(cluster, victim).shutdown();
        waitFor(
            "every block on three datanodes other than the dead one",
            (int) (dm.expiryMillis() / 1000) + 60,
            () ->
                located(fs, path).stream()
                    .allMatch(b -> holders(b).size() == 3 && !holders(b).contains(victim)));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
        assertThat(tookMillis).isLessThan(dm.expiryMillis() + 15_000);
      }
    }
  }
}
