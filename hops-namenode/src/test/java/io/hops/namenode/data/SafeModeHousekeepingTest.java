package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.everyBlockOn;
import static io.hops.namenode.data.BlockFiles.holders;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.waitFor;
import static io.hops.namenode.data.BlockFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeManager;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * Issue 58, item 4: safe mode means what it means in HDFS. An operator who enters safe mode during
 * a datanode loss stops the copies: while it is on, the dead datanode's blocks are not copied
 * elsewhere (nor anything deleted); once it is left, they are.
 */
class SafeModeHousekeepingTest {
  private static final int BLOCK = 64 * 1024;

  @Test
  void noReplicaIsCopiedWhileSafeModeIsOnAndTheCopiesFollowOnceItIsLeft() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(BlockFiles.fastDeadDatanodes())) {
      cluster.startDatanodes(4);
      DatanodeManager dm = cluster.namenode().namesystem().blocks().datanodes();
      String path = "/safe/f";
      try (DistributedFileSystem fs = cluster.client()) {
        write(fs, path, bytes(2 * BLOCK + 100, 5), (short) 3, BLOCK);
        waitFor("three replicas of each block", 20, () -> everyBlockOn(fs, path, 3));
        LocatedBlock first = located(fs, path).get(0);
        String victim = holders(first).iterator().next();
        DataNode dn = BlockFiles.datanode(cluster, victim);

        assertThat(fs.setSafeMode(SafeModeAction.SAFEMODE_ENTER)).isTrue();
        dn.shutdown();
        waitFor(
            "the datanode declared dead",
            (int) (dm.expiryMillis() / 1000) + 30,
            () -> !dm.isLive(dm.node(victim)));
        // Several housekeeping rounds with the datanode dead and safe mode on: no copy.
        Thread.sleep(3000);
        assertThat(located(fs, path).stream().mapToInt(b -> holders(b).size()).min().orElse(0))
            .as("replicas of the dead datanode's blocks while in safe mode")
            .isEqualTo(2);

        assertThat(fs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE)).isFalse();
        waitFor(
            "every block back on three datanodes once safe mode is left",
            30,
            () ->
                located(fs, path).stream()
                    .allMatch(b -> holders(b).size() == 3 && !holders(b).contains(victim)));
      }
    }
  }
}
