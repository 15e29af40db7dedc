package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.eventually;
import static io.hops.namenode.data.DataFiles.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.VariableRow;
import io.hops.election.Membership;
import io.hops.election.NotLeaderException;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.ReportOwnership;
import io.hops.namenode.cli.NamenodesCommand;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * Several namenodes over one store, in one JVM, with stock DataNodes reporting to all of them: one
 * elected leader does the housekeeping and a new one resumes it when the leader dies; each
 * datanode's reports are applied by exactly one owner; every namenode serves the membership.
 */
class ManyNamenodesTest {
  private static final int BLOCK = 1024 * 1024;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 500);
    return conf;
  }

  @Test
  void everyNamenodeServesTheMembershipAndOnlyTheFirstLeads() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf());
        HopsNameNode second = cluster.startAnotherNamenode();
        HopsNameNode third = cluster.startAnotherNamenode()) {
      HopsNameNode first = cluster.namenode();
      eventually(
          10,
          "all three see each other",
          () -> sees(first, 3) && sees(second, 3) && sees(third, 3));
      for (HopsNameNode nn : List.of(first, second, third)) {
        Membership m = NamenodesCommand.fetch(nn.address(), cluster.clientConf());
        assertThat(m.members()).hasSize(3);
        assertThat(m.leaderId()).isEqualTo(first.election().id());
        assertThat(m.leader().rpcAddress()).endsWith(":" + first.address().getPort());
      }
      assertThat(first.namesystem().blocks().isLeader()).isTrue();
      // Operators see the same on the web status page and in /jmx.
      String page = http(first.httpUri() + "/");
      assertThat(page).contains("<h2>Namenodes</h2>").contains("leader, epoch");
      for (HopsNameNode nn : List.of(first, second, third)) {
        assertThat(page).contains(":" + nn.address().getPort());
      }
      String jmx = http(first.httpUri() + "/jmx?qry=Hadoop:service=NameNode,name=HopsElection");
      assertThat(jmx).contains("\"LiveNamenodes\"").contains("\"Leader\" : true");
      assertThat(second.namesystem().blocks().isLeader()).isFalse();
      assertThat(third.namesystem().blocks().isLeader()).isFalse();
      // A namenode that leaves is gone from everyone's list at the next round.
      third.close();
      eventually(10, "the third namenode is gone", () -> sees(first, 2) && sees(second, 2));
    }
  }

  @Test
  void reportsOfEachDatanodeAreAppliedByExactlyOneNamenodeAndMoveWhenItDies() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf());
        HopsNameNode second = cluster.startAnotherNamenode();
        HopsNameNode third = cluster.startAnotherNamenode()) {
      List<HopsNameNode> nns = new ArrayList<>(List.of(cluster.namenode(), second, third));
      eventually(10, "all three see each other", () -> nns.stream().allMatch(n -> sees(n, 3)));
      List<DataNode> dns = cluster.startDatanodes(3, new Configuration(false), second, third);
      Path p = new Path("/owned/f");
      byte[] data = new byte[2 * BLOCK + 5];
      new Random(3).nextBytes(data);
      try (DistributedFileSystem fs = cluster.client(second)) {
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
          out.write(data);
        }
        HopsTestCluster.awaitReplicas(fs, p, 3);
      }
      assertEachReportAppliedOnceByItsOwner(dns, nns);

      // The owner of the first datanode's reports dies: another takes them over, asks for a full
      // report, and a file written meanwhile is neither lost nor copied needlessly.
      String uuid = dns.get(0).getDatanodeUuid();
      long ownerId = ReportOwnership.ownerOf(uuid, nns.get(0).election().membership());
      HopsNameNode owner = nns.stream().filter(n -> n.election().id() == ownerId).findFirst().get();
      nns.remove(owner);
      owner.crash();
      eventually(15, "the owner is out", () -> nns.stream().allMatch(n -> sees(n, 2)));
      HopsNameNode newOwner =
          nns.stream()
              .filter(
                  n ->
                      ReportOwnership.ownerOf(uuid, n.election().membership()) == n.election().id())
              .findFirst()
              .get();
      eventually(
          15,
          "the new owner applied a full report of " + uuid,
          () -> node(newOwner, uuid).fullReportsApplied() > 0);
      Path q = new Path("/owned/g");
      try (DistributedFileSystem fs = cluster.client(nns.get(0))) {
        try (FSDataOutputStream out = fs.create(q, true, 4096, (short) 3, BLOCK)) {
          out.write(data);
        }
        HopsTestCluster.awaitReplicas(fs, q, 3);
        assertThat(read(fs, q)).isEqualTo(data);
        assertThat(read(fs, p)).isEqualTo(data);
      }
      assertEachReportAppliedOnceByItsOwner(dns, nns);
    }
  }

  @Test
  void aWriterDoesNotWaitForTheDeadOwnerOfItsDatanodesReportsToBeReplaced() throws Exception {
    Configuration conf = conf();
    // The dead namenode stays in the membership far longer than the client retries complete().
    conf.setInt("hops.leader-election.missed-heartbeats", 120);
    try (HopsTestCluster cluster = new HopsTestCluster(conf);
        HopsNameNode second = cluster.startAnotherNamenode()) {
      List<HopsNameNode> nns = List.of(cluster.namenode(), second);
      eventually(10, "both see each other", () -> nns.stream().allMatch(n -> sees(n, 2)));
      DataNode dn = cluster.startDatanodes(1, new Configuration(false), second).get(0);
      long ownerId = ReportOwnership.ownerOf(dn.getDatanodeUuid(), second.election().membership());
      HopsNameNode owner = nns.stream().filter(n -> n.election().id() == ownerId).findFirst().get();
      HopsNameNode survivor = owner == second ? cluster.namenode() : second;
      owner.crash();
      // The datanode's reports of the new replicas reach the survivor, which does not own them;
      // the writer's addBlock (for the second block) and complete find them there all the same.
      byte[] data = new byte[BLOCK + 17];
      new Random(9).nextBytes(data);
      Path p = new Path("/receipts/f");
      try (DistributedFileSystem fs = cluster.client(survivor)) {
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
          out.write(data);
        }
        assertThat(ReportOwnership.ownerOf(dn.getDatanodeUuid(), survivor.election().membership()))
            .as("the dead namenode still owns the reports")
            .isEqualTo(ownerId);
        assertThat(fs.getFileStatus(p).getLen()).isEqualTo(data.length);
        assertThat(read(fs, p)).isEqualTo(data);
      }
    }
  }

  /**
   * Forces a full report from every datanode to every namenode; only each owner applies it. A round
   * in which some namenode's view of the membership changed (a heartbeat to the database late on a
   * loaded machine) proves nothing about ownership and is repeated.
   */
  private static void assertEachReportAppliedOnceByItsOwner(
      List<DataNode> dns, List<HopsNameNode> nns) throws Exception {
    for (int round = 0; ; round++) {
      List<List<Long>> views = views(nns);
      List<int[]> applied = fullReportRound(dns, nns);
      if (!views.equals(views(nns)) && round < 3) {
        continue;
      }
      for (int d = 0; d < dns.size(); d++) {
        String uuid = dns.get(d).getDatanodeUuid();
        for (int i = 0; i < nns.size(); i++) {
          HopsNameNode nn = nns.get(i);
          boolean owner =
              ReportOwnership.ownerOf(uuid, nn.election().membership()) == nn.election().id();
          // The owner may apply one more: the full report a new owner asks for when it takes a
          // datanode over can arrive during the round (seen once in CI). Others apply none.
          if (owner) {
            assertThat(applied.get(d)[i])
                .as("reports of %s applied by their owner, namenode %s", uuid, nn.election().id())
                .isBetween(1, 2);
          } else {
            assertThat(applied.get(d)[i])
                .as("reports of %s applied by namenode %s", uuid, nn.election().id())
                .isZero();
          }
        }
      }
      return;
    }
  }

  private static List<List<Long>> views(List<HopsNameNode> nns) {
    return nns.stream().map(n -> n.election().membership().ids()).toList();
  }

  /** How many full reports of each datanode each namenode applied after one forced report. */
  private static List<int[]> fullReportRound(List<DataNode> dns, List<HopsNameNode> nns)
      throws Exception {
    List<int[]> before = new ArrayList<>();
    for (DataNode dn : dns) {
      int[] counts = new int[nns.size()];
      for (int i = 0; i < nns.size(); i++) {
        counts[i] = node(nns.get(i), dn.getDatanodeUuid()).fullReportsApplied();
      }
      before.add(counts);
      dn.triggerBlockReport(
          new org.apache.hadoop.hdfs.client.BlockReportOptions.Factory()
              .setIncremental(false)
              .build());
    }
    List<int[]> applied = new ArrayList<>();
    for (int d = 0; d < dns.size(); d++) {
      String uuid = dns.get(d).getDatanodeUuid();
      int[] counts = before.get(d);
      eventually(
          15,
          "a full report of " + uuid + " applied",
          () -> {
            int n = 0;
            for (int i = 0; i < nns.size(); i++) {
              n += node(nns.get(i), uuid).fullReportsApplied() - counts[i];
            }
            return n >= 1;
          });
    }
    Thread.sleep(1500); // let every namenode get the reports
    for (int d = 0; d < dns.size(); d++) {
      String uuid = dns.get(d).getDatanodeUuid();
      int[] counts = new int[nns.size()];
      for (int i = 0; i < nns.size(); i++) {
        counts[i] = node(nns.get(i), uuid).fullReportsApplied() - before.get(d)[i];
      }
      applied.add(counts);
    }
    return applied;
  }

  @Test
  void aNewLeaderFinishesReplicationAndLeaseRecoveryTheOldOneStarted() throws Exception {
    Configuration conf = conf();
    conf.setLong("dfs.namenode.lease-hard-limit-sec", 4);
    try (HopsTestCluster cluster = new HopsTestCluster(conf);
        HopsNameNode second = cluster.startAnotherNamenode()) {
      HopsNameNode leader = cluster.namenode();
      cluster.startDatanodes(3, new Configuration(false), second);
      byte[] data = new byte[BLOCK + 11];
      new Random(5).nextBytes(data);
      Path replicated = new Path("/failover/replicated");
      Path open = new Path("/failover/open");
      try (DistributedFileSystem fs = cluster.client(second)) {
        try (FSDataOutputStream out = fs.create(replicated, true, 4096, (short) 1, BLOCK)) {
          out.write(data);
        }
        // A writer that dies with its file open: the hard limit's recovery is the leader's work.
        DistributedFileSystem writer = cluster.client(second);
        FSDataOutputStream out = writer.create(open, true, 4096, (short) 3, BLOCK);
        out.write(data);
        out.hflush();
        writer.getClient().closeOutputStreams(true);
        writer.close();
        fs.setReplication(replicated, (short) 3);
        leader.crash(); // in the middle of both
        eventually(10, "the second namenode leads", () -> second.namesystem().blocks().isLeader());
        HopsTestCluster.awaitReplicas(fs, replicated, 3);
        eventually(30, open + " closed by the new leader", () -> fs.isFileClosed(open));
        assertThat(read(fs, open)).isEqualTo(data);
        assertThat(read(fs, replicated)).isEqualTo(data);
      }
    }
  }

  @Test
  void aFormerLeaderCannotCommitHousekeepingAfterAnotherTookOver() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf());
        HopsNameNode second = cluster.startAnotherNamenode()) {
      HopsNameNode first = cluster.namenode();
      eventually(10, "both see each other", () -> sees(first, 2) && sees(second, 2));
      // The first namenode stalls (its rounds stop committing) until the second takes over.
      first.election().injectRoundDelay(java.time.Duration.ofSeconds(30));
      eventually(10, "the second leads", () -> second.namesystem().blocks().isLeader());
      assertThatThrownBy(
              () -> first.namesystem().runAsLeader(() -> new WriteVariable("stale-leader")))
          .isInstanceOf(NotLeaderException.class);
      second.namesystem().runAsLeader(() -> new WriteVariable("new-leader"));
      try (Transaction tx = first.namesystem().storage().begin()) {
        assertThat(
                tx.find(
                    VariableRow.TABLE,
                    VariableRow.TABLE.key("stale-leader"),
                    LockMode.READ_COMMITTED))
            .isNull();
        assertThat(
                tx.find(
                    VariableRow.TABLE,
                    VariableRow.TABLE.key("new-leader"),
                    LockMode.READ_COMMITTED))
            .isNotNull();
      }
      first.election().injectRoundDelay(java.time.Duration.ZERO);
    }
  }

  @Test
  void invalidationsStayUntilTheDatanodeReportsTheDeletion() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      cluster.startDatanodes(3);
      Path p = new Path("/gone/f");
      try (DistributedFileSystem fs = cluster.client()) {
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
          out.write(new byte[BLOCK / 2]);
        }
        HopsTestCluster.awaitReplicas(fs, p, 3);
        // The datanodes stop heartbeating for a while: the commands cannot reach them yet.
        for (DataNode dn : cluster.datanodes()) {
          org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils.setHeartbeatsDisabledForTests(
              dn, true);
        }
        fs.delete(p, false);
        assertThat(invalidations(cluster)).isEqualTo(3);
        cluster.namenode().housekeeping().runOnce(); // commands queued for the next heartbeats
        assertThat(invalidations(cluster))
            .as("rows stay once the commands are queued")
            .isEqualTo(3);
        for (DataNode dn : cluster.datanodes()) {
          org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils.setHeartbeatsDisabledForTests(
              dn, false);
        }
        eventually(30, "the deletions are reported", () -> invalidations(cluster) == 0);
        for (DataNode dn : cluster.datanodes()) {
          assertThat(blocksOn(dn, cluster)).isZero();
        }
      }
    }
  }

  @Test
  void withNoLeaderForAWhileFilesStillCloseAndNothingIsLostOnceOneIsBack() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf());
        HopsNameNode second = cluster.startAnotherNamenode()) {
      HopsNameNode first = cluster.namenode();
      List<DataNode> dns = cluster.startDatanodes(3, new Configuration(false), second);
      eventually(10, "both see each other", () -> sees(first, 2) && sees(second, 2));
      byte[] data = new byte[BLOCK + 3];
      new Random(11).nextBytes(data);
      Path doomed = new Path("/noleader/doomed");
      try (DistributedFileSystem fs = cluster.client(second)) {
        try (FSDataOutputStream out = fs.create(doomed, true, 4096, (short) 3, BLOCK)) {
          out.write(data);
        }
        HopsTestCluster.awaitReplicas(fs, doomed, 3);
        // Both namenodes stall (a database that answers slowly, say): no lease, no leader.
        first.election().injectRoundDelay(java.time.Duration.ofSeconds(6));
        second.election().injectRoundDelay(java.time.Duration.ofSeconds(6));
        eventually(
            10,
            "no leader",
            () ->
                !first.namesystem().blocks().isLeader()
                    && !second.namesystem().blocks().isLeader());
        Path written = new Path("/noleader/written");
        try (FSDataOutputStream out = fs.create(written, true, 4096, (short) 3, BLOCK)) {
          out.write(data); // closes: replicas are applied by the report owners, not the leader
        }
        fs.delete(doomed, false);
        assertThat(invalidations(cluster)).isEqualTo(2 * 3);
        first.election().injectRoundDelay(java.time.Duration.ZERO);
        second.election().injectRoundDelay(java.time.Duration.ZERO);
        eventually(
            20,
            "a leader again",
            () ->
                first.namesystem().blocks().isLeader() || second.namesystem().blocks().isLeader());
        eventually(30, "every invalidation done", () -> invalidations(cluster) == 0);
        HopsTestCluster.awaitReplicas(fs, written, 3);
        assertThat(read(fs, written)).isEqualTo(data);
        for (DataNode dn : dns) {
          assertThat(blocksOn(dn, cluster)).as("replicas on %s", dn.getDatanodeUuid()).isEqualTo(2);
        }
      }
    }
  }

  @Test
  void aSecondNamenodeOnTheSameAddressIsRefusedClearlyAndLeavesNoTrace() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      HopsNameNode first = cluster.namenode();
      Configuration same = new Configuration(first.namesystem().conf());
      same.setInt(NamenodeConfig.RPC_PORT, first.address().getPort());
      assertThatThrownBy(() -> HopsNameNode.start(same, first.namesystem().storage()))
          .isInstanceOf(java.net.BindException.class)
          .hasMessageContaining(Integer.toString(first.address().getPort()));
      Thread.sleep(1000);
      assertThat(first.election().membership().members()).hasSize(1);
      assertThat(first.namesystem().blocks().isLeader()).isTrue();
    }
  }

  private static int invalidations(HopsTestCluster cluster) throws IOException {
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.scanAll(InvalidatedBlockRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }

  /** Writes one variable row, as housekeeping writes its rows. */
  private static final class WriteVariable extends Operation<Void> {
    private final String name;

    WriteVariable(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return "writeVariable";
    }

    @Override
    protected void lock(LockPhase tx) {}

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      tx.insert(VariableRow.TABLE, new VariableRow(name, 1, null));
      return null;
    }
  }

  private static String http(String url) throws IOException {
    try (java.io.InputStream in = java.net.URI.create(url).toURL().openStream()) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static boolean sees(HopsNameNode nn, int members) {
    return nn.election().membership().members().size() == members;
  }

  private static DatanodeState node(HopsNameNode nn, String uuid) {
    DatanodeState n = nn.namesystem().blocks().datanodes().node(uuid);
    if (n == null) {
      throw new AssertionError("namenode " + nn.election().id() + " does not know " + uuid);
    }
    return n;
  }

  private static int blocksOn(DataNode dn, HopsTestCluster cluster) throws IOException {
    String pool = cluster.namenode().namesystem().blocks().blockPoolId();
    int n = 0;
    for (BlockListAsLongs list : dn.getFSDataset().getBlockReports(pool).values()) {
      n += list.getNumberOfBlocks();
    }
    return n;
  }
}
