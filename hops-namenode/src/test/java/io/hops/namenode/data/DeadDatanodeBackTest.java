package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.everyBlockOn;
import static io.hops.namenode.data.BlockFiles.holders;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.read;
import static io.hops.namenode.data.BlockFiles.rows;
import static io.hops.namenode.data.BlockFiles.write;
import static io.hops.namenode.data.DataFiles.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.ReportOwnership;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.junit.jupiter.api.Test;

/**
 * A datanode whose heartbeats stop past the expiry interval is declared dead by the leader, which
 * forgets its replicas; the datanode does not know (it never restarted). When its heartbeats come
 * back, the owner of its reports, here not the leader, asks it for a full report, because the
 * request lives in the database, and every replica is recorded again.
 */
class DeadDatanodeBackTest {
  private static final int BLOCK = 64 * 1024;

  @Test
  void aDatanodeDeclaredDeadAndBackHasEveryReplicaRecordedAgainByItsOwnerThatIsNotTheLeader()
      throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(BlockFiles.fastDeadDatanodes());
        HopsNameNode second = cluster.startAnotherNamenode();
        HopsNameNode third = cluster.startAnotherNamenode()) {
      HopsNameNode leader = cluster.namenode();
      List<HopsNameNode> nns = List.of(leader, second, third);
      eventually(
          15,
          "three namenodes see each other",
          () -> nns.stream().allMatch(n -> n.election().membership().ids().size() == 3));
      assertThat(leader.namesystem().blocks().isLeader()).isTrue();

      // Datanodes until one's reports are not the leader's (each is owned by one of three).
      List<DataNode> dns = new ArrayList<>();
      DataNode victim = null;
      while (victim == null) {
        DataNode dn = cluster.startDatanodes(1, new Configuration(false), second, third).get(0);
        dns.add(dn);
        long owner = ReportOwnership.ownerOf(dn.getDatanodeUuid(), leader.election().membership());
        if (owner != leader.election().id()) {
          victim = dn;
        }
      }
      if (dns.size() < 3) {
        dns.addAll(cluster.startDatanodes(3 - dns.size(), new Configuration(false), second, third));
      }
      String uuid = victim.getDatanodeUuid();
      short replication = (short) dns.size(); // nowhere to copy the dead node's replicas to
      List<String> paths = new ArrayList<>();
      List<byte[]> contents = new ArrayList<>();
      try (DistributedFileSystem fs = cluster.client(second)) {
        for (int i = 0; i < 3; i++) {
          String p = "/back/f" + i;
          byte[] data = bytes(2 * BLOCK + 7 * i, i);
          write(fs, p, data, replication, BLOCK);
          paths.add(p);
          contents.add(data);
        }
        for (String p : paths) {
          eventually(20, "every replica of " + p, () -> everyBlockOn(fs, p, replication));
        }

        DataNodeTestUtils.setHeartbeatsDisabledForTests(victim, true);
        DatanodeManager leaderDatanodes = leader.namesystem().blocks().datanodes();
        eventually(
            (int) (leaderDatanodes.expiryMillis() / 1000) + 30,
            "the leader forgot the dead datanode's replicas",
            () -> noneOn(fs, paths, uuid));
        DataNodeTestUtils.setHeartbeatsDisabledForTests(victim, false);

        eventually(
            30,
            "every replica recorded again",
            () -> paths.stream().allMatch(p -> onAll(fs, p, replication)));
        for (String p : paths) {
          assertThat(located(fs, p)).allMatch(b -> holders(b).contains(uuid));
        }
        Thread.sleep(3_000); // a few heartbeats and housekeeping rounds later
        assertThat(fs.getClient().getMissingBlocksCount()).isZero();
        for (int i = 0; i < paths.size(); i++) {
          assertThat(everyBlockOn(fs, paths.get(i), replication)).isTrue();
          assertThat(read(fs, paths.get(i), contents.get(i).length)).isEqualTo(contents.get(i));
        }
        eventually(
            10,
            "the request is gone",
            () ->
                rows(cluster, VariableRow.TABLE).stream()
                    .noneMatch(r -> r.name().endsWith(uuid) && r.name().startsWith("full_report")));
      }
    }
  }

  private static boolean noneOn(DistributedFileSystem fs, List<String> paths, String uuid)
      throws java.io.IOException {
    for (String p : paths) {
      if (located(fs, p).stream().anyMatch(b -> holders(b).contains(uuid))) {
        return false;
      }
    }
    return true;
  }

  private static boolean onAll(DistributedFileSystem fs, String path, int n) {
    try {
      return everyBlockOn(fs, path, n);
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
