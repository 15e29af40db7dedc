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
import java.util.Set;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;

/**
 * A datanode declared dead has its replicas forgotten and its blocks copied elsewhere; when it
 * comes back with its disks, its first full report adds every replica to a storage that recorded
 * none (without reading the storage's replica and check rows), and each block, now over-replicated,
 * has one replica deleted (HDFS addStoredBlock then processExtraRedundancyBlock).
 */
class ReturningDatanodeTest {
  private static final int BLOCK = 1024 * 1024;

  @Test
  void aDatanodeBackAfterItsBlocksWereCopiedElsewhereHasTheExcessReplicasDeleted()
      throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(BlockFiles.fastDeadDatanodes())) {
      cluster.startDatanodes(3);
      DatanodeManager dm = cluster.namenode().namesystem().blocks().datanodes();
      String path = "/back/f";
      byte[] data = bytes(2 * BLOCK + 100, 5);
      try (DistributedFileSystem fs = cluster.client()) {
        write(fs, path, data, (short) 2, BLOCK);
        waitFor("two replicas of each block", 20, () -> everyBlockOn(fs, path, 2));
        java.util.List<Long> held = new java.util.ArrayList<>();
        String victim = holders(located(fs, path).get(0)).iterator().next();
        for (LocatedBlock b : located(fs, path)) {
          if (holders(b).contains(victim)) {
            held.add(b.getBlock().getBlockId());
          }
        }
        int index = cluster.datanodes().indexOf(BlockFiles.datanode(cluster, victim));
        cluster.restartDatanode(
            index,
            volumes ->
                waitFor(
                    "every block on two datanodes other than the stopped one",
                    (int) (dm.expiryMillis() / 1000) + 30,
                    () ->
                        located(fs, path).stream()
                            .allMatch(
                                b -> holders(b).size() == 2 && !holders(b).contains(victim))));
        waitFor(
            "each block on two datanodes' disks, the excess replica deleted",
            60,
            () -> {
              for (long id : held) {
                if (withBlockFile(cluster, id).size() != 2) {
                  return false;
                }
              }
              return everyBlockOn(fs, path, 2);
            });
        for (LocatedBlock b : located(fs, path)) {
          Set<String> onDisk = withBlockFile(cluster, b.getBlock().getBlockId());
          assertThat(onDisk).containsExactlyInAnyOrderElementsOf(holders(b));
        }
        assertThat(read(fs, path, data.length)).isEqualTo(data);
      }
    }
  }
}
