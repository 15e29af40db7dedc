package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.bytes;
import static io.hops.namenode.data.DataFiles.eventually;
import static io.hops.namenode.data.DataFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.ReportOwnership;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.junit.jupiter.api.Test;

/**
 * Around a change of membership two namenodes' views may both make them the owner of a datanode's
 * reports, so one may apply a full report while the other applies the datanode's incremental
 * reports, out of order with it. A replica recorded after the full report was asked for survives
 * it, and a namenode that turned a datanode's report away and owns it again catches up. Over the
 * MariaDB of HOPS_TEST_MYSQL_URL when one is configured, else over the embedded store.
 */
class FullReportAcrossOwnersTest {
  private static final int BLOCK = 64 * 1024;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    // No re-replication: the stale location below would make its block look over-replicated.
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    return conf;
  }

  private static HopsTestCluster cluster() throws IOException {
    HopsTestCluster mdb = HopsTestCluster.onMariadbOrNull(conf());
    return mdb != null ? mdb : new HopsTestCluster(conf());
  }

  @Test
  void aFullReportKeepsAReplicaRecordedAfterItWasAskedForAndRemovesAStaleOne() throws Exception {
    try (HopsTestCluster cluster = cluster();
        HopsNameNode second = cluster.startAnotherNamenode()) {
      List<HopsNameNode> nns = List.of(cluster.namenode(), second);
      eventually(10, "both see each other", () -> nns.stream().allMatch(n -> sees(n, 2)));
      StorageType[] twoDisks = {StorageType.DISK, StorageType.DISK};
      DataNode dn = cluster.startDatanodes(1, new Configuration(false), twoDisks, second).get(0);
      String uuid = dn.getDatanodeUuid();
      HopsNameNode owner = ownerOf(uuid, nns);
      HopsNameNode other = owner == second ? cluster.namenode() : second;
      eventually(15, "the owner applied a first full report", () -> fullReports(owner, uuid) > 0);
      eventually(15, "the other namenode heard from the datanode", () -> heard(other, uuid));
      Storage db = owner.namesystem().storage();
      try (DistributedFileSystem fs = cluster.client(owner)) {
        // A location the datanode does not have: its replica listed on its other storage too.
        Path old = new Path("/fbr/old");
        write(fs, old, 1);
        ReplicaRow real = replicas(db, fs, old).get(0);
        int otherStorage =
            owner.namesystem().blocks().datanodes().node(uuid).storages().stream()
                .mapToInt(s -> s.ref.id())
                .filter(id -> id != real.storageId())
                .findFirst()
                .orElseThrow();
        ReplicaRow stale = new ReplicaRow(real.inodeId(), real.blockId(), otherStorage, 1);
        try (Transaction tx = db.begin()) {
          tx.insert(ReplicaRow.TABLE, stale);
          tx.commit();
        }

        // The other namenode's view makes it the owner too: it asks the datanode for a full report,
        // which waits, once it arrives, before the namenode reads what the storages have recorded.
        DatanodeManager otherDatanodes = other.namesystem().blocks().datanodes();
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        otherDatanodes.beforeFullReportForTesting(
            n -> {
              if (n.uuid().equals(uuid)) {
                arrived.countDown();
                try {
                  release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            });
        int applied = fullReports(other, uuid);
        other.namesystem().blocks().ownership().forceForTesting(uuid::equals);
        assertThat(arrived.await(30, TimeUnit.SECONDS)).as("a full report arrived").isTrue();

        // Meanwhile a file is written: the owner records its replica from the datanode's
        // incremental report, which the datanode made after the full report.
        Path fresh = new Path("/fbr/fresh");
        byte[] data = write(fs, fresh, 2);
        assertThat(replicas(db, fs, fresh)).hasSize(1);

        // The other namenode's view changes back before it applies the report: the datanode's
        // receipt of the new replica, sent to it after the report, is no longer its to apply.
        other.namesystem().blocks().ownership().forceForTesting(null);
        otherDatanodes.beforeFullReportForTesting(null);
        release.countDown();
        eventually(
            15, "the other namenode applied the report", () -> fullReports(other, uuid) > applied);
        assertThat(replicas(db, fs, fresh))
            .as("the replica recorded after the report was asked for")
            .hasSize(1);
        assertThat(replicas(db, fs, old)).as("the stale location is gone").containsExactly(real);
        Thread.sleep(3000); // the datanode's later heartbeats and reports change nothing
        assertThat(replicas(db, fs, fresh)).hasSize(1);
        assertThat(read(fs, fresh)).isEqualTo(data);
      }
    }
  }

  @Test
  void aNamenodeThatTurnedAReportAwayAsksForAFullReportOnceItOwnsTheDatanodeAgain()
      throws Exception {
    try (HopsTestCluster cluster = cluster();
        HopsNameNode second = cluster.startAnotherNamenode()) {
      List<HopsNameNode> nns = List.of(cluster.namenode(), second);
      eventually(10, "both see each other", () -> nns.stream().allMatch(n -> sees(n, 2)));
      DataNode dn = cluster.startDatanodes(1, new Configuration(false), second).get(0);
      String uuid = dn.getDatanodeUuid();
      HopsNameNode owner = ownerOf(uuid, nns);
      HopsNameNode other = owner == second ? cluster.namenode() : second;
      eventually(15, "the owner applied a first full report", () -> fullReports(owner, uuid) > 0);
      // Between two heartbeats of the datanode, the owner's view makes another namenode the owner
      // and then itself again: the incremental report that arrives meanwhile it turns away, and
      // the other namenode too, as its own view never made it the owner.
      DataNodeTestUtils.setHeartbeatsDisabledForTests(dn, true);
      owner.namesystem().blocks().ownership().forceForTesting(u -> false);
      try (DistributedFileSystem fs = cluster.client(other)) {
        write(fs, new Path("/fbr/turned-away"), 3);
      }
      eventually(
          10,
          "the owner turned the datanode's receipt away",
          () -> owner.namesystem().blocks().receipts().size() > 0);
      owner.namesystem().blocks().ownership().forceForTesting(null);
      int applied = fullReports(owner, uuid);
      DataNodeTestUtils.setHeartbeatsDisabledForTests(dn, false);
      eventually(
          15, "the owner applied a new full report", () -> fullReports(owner, uuid) > applied);
    }
  }

  private static byte[] write(DistributedFileSystem fs, Path p, long seed) throws IOException {
    byte[] data = bytes(BLOCK / 2, seed);
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
      out.write(data);
    }
    return data;
  }

  /** The replica rows of the only block of {@code p}. */
  private static List<ReplicaRow> replicas(Storage db, DistributedFileSystem fs, Path p)
      throws IOException {
    long inode = fs.getClient().getFileInfo(p.toString()).getFileId();
    try (Transaction tx = db.begin()) {
      return tx.findByPartition(ReplicaRow.TABLE, inode, LockMode.READ_COMMITTED);
    }
  }

  private static HopsNameNode ownerOf(String uuid, List<HopsNameNode> nns) {
    long id = ReportOwnership.ownerOf(uuid, nns.get(0).election().membership());
    return nns.stream().filter(n -> n.election().id() == id).findFirst().orElseThrow();
  }

  private static boolean sees(HopsNameNode nn, int members) {
    return nn.election().membership().members().size() == members;
  }

  private static boolean heard(HopsNameNode nn, String uuid) {
    DatanodeState n = nn.namesystem().blocks().datanodes().node(uuid);
    return n != null && n.heardFrom();
  }

  private static int fullReports(HopsNameNode nn, String uuid) {
    DatanodeState n = nn.namesystem().blocks().datanodes().node(uuid);
    return n == null ? 0 : n.fullReportsApplied();
  }
}
