package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A failed volume ({@code dfs.datanode.failed.volumes.tolerated} 1) against hops (two namenodes
 * over one store, four stock DataNodes of two volumes each) and a MiniDFSCluster of four datanodes
 * of two volumes: a data directory of one datanode is made unusable and the DataNode's own disk
 * check finds it, as HDFS's TestDataNodeVolumeFailure does. Its replicas stop counting and the
 * blocks are copied elsewhere; {@code dfsadmin -report}'s "Num of Blocks", {@code /jmx}'s {@code
 * VolumeFailuresTotal}, {@code EstimatedCapacityLostTotal} and the datanode's {@code volfails} and
 * {@code failedStorageIDs} in {@code LiveNodes} read as HDFS's, on either namenode.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VolumeFailureLikeHdfsTest {
  private static final int BLOCK = 64 * 1024;
  private static final int BLOCKS = 8;
  private static final String STATE_BEAN = "Hadoop:service=NameNode,name=FSNamesystemState";
  private static final String INFO_BEAN = "Hadoop:service=NameNode,name=NameNodeInfo";

  @RegisterExtension
  static final SideBySideExtension clusters =
      SideBySideExtension.of(
          // Two volumes per datanode on both sides.
          () ->
              SideBySide.start(
                  "volume-failure", conf(), 4, datanodeConf(), StorageType.DISK, StorageType.DISK));

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    // HDFS looks for failed storages at every heartbeat check.
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 1000);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    return conf;
  }

  private static Configuration datanodeConf() {
    Configuration dn = new Configuration(false);
    dn.setInt("dfs.datanode.failed.volumes.tolerated", 1);
    dn.set("dfs.datanode.disk.check.min.gap", "0");
    return dn;
  }

  private static byte[] write(FileSystem fs, String path) throws IOException {
    byte[] data = new byte[BLOCKS * BLOCK];
    new Random(path.hashCode()).nextBytes(data);
    try (FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 3, BLOCK)) {
      out.write(data);
    }
    return data;
  }

  private static List<LocatedBlock> blocks(DistributedFileSystem fs, String path)
      throws IOException {
    return fs.getClient().getLocatedBlocks(path, 0, Long.MAX_VALUE).getLocatedBlocks();
  }

  /** The volume of {@code dn} that holds the most replicas of {@code path}. */
  private static FsVolumeSpi fullestVolume(DataNode dn, DistributedFileSystem fs, String path)
      throws IOException {
    Map<String, Integer> held = new HashMap<>();
    for (LocatedBlock b : blocks(fs, path)) {
      for (String s : b.getStorageIDs()) {
        held.merge(s, 1, Integer::sum);
      }
    }
    FsVolumeSpi best = null;
    try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
      for (FsVolumeSpi v : volumes) {
        if (best == null
            || held.getOrDefault(v.getStorageID(), 0) > held.getOrDefault(best.getStorageID(), 0)) {
          best = v;
        }
      }
    }
    assertThat(held.getOrDefault(best.getStorageID(), 0)).as("replicas on a volume").isPositive();
    return best;
  }

  /**
   * Fails a volume for real and lets the DataNode's disk check find it: its directory is moved away
   * and a file put in its place, so that the check cannot use it.
   */
  private static void failVolume(DataNode dn, FsVolumeSpi volume) throws IOException {
    breakDirectory(new File(volume.getBaseURI()));
    dn.checkDiskError();
  }

  private static void breakDirectory(File dir) throws IOException {
    File away = new File(dir.getPath() + ".failed");
    assertThat(dir.renameTo(away)).as("moved " + dir).isTrue();
    assertThat(dir.createNewFile()).as("a file at " + dir).isTrue();
  }

  /** Waits until every block of {@code path} has 3 replicas, none on {@code failedStorage}. */
  private static void awaitCopiedOff(DistributedFileSystem fs, String path, String failedStorage)
      throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      List<String> wrong = new ArrayList<>();
      for (LocatedBlock b : blocks(fs, path)) {
        List<String> storages = Arrays.asList(b.getStorageIDs());
        if (storages.size() != 3 || storages.contains(failedStorage)) {
          wrong.add(b.getBlock().getBlockId() + "@" + storages);
        }
      }
      if (wrong.isEmpty()) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        // hops's block tables, to diagnose a failure (on either side: hops is the one in doubt).
        String debug;
        try (io.hops.dal.Transaction tx =
            clusters.hops().namenode().namesystem().storage().begin()) {
          debug =
              " pending="
                  + tx.scanAll(
                      io.hops.dal.rows.PendingBlockRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED)
                  + " replicas="
                  + tx.scanAll(
                      io.hops.dal.rows.ReplicaRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED)
                  + " marks="
                  + tx.scanAll(
                      io.hops.dal.rows.UnderReplicatedBlockRow.TABLE,
                      io.hops.dal.LockMode.READ_COMMITTED)
                  + " storages="
                  + tx.scanAll(
                      io.hops.dal.rows.StorageRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED);
        }
        throw new AssertionError(
            "blocks not yet on 3 storages other than the failed "
                + failedStorage
                + ": "
                + wrong
                + debug);
      }
      Thread.sleep(200);
    }
  }

  private static JsonNode jmx(String httpBase, String bean) throws IOException {
    try (java.io.InputStream in =
        java.net.URI.create(httpBase + "/jmx?qry=" + bean).toURL().openStream()) {
      return new ObjectMapper().readTree(in).get("beans").get(0);
    }
  }

  /** What hops's /jmx says of the volume failures: the totals and the datanode's entry. */
  private static String volumeFailures(String httpBase, String xferAddr) throws Exception {
    JsonNode state = jmx(httpBase, STATE_BEAN);
    return volumeFailures(
        state.get("VolumeFailuresTotal").asInt(),
        state.get("EstimatedCapacityLostTotal").asLong(),
        jmx(httpBase, INFO_BEAN).get("LiveNodes").asText(),
        xferAddr);
  }

  /**
   * The same of HDFS's FSNamesystem, asked directly: in one JVM both register their beans under the
   * same names, and /jmx shows whichever came first.
   */
  private static String hdfsVolumeFailures(String xferAddr) throws Exception {
    FSNamesystem n = clusters.hdfs().getNamesystem();
    return volumeFailures(
        n.getVolumeFailuresTotal(), n.getEstimatedCapacityLostTotal(), n.getLiveNodes(), xferAddr);
  }

  private static String volumeFailures(
      int volumeFailuresTotal, long capacityLost, String liveNodes, String xferAddr)
      throws Exception {
    JsonNode live = new ObjectMapper().readTree(liveNodes);
    JsonNode node = null;
    for (JsonNode n : live) {
      if (n.get("xferaddr").asText().endsWith(xferAddr.substring(xferAddr.lastIndexOf(':')))) {
        node = n;
      }
    }
    assertThat(node).as(live.toString()).isNotNull();
    JsonNode failed = node.get("failedStorageIDs");
    return "VolumeFailuresTotal="
        + volumeFailuresTotal
        + " EstimatedCapacityLostTotal>0="
        + (capacityLost > 0)
        + " volfails="
        + node.get("volfails").asInt()
        + " failedStorageIDs="
        + (failed == null ? "none" : failed.size())
        + " estimatedCapacityLostTotal>0="
        + (node.path("estimatedCapacityLostTotal").asLong() > 0)
        + " lastVolumeFailureDate>0="
        + (node.path("lastVolumeFailureDate").asLong() > 0);
  }

  private static String awaitJmx(String httpBase, String key, String want) throws Exception {
    long deadline = System.currentTimeMillis() + 20_000;
    String got = key + "=" + jmx(httpBase, STATE_BEAN).get(key).asLong();
    while (!got.equals(want) && System.currentTimeMillis() < deadline) {
      Thread.sleep(300);
      got = key + "=" + jmx(httpBase, STATE_BEAN).get(key).asLong();
    }
    return got;
  }

  /**
   * Waits until hops's /jmx shows {@code want}: all of {@link #volumeFailures}, or only the
   * datanode's {@code volfails=N}.
   */
  private static String awaitVolumeFailures(String httpBase, String xferAddr, String want)
      throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    String got = volumeFailures(httpBase, xferAddr);
    while (!got.contains(want) && System.currentTimeMillis() < deadline) {
      Thread.sleep(300);
      got = volumeFailures(httpBase, xferAddr);
    }
    return want.startsWith("volfails") ? got.replaceAll(".*(volfails=\\d+).*", "$1") : got;
  }

  private static String hdfsNodeFailures(String xferAddr) throws Exception {
    return hdfsVolumeFailures(xferAddr).replaceAll(".*(volfails=\\d+).*", "$1");
  }

  /** Each datanode's "Num of Blocks" in a {@code dfsadmin -report}, by its address. */
  private static Map<String, Integer> numBlocks(Configuration conf) throws Exception {
    StockTool.Output o = StockTool.run(out -> new DFSAdmin(conf), "-report");
    assertThat(o.rc()).as(o.err()).isZero();
    Map<String, Integer> out = new HashMap<>();
    String name = null;
    for (String l : o.out().lines().toList()) {
      if (l.startsWith("Name: ")) {
        name = l.substring("Name: ".length()).split(" ")[0];
      } else if (l.startsWith("Num of Blocks: ")) {
        out.put(name, Integer.parseInt(l.substring("Num of Blocks: ".length()).trim()));
      }
    }
    return out;
  }

  /** The replicas of {@code paths} on each datanode, by its address. */
  private static Map<String, Integer> located(DistributedFileSystem fs, String... paths)
      throws IOException {
    Map<String, Integer> out = new HashMap<>();
    for (String path : paths) {
      for (LocatedBlock b : blocks(fs, path)) {
        for (DatanodeInfo d : b.getLocations()) {
          out.merge(d.getXferAddr(), 1, Integer::sum);
        }
      }
    }
    return out;
  }

  @Test
  @Order(1)
  void aFailedVolumesReplicasAreCopiedElsewhereAndReportedLikeHdfs() throws Exception {
    String path = "/volumes/f";
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other());
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      byte[] data = write(fs, path);
      write(hfs, path);
      HopsTestCluster.awaitReplicas(fs, new Path(path), 3);
      HopsTestCluster.awaitReplicas(hfs, new Path(path), 3);
      // No copy in flight once the writes' replicas are all reported, whichever volume of the
      // pipeline's datanodes took each. HDFS may count one until a late incremental report
      // arrives (seen once on a loaded machine): wait for it as for hops's.
      long deadline = System.currentTimeMillis() + 20_000;
      while (clusters.hdfs().getNamesystem().getPendingReplicationBlocks() != 0
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(300);
      }
      String pending =
          "PendingReplicationBlocks="
              + clusters.hdfs().getNamesystem().getPendingReplicationBlocks();
      assertThat(pending).isEqualTo("PendingReplicationBlocks=0");
      assertThat(awaitJmx(clusters.other().httpUri(), "PendingReplicationBlocks", pending))
          .isEqualTo(pending);
      assertThat(
              numBlocks(clusters.get().through(clusters.other())).values().stream()
                  .mapToInt(i -> i)
                  .sum())
          .isEqualTo(numBlocks(clusters.hdfsSide().conf()).values().stream().mapToInt(i -> i).sum())
          .isEqualTo(3 * BLOCKS);

      DataNode victim = clusters.hops().datanodes().get(0);
      DataNode hdfsVictim = clusters.hdfs().getDataNodes().get(0);
      FsVolumeSpi volume = fullestVolume(victim, fs, path);
      FsVolumeSpi hdfsVolume = fullestVolume(hdfsVictim, hfs, path);
      failVolume(victim, volume);
      failVolume(hdfsVictim, hdfsVolume);

      awaitCopiedOff(hfs, path, hdfsVolume.getStorageID());
      awaitCopiedOff(fs, path, volume.getStorageID());
      byte[] got = new byte[data.length];
      try (FSDataInputStream in = fs.open(new Path(path))) {
        in.readFully(got);
      }
      assertThat(got).isEqualTo(data);

      // Both namenodes hold the storage failed: the state is in the database.
      assertThat(
              clusters
                  .hops()
                  .namenode()
                  .namesystem()
                  .blocks()
                  .datanodes()
                  .failedStorages()
                  .ids()
                  .stream()
                  .map(
                      id ->
                          clusters
                              .other()
                              .namesystem()
                              .blocks()
                              .datanodes()
                              .failedStorages()
                              .isFailed(id))
                  .toList())
          .containsExactly(true);

      // /jmx: the totals and the datanode's entry in LiveNodes, on both namenodes, as HDFS's.
      String want = hdfsVolumeFailures(hdfsVictim.getDatanodeId().getXferAddr());
      assertThat(want)
          .isEqualTo(
              "VolumeFailuresTotal=1 EstimatedCapacityLostTotal>0=true volfails=1"
                  + " failedStorageIDs=1 estimatedCapacityLostTotal>0=true"
                  + " lastVolumeFailureDate>0=true");
      String addr = victim.getDatanodeId().getXferAddr();
      assertThat(awaitVolumeFailures(clusters.other().httpUri(), addr, want)).isEqualTo(want);
      assertThat(awaitVolumeFailures(clusters.hops().namenode().httpUri(), addr, want))
          .isEqualTo(want);
      JsonNode failedIds =
          new ObjectMapper()
              .readTree(jmx(clusters.other().httpUri(), INFO_BEAN).get("LiveNodes").asText())
              .findValue("failedStorageIDs");
      assertThat(failedIds.get(0).asText()).contains(new File(volume.getBaseURI()).getName());

      // dfsadmin -report: each datanode's "Num of Blocks" is the replicas it holds now.
      Map<String, Integer> hdfsCounts = numBlocks(clusters.hdfsSide().conf());
      assertThat(hdfsCounts).isEqualTo(located(hfs, path));
      assertThat(numBlocks(clusters.get().through(clusters.other()))).isEqualTo(located(fs, path));
      assertThat(numBlocks(clusters.get().through(clusters.hops().namenode())))
          .isEqualTo(located(fs, path));

      // The datanodes page shows the failed volume.
      try (java.io.InputStream in =
          java.net.URI.create(clusters.other().httpUri() + "/datanodes").toURL().openStream()) {
        String page = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(page).contains(new File(volume.getBaseURI()).getPath());
      }
    }
  }

  /**
   * A datanode restarted with a volume that no longer works reports no deletions for it: the
   * namenodes find the storage missing from its first heartbeat, and the leader forgets its
   * replicas (HDFS: the storage is FAILED and removeBlocksAssociatedTo).
   */
  @Test
  @Order(2)
  void aDatanodeRestartedWithoutAVolumeHasItsReplicasCopiedElsewhereLikeHdfs() throws Exception {
    String path = "/volumes/restart";
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other());
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      write(fs, path);
      write(hfs, path);
      HopsTestCluster.awaitReplicas(fs, new Path(path), 3);
      HopsTestCluster.awaitReplicas(hfs, new Path(path), 3);

      FsVolumeSpi volume = fullestVolume(clusters.hops().datanodes().get(1), fs, path);
      File dir = new File(volume.getBaseURI());
      clusters.hops().restartDatanode(1, volumes -> breakDirectory(dir));
      DataNode hdfsVictim = clusters.hdfs().getDataNodes().get(1);
      FsVolumeSpi hdfsVolume = fullestVolume(hdfsVictim, hfs, path);
      MiniDFSCluster.DataNodeProperties stopped = clusters.hdfs().stopDataNode(1);
      breakDirectory(new File(hdfsVolume.getBaseURI()));
      assertThat(clusters.hdfs().restartDataNode(stopped, true)).isTrue();
      clusters.hdfs().waitActive();

      awaitCopiedOff(hfs, path, hdfsVolume.getStorageID());
      awaitCopiedOff(fs, path, volume.getStorageID());
      String addr = clusters.hops().datanodes().get(1).getDatanodeId().getXferAddr();
      assertThat(awaitVolumeFailures(clusters.other().httpUri(), addr, "volfails=1"))
          .isEqualTo(hdfsNodeFailures(hdfsVictim.getDatanodeId().getXferAddr()))
          .isEqualTo("volfails=1");
      assertThat(numBlocks(clusters.get().through(clusters.other())))
          .isEqualTo(located(fs, path, "/volumes/f"));
    }
  }
}
