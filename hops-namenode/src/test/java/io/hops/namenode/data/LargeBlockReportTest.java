package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Storage;
import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.ReportOwnership;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
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

  /** A written file: three blocks of 64 KB, the last one partial. */
  private static final int FILE_BYTES = 2 * 64 * 1024 + 100;

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
   * Three datanodes of 12,000 replicas each, three namenodes, and a writer: the owner of one
   * datanode's reports dies while files are being written, so the datanode's incremental reports to
   * it are lost. The new owner asks for a full report, applies it, and every block (the preloaded
   * ones and those written across the death) is back at full replication within a report interval
   * of it; the writer, failing over, loses no write.
   */
  @Test
  void afterTheOwnerOfADatanodesReportsDiesUnderWritesEveryBlockIsBackAtFullReplication()
      throws Exception {
    Configuration conf = conf();
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 500);
    try (HopsTestCluster cluster = new HopsTestCluster(conf).withDatanodesInMemory();
        HopsNameNode second = cluster.startAnotherNamenode();
        HopsNameNode third = cluster.startAnotherNamenode()) {
      List<HopsNameNode> nns = new ArrayList<>(List.of(cluster.namenode(), second, third));
      eventually(15, "all three see each other", () -> nns.stream().allMatch(n -> sees(n, 3)));
      List<DataNode> dns = cluster.startDatanodes(3, new Configuration(false), second, third);
      Storage store = cluster.namenode().namesystem().storage();
      String pool = cluster.namenode().namesystem().blocks().blockPoolId();
      int preloaded = 12_000;
      try (DistributedFileSystem fs = cluster.client()) {
        Path p = new Path("/preloaded");
        fs.create(p, (short) 3).close();
        long inode = fs.getClient().getFileInfo(p.toString()).getFileId();
        BulkReplicas.addBlocks(store, inode, FIRST_BLOCK, preloaded);
      }
      for (int d = 0; d < dns.size(); d++) {
        cluster.restartDatanode(
            d,
            volumes -> BulkReplicas.writeFinalized(volumes.get(0), pool, FIRST_BLOCK, preloaded));
      }
      List<String> uuids = cluster.datanodes().stream().map(DataNode::getDatanodeUuid).toList();
      eventually(
          120,
          "every datanode's preloaded replicas recorded",
          () -> {
            for (String uuid : uuids) {
              if (recorded(store, node(cluster.namenode(), uuid), 1) < preloaded) {
                return false;
              }
            }
            return true;
          });

      Configuration client = new Configuration(false);
      DatanodeLauncher.setNamenodes(client, nns.stream().map(HopsNameNode::address).toList());
      client.setBoolean("fs.hdfs.impl.disable.cache", true);
      client.setInt("ipc.client.connect.max.retries", 1);
      client.setInt("ipc.client.connect.retry.interval", 100);
      client.setInt("dfs.client.failover.sleep.base.millis", 100);
      client.setInt("dfs.client.failover.sleep.max.millis", 1000);
      List<Path> written = new CopyOnWriteArrayList<>();
      List<Throwable> failed = new CopyOnWriteArrayList<>();
      AtomicBoolean stop = new AtomicBoolean();
      Thread writer =
          new Thread(
              () -> {
                try (FileSystem fs = FileSystem.get(URI.create("hdfs://hops"), client)) {
                  for (int n = 0; !stop.get(); n++) {
                    Path p = new Path("/written/f" + n);
                    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, 64 * 1024)) {
                      out.write(DataFiles.bytes(FILE_BYTES, n));
                    }
                    written.add(p);
                  }
                } catch (Throwable t) {
                  failed.add(t);
                }
              });
      writer.start();
      Thread.sleep(3000);
      String uuid = uuids.get(0);
      HopsNameNode owner = ownerOf(uuid, nns);
      nns.remove(owner);
      owner.crash();
      eventually(15, "the owner is out", () -> nns.stream().allMatch(n -> sees(n, 2)));
      HopsNameNode newOwner = ownerOf(uuid, nns);
      eventually(
          30,
          "the new owner applied a full report of " + uuid,
          () -> node(newOwner, uuid).fullReportsApplied() > 0);
      Thread.sleep(3000);
      stop.set(true);
      writer.join(60_000);
      assertThat(failed).as("writes that failed").isEmpty();
      assertThat(written).hasSizeGreaterThan(5);
      long reported = System.nanoTime();
      try (DistributedFileSystem fs = cluster.client(nns.get(0))) {
        for (Path p : written) {
          HopsTestCluster.awaitReplicas(fs, p, 3);
          assertThat(DataFiles.read(fs, p))
              .isEqualTo(DataFiles.bytes(FILE_BYTES, Long.parseLong(p.getName().substring(1))));
        }
      }
      for (String u : uuids) {
        assertThat(recorded(store, node(nns.get(0), u), 1))
            .as("replicas recorded on %s", u)
            .isEqualTo(preloaded + 3 * written.size()); // 3 blocks per file
      }
      System.out.printf(
          "%d files written across the death of the owner of %s; all at full replication %d ms"
              + " after the writer stopped%n",
          written.size(), uuid, (System.nanoTime() - reported) / 1_000_000);
    }
  }

  private static boolean sees(HopsNameNode nn, int members) {
    return nn.election().membership().members().size() == members;
  }

  private static DatanodeState node(HopsNameNode nn, String uuid) {
    return nn.namesystem().blocks().datanodes().node(uuid);
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
    DatanodeState node = owner.namesystem().blocks().datanodes().node(uuid);
    int expectedStorages = Math.max(1, types.length);
    eventually(
        180,
        "the datanode's " + REPLICAS + " replicas recorded",
        () -> recorded(store, node, expectedStorages) == REPLICAS);
    for (StorageStat s : node.storages()) {
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
  private static int recorded(Storage store, DatanodeState node, int storages) throws IOException {
    List<StorageStat> all = new ArrayList<>(node.storages());
    if (all.size() < storages) {
      return -1;
    }
    int n = 0;
    for (StorageStat s : all) {
      n += BulkReplicas.recordedOn(store, s.ref.id());
    }
    return n;
  }

  private static HopsNameNode ownerOf(String uuid, List<HopsNameNode> nns) {
    long id = ReportOwnership.ownerOf(uuid, nns.get(0).election().membership());
    return nns.stream().filter(n -> n.election().id() == id).findFirst().orElseThrow();
  }
}
