package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Storage;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.ReportOwnership;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.BlockReportOptions;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * A stock DataNode of real size reports its replicas over real RPC: 200,000 replicas, on one
 * storage or spread over two, reach the store through full block reports, with one namenode and
 * with three (where one owner applies them and every namenode's RPC server reads them). A namenode
 * whose RPC server limited a report to fewer bytes refused every report of more than about 5,800
 * replicas.
 */
class LargeBlockReportTest {
  private static final int REPLICAS = 200_000;
  private static final int FILES = 10;
  private static final long FIRST_BLOCK = 1L << 40;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    // Nothing for the leader to do meanwhile: every block has its one replica.
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    return conf;
  }

  @Test
  void aStockDatanodeReportsTwoHundredThousandReplicasOnOneStorageToOneNamenode() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf()).withDatanodesInMemory()) {
      cluster.startDatanodes(1);
      List<HopsNameNode> nns = List.of(cluster.namenode());
      reportAndCheck(cluster, nns, new StorageType[0]);
    }
  }

  @Test
  void aStockDatanodeReportsTwoHundredThousandReplicasOnTwoStoragesToThreeNamenodes()
      throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf()).withDatanodesInMemory();
        HopsNameNode second = cluster.startAnotherNamenode();
        HopsNameNode third = cluster.startAnotherNamenode()) {
      List<HopsNameNode> nns = List.of(cluster.namenode(), second, third);
      eventually(
          15,
          "all three see each other",
          () -> nns.stream().allMatch(n -> n.election().membership().members().size() == 3));
      StorageType[] twoDisks = {StorageType.DISK, StorageType.DISK};
      cluster.startDatanodes(1, new Configuration(false), twoDisks, second, third);
      reportAndCheck(cluster, nns, twoDisks);
    }
  }

  /**
   * Gives the cluster's one datanode {@link #REPLICAS} replicas of blocks the namespace has, spread
   * evenly over its volumes, and restarts it: its first full report records them all, and a second
   * one, forced, is applied too and changes nothing.
   */
  private static void reportAndCheck(
      HopsTestCluster cluster, List<HopsNameNode> nns, StorageType[] types) throws Exception {
    Storage store = cluster.namenode().namesystem().storage();
    String pool = cluster.namenode().namesystem().blocks().blockPoolId();
    try (DistributedFileSystem fs = cluster.client()) {
      int perFile = REPLICAS / FILES;
      for (int f = 0; f < FILES; f++) {
        Path p = new Path("/big/f" + f);
        fs.create(p, (short) 1).close();
        long inode = fs.getClient().getFileInfo(p.toString()).getFileId();
        BulkReplicas.addBlocks(store, inode, FIRST_BLOCK + (long) f * perFile, perFile);
      }
    }
    String uuid = cluster.datanodes().get(0).getDatanodeUuid();
    DataNode dn =
        cluster.restartDatanode(
            0,
            volumes -> {
              int perVolume = REPLICAS / volumes.size();
              for (int v = 0; v < volumes.size(); v++) {
                File volume = volumes.get(v);
                BulkReplicas.writeFinalized(
                    volume, pool, FIRST_BLOCK + (long) v * perVolume, perVolume);
              }
            });
    HopsNameNode owner = ownerOf(uuid, nns);
    DatanodeManager.Node node = owner.namesystem().blocks().datanodes().node(uuid);
    int expectedStorages = Math.max(1, types.length);
    eventually(
        180,
        "the datanode's " + REPLICAS + " replicas recorded",
        () -> recorded(store, node, expectedStorages) == REPLICAS);
    for (DatanodeManager.StorageStat s : node.storages()) {
      assertThat(BulkReplicas.recordedOn(store, s.ref.id()))
          .as("replicas of storage %s", s.ref.storageUuid())
          .isEqualTo(REPLICAS / expectedStorages);
    }
    int applied = node.fullReportsApplied();
    dn.triggerBlockReport(new BlockReportOptions.Factory().setIncremental(false).build());
    eventually(120, "a second full report applied", () -> node.fullReportsApplied() > applied);
    assertThat(recorded(store, node, expectedStorages)).isEqualTo(REPLICAS);
    for (HopsNameNode nn : nns) {
      if (nn != owner) {
        assertThat(nn.namesystem().blocks().datanodes().node(uuid).fullReportsApplied())
            .as("reports applied by a namenode that does not own them")
            .isZero();
      }
    }
  }

  /** The replicas recorded on the node's storages, once it has reported all {@code storages}. */
  private static int recorded(Storage store, DatanodeManager.Node node, int storages)
      throws IOException {
    List<DatanodeManager.StorageStat> all = new ArrayList<>(node.storages());
    if (all.size() < storages) {
      return -1;
    }
    int n = 0;
    for (DatanodeManager.StorageStat s : all) {
      n += BulkReplicas.recordedOn(store, s.ref.id());
    }
    return n;
  }

  private static HopsNameNode ownerOf(String uuid, List<HopsNameNode> nns) {
    long id = ReportOwnership.ownerOf(uuid, nns.get(0).election().membership());
    return nns.stream().filter(n -> n.election().id() == id).findFirst().orElseThrow();
  }
}
