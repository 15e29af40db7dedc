package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stock {@code hdfs dfsadmin} against hops with three stock DataNodes: {@code -report} and
 * {@code -safemode} print what HDFS would, block health comes from the tables, and only the
 * superuser may see datanodes or change the mode.
 */
class DfsAdminTest {
  private static final int BLOCK = 1024 * 1024;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    // Housekeeping would act on the corrupt marks this test makes; keep it out of the way.
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, TimeUnit.HOURS.toMillis(1));
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
    fs = cluster.client();
    write("/data/f", 2 * BLOCK + 1);
  }

  @AfterAll
  static void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void write(String path, int size) throws IOException {
    byte[] data = new byte[size];
    new Random(size).nextBytes(data);
    try (FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 3, BLOCK)) {
      out.write(data);
    }
  }

  private static StockTool.Output dfsadmin(String... args) throws Exception {
    return StockTool.run(out -> new DFSAdmin(cluster.clientConf()), args);
  }

  private static long value(String report, String label) {
    for (String line : report.split("\n")) {
      if (line.strip().startsWith(label)) {
        return Long.parseLong(line.substring(line.indexOf(':') + 1).strip().split(" ")[0]);
      }
    }
    throw new AssertionError("no '" + label + "' in\n" + report);
  }

  @Test
  void reportShowsTheLiveDatanodesTheirCapacityAndHealthyBlocks() throws Exception {
    StockTool.Output r = dfsadmin("-report");
    assertThat(r.rc()).as(r.err()).isZero();
    assertThat(r.out()).doesNotContain("Safe mode is ON").contains("Live datanodes (3):");
    assertThat(value(r.out(), "Configured Capacity:")).isPositive();
    assertThat(value(r.out(), "DFS Remaining:")).isPositive();
    assertThat(value(r.out(), "Under replicated blocks:")).isZero();
    assertThat(value(r.out(), "Blocks with corrupt replicas:")).isZero();
    assertThat(value(r.out(), "Missing blocks:")).isZero();
    for (var dn : cluster.datanodes()) {
      assertThat(r.out()).contains("Name: " + dn.getDatanodeId().getXferAddr());
    }
    StockTool.Output dead = dfsadmin("-report", "-dead");
    assertThat(dead.out()).contains("Dead datanodes (0):").doesNotContain("Name:");
  }

  @Test
  void statusAndStorageReportComeFromTheHeartbeats() throws Exception {
    FsStatus st = fs.getStatus();
    assertThat(st.getCapacity()).isPositive();
    assertThat(st.getRemaining()).isPositive().isLessThanOrEqualTo(st.getCapacity());
    DatanodeStorageReport[] reports =
        fs.getClient().getNamenode().getDatanodeStorageReport(DatanodeReportType.LIVE);
    assertThat(reports).hasSize(3);
    for (DatanodeStorageReport r : reports) {
      assertThat(r.getStorageReports()).isNotEmpty();
      assertThat(r.getStorageReports()[0].getCapacity()).isPositive();
    }
    DatanodeInfo[] all = fs.getDataNodeStats(DatanodeReportType.ALL);
    assertThat(all).hasSize(3);
    assertThat(fs.getDataNodeStats(DatanodeReportType.DECOMMISSIONING)).isEmpty();
  }

  @Test
  void safeModeRefusesWritesOnEveryNamenodeUntilLeft() throws Exception {
    HopsNameNode other = cluster.startAnotherNamenode();
    try (DistributedFileSystem otherFs = cluster.client(other)) {
      assertThat(dfsadmin("-safemode", "get").out()).isEqualTo("Safe mode is OFF\n");
      StockTool.Output enter = dfsadmin("-safemode", "enter");
      assertThat(enter.rc()).isZero();
      assertThat(enter.out()).isEqualTo("Safe mode is ON\n");
      try {
        assertThatThrownBy(() -> fs.mkdirs(new Path("/sm/new")))
            .isInstanceOf(SafeModeException.class)
            .hasMessageStartingWith("Cannot create directory /sm/new. Name node is in safe mode.")
            .hasMessageContaining("It was turned on manually.");
        assertThatThrownBy(() -> fs.create(new Path("/sm/f")).close())
            .isInstanceOf(SafeModeException.class)
            .hasMessageStartingWith("Cannot create file/sm/f. Name node is in safe mode.");
        assertThatThrownBy(() -> fs.delete(new Path("/data/f"), false))
            .isInstanceOf(SafeModeException.class);
        // Reads go on.
        assertThat(fs.getFileStatus(new Path("/data/f")).getLen()).isEqualTo(2 * BLOCK + 1);
        try (var in = fs.open(new Path("/data/f"))) {
          assertThat(in.read(new byte[1000])).isPositive();
        }
        // The other namenode reads the mode from the store.
        assertThat(otherFs.setSafeMode(SafeModeAction.SAFEMODE_GET)).isTrue();
        assertThatThrownBy(() -> otherFs.mkdirs(new Path("/sm/other")))
            .isInstanceOf(SafeModeException.class);
        assertThat(dfsadmin("-report").out()).startsWith("Safe mode is ON\n");
      } finally {
        StockTool.Output leave = dfsadmin("-safemode", "leave");
        assertThat(leave.out()).isEqualTo("Safe mode is OFF\n");
      }
      assertThat(fs.mkdirs(new Path("/sm/new"))).isTrue();
      // The other namenode follows within its refresh interval.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (true) {
        try {
          assertThat(otherFs.mkdirs(new Path("/sm/other"))).isTrue();
          break;
        } catch (SafeModeException e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
          Thread.sleep(100);
        }
      }
      assertThat(dfsadmin("-safemode", "forceExit").out()).isEqualTo("Safe mode is OFF\n");
    } finally {
      other.close();
    }
  }

  @Test
  void blockHealthIsCountedFromTheCorruptMarks() throws Exception {
    write("/health/f", 1000);
    // The file closes once one replica is reported; wait for all three (as with HDFS).
    HopsTestCluster.awaitReplicas(fs, new Path("/health/f"), 3);
    var storage = cluster.namenode().namesystem().storage();
    List<ReplicaRow> replicas = Replicas.of(storage, fs, "/health/f");
    assertThat(replicas).hasSize(3);
    try {
      Replicas.markCorrupt(storage, replicas.subList(0, 1));
      census();
      ReplicatedBlockStats one = fs.getClient().getNamenode().getReplicatedBlockStats();
      assertThat(one.getCorruptBlocks()).isEqualTo(1);
      assertThat(one.getLowRedundancyBlocks()).isEqualTo(1);
      assertThat(one.getMissingReplicaBlocks()).isZero();
      assertThat(fs.getCorruptBlocksCount()).isEqualTo(1);

      Replicas.markCorrupt(storage, replicas.subList(1, 3));
      census();
      String report = dfsadmin("-report").out();
      assertThat(value(report, "Blocks with corrupt replicas:")).isEqualTo(1);
      assertThat(value(report, "Missing blocks:")).isEqualTo(1);
      assertThat(value(report, "Missing blocks (with replication factor 1):")).isZero();
      assertThat(value(report, "Under replicated blocks:")).isZero();
      assertThat(fs.getMissingBlocksCount()).isEqualTo(1);
    } finally {
      Replicas.unmark(storage, replicas);
    }
    census();
    ReplicatedBlockStats none = fs.getClient().getNamenode().getReplicatedBlockStats();
    assertThat(none.getCorruptBlocks()).isZero();
    assertThat(none.getMissingReplicaBlocks()).isZero();
    assertThat(none.getLowRedundancyBlocks()).isZero();
  }

  @Test
  void onlyTheSuperuserSeesDatanodesOrChangesTheMode() throws Exception {
    UserGroupInformation bob =
        UserGroupInformation.createUserForTesting("bob", new String[] {"bob"});
    bob.doAs(
        (PrivilegedExceptionAction<Void>)
            () -> {
              try (DistributedFileSystem bobFs = cluster.client()) {
                // The stock client passes these on as they come, as it does with HDFS.
                assertThatThrownBy(bobFs::getDataNodeStats)
                    .isInstanceOf(RemoteException.class)
                    .satisfies(DfsAdminTest::isAccessControl)
                    .hasMessageStartingWith(
                        "Access denied for user bob. Superuser privilege is required for"
                            + " operation datanodeReport");
                assertThatThrownBy(() -> bobFs.setSafeMode(SafeModeAction.SAFEMODE_ENTER))
                    .satisfies(DfsAdminTest::isAccessControl)
                    .hasMessageContaining("operation safemode_enter");
                assertThat(bobFs.setSafeMode(SafeModeAction.SAFEMODE_GET)).isFalse();
              }
              return null;
            });
    StockTool.Output r = StockTool.run(bob, out -> new DFSAdmin(cluster.clientConf()), "-report");
    assertThat(r.rc()).isNotZero();
    assertThat(r.err()).contains("Superuser privilege is required");
  }

  /** A housekeeping round: the leader counts block health for getStats (BlockHealthCensus). */
  private static void census() {
    cluster.namenode().housekeeping().runOnce();
  }

  private static void isAccessControl(Throwable e) {
    assertThat(e).isInstanceOf(RemoteException.class);
    assertThat(((RemoteException) e).getClassName())
        .isEqualTo(AccessControlException.class.getName());
  }
}
