package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Decommission ({@code dfs.hosts}, {@code dfs.hosts.exclude}, {@code dfsadmin -refreshNodes})
 * against hops (two namenodes over one store, four stock DataNodes heartbeating both) and a
 * MiniDFSCluster of four datanodes with the same settings: an excluded datanode ends DECOMMISSIONED
 * with every block replicated on the others while reads go on, whichever namenode took the command;
 * a datanode outside the include list is refused by the other namenode; a new leader finishes a
 * decommission the old one started.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DecommissionLikeHdfsTest {
  private static final int BLOCK = 64 * 1024;
  private static final DecommissionHosts hosts = DecommissionHosts.empty();

  @RegisterExtension
  static final SideBySideExtension clusters =
      SideBySideExtension.of(() -> SideBySide.start("decommission", hosts.conf(), 4));

  private static void refreshHops(HopsNameNode nn) throws Exception {
    StockTool.Output o = StockTool.dfsadmin(clusters.get().through(nn), "-refreshNodes");
    assertThat(o.rc()).as(o.err()).isZero();
    assertThat(o.out()).contains("Refresh nodes successful");
  }

  private static byte[] write(DistributedFileSystem fs, String path, short replication, int blocks)
      throws IOException {
    byte[] data = new byte[blocks * BLOCK];
    new Random(path.hashCode()).nextBytes(data);
    try (FSDataOutputStream out =
        fs.create(new org.apache.hadoop.fs.Path(path), true, 4096, replication, BLOCK)) {
      out.write(data);
    }
    return data;
  }

  private static AdminStates state(DistributedFileSystem fs, String uuid) throws IOException {
    for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.ALL)) {
      if (d.getDatanodeUuid().equals(uuid)) {
        return d.getAdminState();
      }
    }
    throw new AssertionError("no datanode " + uuid);
  }

  private static void awaitState(DistributedFileSystem fs, String uuid, AdminStates want)
      throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    while (state(fs, uuid) != want) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(uuid + " is " + state(fs, uuid) + ", not " + want);
      }
      Thread.sleep(200);
    }
  }

  /** Each block of {@code path} has {@code n} replicas on datanodes other than {@code uuid}. */
  private static void assertReplicatedWithout(
      DistributedFileSystem fs, String path, String uuid, int n) throws IOException {
    for (LocatedBlock b :
        fs.getClient().getLocatedBlocks(path, 0, Long.MAX_VALUE).getLocatedBlocks()) {
      long others =
          Arrays.stream(b.getLocations()).filter(d -> !d.getDatanodeUuid().equals(uuid)).count();
      assertThat(others).as("replicas of %s off %s", b.getBlock(), uuid).isGreaterThanOrEqualTo(n);
    }
  }

  /** Reads {@code files} again and again until stopped; failures are counted. */
  private static final class Reader extends Thread {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicInteger reads = new AtomicInteger();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final DistributedFileSystem fs;
    final List<String> paths;
    final List<byte[]> contents;

    Reader(DistributedFileSystem fs, List<String> paths, List<byte[]> contents) {
      this.fs = fs;
      this.paths = paths;
      this.contents = contents;
    }

    @Override
    public void run() {
      try {
        while (!stop.get()) {
          for (int i = 0; i < paths.size(); i++) {
            byte[] got = new byte[contents.get(i).length];
            try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(paths.get(i)))) {
              in.readFully(got);
            }
            if (!Arrays.equals(got, contents.get(i))) {
              throw new AssertionError(paths.get(i) + " read back different");
            }
            reads.incrementAndGet();
          }
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    }
  }

  /** The FSNamesystemState bean of {@code nn}'s /jmx, once {@code key} reads {@code want}. */
  private static JsonNode awaitJmx(HopsNameNode nn, String key, int want) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (true) {
      JsonNode bean;
      try (java.io.InputStream in =
          java.net
              .URI
              .create(nn.httpUri() + "/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState")
              .toURL()
              .openStream()) {
        bean = new ObjectMapper().readTree(in).get("beans").get(0);
      }
      if (bean.get(key).asInt() == want || System.currentTimeMillis() > deadline) {
        assertThat(bean.get(key).asInt()).as(bean.toString()).isEqualTo(want);
        return bean;
      }
      Thread.sleep(500);
    }
  }

  /** The "Decommission Status" lines of {@code dfsadmin -report}, sorted. */
  private static List<String> statuses(String report) {
    return report.lines().filter(l -> l.startsWith("Decommission Status")).sorted().toList();
  }

  @Test
  @Order(1)
  void anExcludedDatanodeEndsDecommissionedWithItsBlocksElsewhereLikeHdfs() throws Exception {
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other());
        DistributedFileSystem leaderFs = clusters.hops().client();
        DistributedFileSystem hfs =
            (DistributedFileSystem)
                FileSystem.get(clusters.hdfs().getURI(), clusters.hdfsSide().conf())) {
      List<String> paths = List.of("/decom/r2", "/decom/r3");
      List<byte[]> hopsData = new ArrayList<>();
      List<byte[]> hdfsData = new ArrayList<>();
      hopsData.add(write(fs, paths.get(0), (short) 2, 6));
      hopsData.add(write(fs, paths.get(1), (short) 3, 6));
      hdfsData.add(write(hfs, paths.get(0), (short) 2, 6));
      hdfsData.add(write(hfs, paths.get(1), (short) 3, 6));
      HopsTestCluster.awaitReplicas(fs, new org.apache.hadoop.fs.Path(paths.get(0)), 2);
      HopsTestCluster.awaitReplicas(fs, new org.apache.hadoop.fs.Path(paths.get(1)), 3);

      DataNode victim = clusters.hops().datanodes().get(0);
      DataNode hdfsVictim = clusters.hdfs().getDataNodes().get(0);
      String uuid = victim.getDatanodeUuid();
      String hdfsUuid = hdfsVictim.getDatanodeUuid();
      Reader reader = new Reader(fs, paths, hopsData);
      reader.start();
      try {
        // Through the namenode that is not the leader: the leader learns it from the database.
        Files.writeString(hosts.exclude(), victim.getDatanodeId().getXferAddr() + "\n");
        refreshHops(clusters.other());
        Files.writeString(hosts.exclude(), hdfsVictim.getDatanodeId().getXferAddr() + "\n");
        clusters.get().refreshHdfsNodes();
        assertThat(state(fs, uuid))
            .isIn(AdminStates.DECOMMISSION_INPROGRESS, AdminStates.DECOMMISSIONED);

        awaitState(hfs, hdfsUuid, AdminStates.DECOMMISSIONED);
        awaitState(leaderFs, uuid, AdminStates.DECOMMISSIONED);
        awaitState(fs, uuid, AdminStates.DECOMMISSIONED);
      } finally {
        reader.stop.set(true);
        reader.join();
      }
      assertThat(reader.failure.get()).as("a read during the decommission failed").isNull();
      assertThat(reader.reads.get()).isPositive();
      assertReplicatedWithout(fs, paths.get(0), uuid, 2);
      assertReplicatedWithout(fs, paths.get(1), uuid, 3);
      assertReplicatedWithout(hfs, paths.get(0), hdfsUuid, 2);
      assertReplicatedWithout(hfs, paths.get(1), hdfsUuid, 3);

      StockTool.Output hopsReport =
          StockTool.dfsadmin(clusters.get().through(clusters.other()), "-report");
      StockTool.Output hdfsReport = StockTool.dfsadmin(clusters.hdfsSide().conf(), "-report");
      assertThat(statuses(hopsReport.out()))
          .as(hopsReport.out())
          .isEqualTo(statuses(hdfsReport.out()))
          .containsExactly(
              "Decommission Status : Decommissioned",
              "Decommission Status : Normal",
              "Decommission Status : Normal",
              "Decommission Status : Normal");
      assertThat(hopsReport.out()).contains("Live datanodes (4):");
      assertThat(hdfsReport.out()).contains("Live datanodes (4):");
      // /jmx of the namenode that is not the leader counts it as HDFS's FSNamesystemState does.
      JsonNode state = awaitJmx(clusters.other(), "NumDecomLiveDataNodes", 1);
      assertThat(state.get("NumDecommissioningDataNodes").asInt()).isZero();
      assertThat(state.get("NumInServiceLiveDataNodes").asInt()).isEqualTo(3);
      assertThat(state.get("NumLiveDataNodes").asInt()).isEqualTo(4);

      // Back in service once no longer excluded.
      Files.writeString(hosts.exclude(), "");
      refreshHops(clusters.hops().namenode());
      clusters.get().refreshHdfsNodes();
      awaitState(fs, uuid, AdminStates.NORMAL);
      awaitState(hfs, hdfsUuid, AdminStates.NORMAL);
      // Its replicas count again: the surplus is deleted at once (HDFS
      // processExtraRedundancyBlocksOnInService), not when something else checks the blocks.
      for (int i = 0; i < paths.size(); i++) {
        awaitExactly(hfs, paths.get(i), i + 2);
        awaitExactly(fs, paths.get(i), i + 2);
      }
    }
  }

  /** Waits until every block of {@code path} has exactly {@code n} replicas. */
  private static void awaitExactly(DistributedFileSystem fs, String path, int n) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (true) {
      List<Integer> counts = new ArrayList<>();
      for (LocatedBlock b :
          fs.getClient().getLocatedBlocks(path, 0, Long.MAX_VALUE).getLocatedBlocks()) {
        counts.add(b.getLocations().length);
      }
      if (counts.stream().allMatch(c -> c == n)) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(path + " replicas per block " + counts + ", not all " + n);
      }
      Thread.sleep(300);
    }
  }

  /**
   * The exception class and message a namenode answers a registration with: {@code dn}'s own, or
   * with {@code otherPort} that of a datanode on its host at another port, outside the lists (a
   * live datanode refused at a heartbeat would stop serving that namenode for good, as with HDFS).
   */
  private static String registrationAnswer(
      InetSocketAddress nn, DataNode dn, String pool, int otherPort) throws Exception {
    DatanodeRegistration own = dn.getDNRegistrationForBP(pool);
    DatanodeRegistration reg =
        otherPort == 0
            ? own
            : new DatanodeRegistration(
                new DatanodeID(
                    own.getIpAddr(),
                    own.getHostName(),
                    "dn-outside-the-include-list",
                    otherPort,
                    own.getInfoPort(),
                    own.getInfoSecurePort(),
                    own.getIpcPort()),
                own.getStorageInfo(),
                own.getExportedKeys(),
                own.getSoftwareVersion());
    DatanodeProtocolClientSideTranslatorPB namenode =
        new DatanodeProtocolClientSideTranslatorPB(nn, new Configuration());
    try {
      namenode.registerDatanode(reg);
      return "registered";
    } catch (RemoteException e) {
      return e.getClassName() + ": " + e.getMessage().lines().findFirst().orElse("");
    } finally {
      namenode.close();
    }
  }

  private static String hopsPool() {
    return clusters.other().namesystem().blocks().ids().namespaceInfo().getBlockPoolID();
  }

  private static String includeAll(List<DataNode> datanodes) {
    StringBuilder in = new StringBuilder();
    for (DataNode dn : datanodes) {
      in.append(dn.getDatanodeId().getXferAddr()).append('\n');
    }
    return in.toString();
  }

  @Test
  @Order(2)
  void aDatanodeOutsideTheIncludeListIsRefusedByTheOtherNamenode() throws Exception {
    int port = 1; // no datanode of either cluster
    try {
      Files.writeString(hosts.include(), includeAll(clusters.hops().datanodes()));
      refreshHops(clusters.hops().namenode());
      String hopsAnswer =
          registrationAnswer(
              clusters.other().address(), clusters.hops().datanodes().get(3), hopsPool(), port);

      Files.writeString(hosts.include(), includeAll(clusters.hdfs().getDataNodes()));
      clusters.get().refreshHdfsNodes();
      String hdfsAnswer =
          registrationAnswer(
              clusters.hdfs().getNameNode().getServiceRpcAddress(),
              clusters.hdfs().getDataNodes().get(3),
              clusters.hdfs().getNamesystem().getBlockPoolId(),
              port);

      assertThat(hopsAnswer)
          .startsWith(
              "org.apache.hadoop.hdfs.server.protocol.DisallowedDatanodeException: Datanode denied"
                  + " communication with namenode because the host is not in the include-list");
      assertThat(hopsAnswer.replaceAll(":.*", "")).isEqualTo(hdfsAnswer.replaceAll(":.*", ""));
      // One in the list is still taken.
      assertThat(
              registrationAnswer(
                  clusters.other().address(), clusters.hops().datanodes().get(1), hopsPool(), 0))
          .isEqualTo("registered");
    } finally {
      Files.writeString(hosts.include(), "");
      refreshHops(clusters.hops().namenode());
      clusters.get().refreshHdfsNodes();
    }
  }

  @Test
  @Order(3)
  void aNewLeaderFinishesADecommissionTheOldOneStarted() throws Exception {
    try (DistributedFileSystem fs = clusters.hops().client(clusters.other())) {
      byte[] data = write(fs, "/decom/leader", (short) 3, 8);
      HopsTestCluster.awaitReplicas(fs, new org.apache.hadoop.fs.Path("/decom/leader"), 3);
      DataNode victim = clusters.hops().datanodes().get(1);
      String uuid = victim.getDatanodeUuid();
      Files.writeString(hosts.exclude(), victim.getDatanodeId().getXferAddr() + "\n");
      refreshHops(clusters.other());
      // The leader goes mid-way: only the database says where the decommission is.
      assertThat(state(fs, uuid)).isEqualTo(AdminStates.DECOMMISSION_INPROGRESS);
      clusters.hops().namenode().close();

      awaitState(fs, uuid, AdminStates.DECOMMISSIONED);
      assertThat(clusters.other().namesystem().blocks().isLeader()).isTrue();
      assertReplicatedWithout(fs, "/decom/leader", uuid, 3);
      byte[] got = new byte[data.length];
      try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/decom/leader"))) {
        in.readFully(got);
      }
      assertThat(got).isEqualTo(data);
    }
  }
}
