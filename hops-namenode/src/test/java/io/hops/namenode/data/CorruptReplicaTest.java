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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replica whose block file is damaged on disk: reported bad by the reading client
 * (ClientProtocol) or by its datanode (DatanodeProtocol), it is copied from a good replica to a new
 * datanode, then deleted, so the block is back to its replication with good replicas only.
 */
class CorruptReplicaTest {
  private static final int BLOCK = 1024 * 1024;
  private static HopsTestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Writes a one-block file with 2 replicas; returns its block. */
  private static LocatedBlock twoReplicas(String path, byte[] data) throws IOException {
    try (DistributedFileSystem fs = cluster.client()) {
      write(fs, path, data, (short) 2, BLOCK);
      waitFor("two replicas", 20, () -> everyBlockOn(fs, path, 2));
      return located(fs, path).get(0);
    }
  }

  /** The block ends on two datanodes, not {@code bad}, each with its file; the data reads back. */
  private static void assertReplaced(String path, byte[] data, long blockId, String bad)
      throws IOException {
    try (DistributedFileSystem fs = cluster.client()) {
      waitFor(
          "two good replicas, none on the corrupt one's datanode",
          30,
          () -> {
            Set<String> on = holders(located(fs, path).get(0));
            return on.size() == 2 && !on.contains(bad);
          });
      waitFor(
          "the corrupt replica deleted from its datanode's disk",
          30,
          () -> !withBlockFile(cluster, blockId).contains(bad));
      assertThat(withBlockFile(cluster, blockId)).isEqualTo(holders(located(fs, path).get(0)));
      assertThat(read(fs, path, data.length)).isEqualTo(data);
      waitFor(
          "no corrupt-replica row left",
          20,
          () ->
              rows(cluster, CorruptReplicaRow.TABLE).stream()
                  .noneMatch(r -> r.blockId() == blockId));
    }
  }

  @Test
  void aReplicaTheReadingClientFindsCorruptIsReplaced() throws Exception {
    String path = "/corrupt/by-client";
    byte[] data = bytes(200 * 1024, 10);
    LocatedBlock b = twoReplicas(path, data);
    long id = b.getBlock().getBlockId();
    String bad = holders(b).iterator().next();
    BlockFiles.corrupt(BlockFiles.datanode(cluster, bad), id);

    // Readers pick either replica; one that meets the damaged one reads the other and reports it.
    waitFor(
        "a reader reported the corrupt replica",
        30,
        () -> {
          try (DistributedFileSystem fs = cluster.client()) {
            assertThat(read(fs, path, data.length)).isEqualTo(data);
          }
          return rows(cluster, CorruptReplicaRow.TABLE).stream().anyMatch(r -> r.blockId() == id);
        });
    assertReplaced(path, data, id, bad);
  }

  @Test
  void aReplicaItsDatanodeReportsBadIsReplaced() throws Exception {
    String path = "/corrupt/by-datanode";
    byte[] data = bytes(300 * 1024, 11);
    LocatedBlock b = twoReplicas(path, data);
    long id = b.getBlock().getBlockId();
    String bad = holders(b).iterator().next();
    DataNode dn = BlockFiles.datanode(cluster, bad);
    BlockFiles.corrupt(dn, id);

    // What the datanode's block scanner does when it finds the damage.
    dn.reportBadBlocks(b.getBlock());

    assertReplaced(path, data, id, bad);
  }

  @Test
  void aReportNamingAnUnknownDatanodeIsRefusedLikeHdfs() throws Exception {
    String path = "/corrupt/unknown";
    LocatedBlock b = twoReplicas(path, bytes(1024, 12));
    DatanodeInfo stranger =
        new DatanodeInfo.DatanodeInfoBuilder()
            .setNodeID(
                new org.apache.hadoop.hdfs.protocol.DatanodeID(
                    "127.0.0.9", "nowhere", "no-such-uuid", 1, 2, 3, 4))
            .build();
    ExtendedBlock blk = b.getBlock();
    try (DistributedFileSystem fs = cluster.client()) {
      assertThatThrownBy(
              () ->
                  fs.getClient()
                      .getNamenode()
                      .reportBadBlocks(
                          new LocatedBlock[] {
                            new LocatedBlock(blk, new DatanodeInfo[] {stranger})
                          }))
          .hasMessageContaining("Cannot mark " + blk + " as corrupt because datanode ")
          .hasMessageContaining("127.0.0.9:1")
          .hasMessageContaining(" (no-such-uuid) does not exist");
      // A block nobody has is ignored, as in HDFS.
      fs.getClient()
          .getNamenode()
          .reportBadBlocks(
              new LocatedBlock[] {
                new LocatedBlock(
                    new ExtendedBlock(blk.getBlockPoolId(), 42, 1, 1), b.getLocations())
              });
    }
    assertThat(rows(cluster, CorruptReplicaRow.TABLE)).noneMatch(r -> r.blockId() == 42);
  }
}
