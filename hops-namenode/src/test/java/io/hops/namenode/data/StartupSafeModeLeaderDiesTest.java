package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.everyBlockOn;
import static io.hops.namenode.data.BlockFiles.read;
import static io.hops.namenode.data.BlockFiles.waitFor;
import static io.hops.namenode.data.BlockFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * Three namenodes over one store restart a cluster whose replica rows were lost (so each stock
 * DataNode's report is a first one, recorded after the leader read its storages empty: it sees the
 * report only by the note the report writes), and the leader dies once two of the three datanodes
 * have reported: the new leader judges from the database alone (nothing the first one read or
 * cached), counts exactly the blocks of the two that reported, stays in startup safe mode while the
 * third is away, and leaves it once the third has reported, every namenode with it, as HDFS's
 * namenode leaves once its threshold of blocks is reported.
 */
class StartupSafeModeLeaderDiesTest {
  private static final int FILES = 30;
  private static final int SIZE = 100;

  @Test
  void aNewLeaderCountsFromTheDatabaseAndLeavesWhenTheLastBlocksAreReported() throws Exception {
    Path dir = Files.createTempDirectory("hops-ssm-leader-");
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.EMBEDDED_DIR, dir.resolve("metadata").toString());
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt(NamenodeConfig.HTTP_PORT, 0);
    conf.setLong(HopsConfig.ELECTION_PERIOD_MS, 200);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong("dfs.namenode.safemode.extension", 0);
    conf.setFloat("dfs.namenode.safemode.threshold-pct", 1.0f);
    List<DataNode> dns = new ArrayList<>();
    List<HopsNameNode> nns = new ArrayList<>();
    try (Storage storage = Storages.open(NamenodeConfig.dalConfig(conf))) {
      // A cluster writes its files, one replica each, over three datanodes.
      HopsNameNode first = HopsNameNode.start(conf, storage);
      nns.add(first);
      for (int d = 0; d < 3; d++) {
        dns.add(datanode(dir, d, List.of(first.address())));
      }
      int[] held = new int[3];
      try (DistributedFileSystem fs = client(first)) {
        waitFor("the datanodes are live", 30, () -> fs.getDataNodeStats().length == 3);
        for (int i = 0; i < FILES; i++) {
          write(fs, "/f" + i, bytes(SIZE, i), (short) 1, 1024);
        }
        waitFor("every block located", 30, () -> allLocated(fs));
        for (int d = 0; d < 3; d++) {
          held[d] = first.datanodes().replicaCount(dns.get(d).getDatanodeUuid());
        }
      }
      assertThat(held[0] + held[1] + held[2]).isEqualTo(FILES);
      assertThat(held[2]).as("the last datanode holds blocks (placement is random)").isPositive();

      // The cluster stops, and its replica rows are lost.
      first.crash();
      nns.clear();
      for (DataNode dn : dns) {
        dn.shutdown();
      }
      dns.clear();
      try (Transaction tx = storage.begin()) {
        for (ReplicaRow r : tx.scanAll(ReplicaRow.TABLE, LockMode.READ_COMMITTED)) {
          tx.delete(ReplicaRow.TABLE, r);
        }
        tx.commit();
      }

      // Three namenodes start; two datanodes come back and report.
      for (int i = 0; i < 3; i++) {
        nns.add(HopsNameNode.start(conf, storage));
      }
      List<InetSocketAddress> addresses = nns.stream().map(HopsNameNode::address).toList();
      HopsNameNode leader = awaitLeader(nns);
      // Their reports wait until the leader has read their storages empty: it sees what the
      // reports record only as they note it.
      CountDownLatch reportsHeld = new CountDownLatch(1);
      for (HopsNameNode nn : nns) {
        nn.datanodes().beforeFullReportForTesting(n -> awaitQuietly(reportsHeld));
      }
      dns.add(datanode(dir, 0, addresses));
      dns.add(datanode(dir, 1, addresses));
      waitFor(
          "the leader hears from two datanodes",
          60,
          () ->
              leader.datanodes().heardFromLive().stream()
                      .filter(n -> !n.storages().isEmpty())
                      .count()
                  == 2);
      Thread.sleep(1500); // the leader judges at least twice meanwhile
      assertThat(tip(leader)).startsWith("The reported blocks 0 needs additional " + FILES);
      reportsHeld.countDown();
      int two = held[0] + held[1];
      String twoReported =
          "The reported blocks " + two + " needs additional " + (FILES - two) + " blocks";
      waitFor(
          () -> "the leader counts the first two datanodes' blocks: " + tip(leader),
          60,
          () -> tip(leader).startsWith(twoReported));

      // The leader dies; the next one counts the same from the database.
      leader.crash();
      nns.remove(leader);
      HopsNameNode next = awaitLeader(nns);
      waitFor(
          () -> "the new leader counts the same blocks: " + tip(next),
          60,
          () -> tip(next).startsWith(twoReported));
      Thread.sleep(2000); // judgements go on: not one lets a namenode out
      assertThat(nns).allMatch(n -> n.safeMode().inStartupSafeMode());
      assertThat(tip(next)).startsWith(twoReported);
      try (DistributedFileSystem fs = client(next)) {
        assertThat(fs.setSafeMode(SafeModeAction.SAFEMODE_GET)).isTrue();
      }

      // The last datanode comes back: every namenode leaves.
      dns.add(datanode(dir, 2, addresses));
      waitFor(
          () -> "every namenode out of safe mode: " + tip(next),
          60,
          () -> nns.stream().noneMatch(n -> n.safeMode().inStartupSafeMode()));
      assertThat(tip(next))
          .startsWith(
              "The reported blocks "
                  + FILES
                  + " has reached the threshold 1.0000 of total blocks "
                  + FILES);
      for (HopsNameNode nn : nns) {
        try (DistributedFileSystem fs = client(nn)) {
          assertThat(fs.setSafeMode(SafeModeAction.SAFEMODE_GET)).isFalse();
        }
      }
      try (DistributedFileSystem fs = client(nns.get(0))) {
        for (int i = 0; i < FILES; i++) {
          assertThat(read(fs, "/f" + i, SIZE)).isEqualTo(bytes(SIZE, i));
        }
      }
    } finally {
      for (DataNode dn : dns) {
        dn.shutdown();
      }
      for (HopsNameNode nn : nns) {
        nn.close();
      }
      FileUtil.fullyDelete(dir.toFile());
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String tip(HopsNameNode nn) {
    return nn.safeMode().startupTip();
  }

  /** The leader among {@code nns}, once it judges a starting cluster. */
  private static HopsNameNode awaitLeader(List<HopsNameNode> nns) throws IOException {
    HopsNameNode[] found = new HopsNameNode[1];
    waitFor(
        "a leader",
        60,
        () -> {
          for (HopsNameNode nn : nns) {
            if (nn.election().isLeader() && nn.safeMode().inStartupSafeMode()) {
              found[0] = nn;
              return true;
            }
          }
          return false;
        });
    return found[0];
  }

  private static boolean allLocated(DistributedFileSystem fs) throws IOException {
    for (int i = 0; i < FILES; i++) {
      if (!everyBlockOn(fs, "/f" + i, 1)) {
        return false;
      }
    }
    return true;
  }

  /** Datanode {@code d} of the cluster (its directory under {@code dir}), serving {@code nns}. */
  private static DataNode datanode(Path dir, int d, List<InetSocketAddress> nns)
      throws IOException {
    Configuration base = new Configuration(false);
    base.setInt("dfs.heartbeat.interval", 1);
    base.setInt("dfs.blockreport.initialDelay", 0);
    base.setInt("ipc.client.connect.max.retries", 1);
    base.setInt("ipc.client.connect.retry.interval", 200);
    return DatanodeLauncher.start(
        DatanodeLauncher.configure(base, nns, dir.resolve("dn" + d).toFile(), "127.0.0.1"));
  }

  private static DistributedFileSystem client(HopsNameNode nn) throws IOException {
    Configuration c = new Configuration(false);
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    return (DistributedFileSystem) FileSystem.get(URI.create(nn.uri()), c);
  }
}
