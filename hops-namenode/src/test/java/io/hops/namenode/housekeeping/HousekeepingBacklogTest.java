package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tx.RetryCache;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * A housekeeping round with a backlog of 100,000 entries reads a few pages of rows, not the
 * backlog: the re-replication queue's levels, the leases checked for expiry, and the replicas of a
 * dead datanode (before, each round read all of them: index scans of every level, a full scan of
 * the leases, and every replica of the dead datanode's storages in one go).
 */
class HousekeepingBacklogTest {
  private static final int BACKLOG = 100_000;
  private static final int PAGE = 1000;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.HOUSEKEEPING_PAGE_ROWS, PAGE);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    return conf;
  }

  private static void insert(Storage storage, LongFunction<List<Object>> rows) throws Exception {
    for (int i = 0; i < BACKLOG; i += 5000) {
      try (Transaction tx = storage.begin()) {
        for (long j = i; j < i + 5000; j++) {
          for (Object r : rows.apply(j)) {
            if (r instanceof UnderReplicatedBlockRow u) {
              tx.insert(UnderReplicatedBlockRow.TABLE, u);
            } else if (r instanceof LeaseRow l) {
              tx.insert(LeaseRow.TABLE, l);
            } else {
              tx.insert(ReplicaRow.TABLE, (ReplicaRow) r);
            }
          }
        }
        tx.commit();
      }
    }
  }

  private static void awaitLeader(HopsTestCluster cluster) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!cluster.namenode().namesystem().blocks().isLeader()) {
      assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /** The rows each of {@code rounds} rounds read, asserted below {@code pages} pages. */
  private static List<Long> rounds(HopsTestCluster cluster, int rounds, int pages) {
    Storage storage = cluster.namenode().namesystem().storage();
    Housekeeping housekeeping = cluster.namenode().housekeeping();
    List<Long> read = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      AccessCounts before = storage.accessCounts();
      housekeeping.runOnce();
      AccessCounts spent = storage.accessCounts().minus(before);
      read.add(spent.rowsRead());
      assertThat(spent.rowsRead())
          .as("rows read by round %s", round)
          .isLessThan((long) pages * PAGE);
    }
    return read;
  }

  @Test
  void aRoundReadsAPageOfEachReplicationLevel() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      cluster.startDatanodes(1);
      cluster.waitForLive(1);
      Storage storage = cluster.namenode().namesystem().storage();
      long now = cluster.namenode().namesystem().blocks().now();
      // Marks not due for a check (stamped an hour ahead: the check waits a heartbeat after a
      // mark), at every level: a round only pages through the queue.
      long later = now + 3_600_000;
      insert(
          storage,
          j ->
              List.of(new UnderReplicatedBlockRow(1_000_000 + j / 10, j, (int) (j % 5), later, 3)));
      awaitLeader(cluster);
      // A page of each of the five levels, and the block health census's page.
      rounds(cluster, 3, 7);
    }
  }

  @Test
  void aRoundReadsAPageOfTheLeases() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      Storage storage = cluster.namenode().namesystem().storage();
      long now = cluster.namenode().namesystem().leases().now();
      insert(storage, j -> List.of(new LeaseRow("DFSClient_backlog_" + j, now, 0)));
      awaitLeader(cluster);
      rounds(cluster, 3, 2);
      assertThat(cluster.namenode().namesystem().leases().releaseExpiredLeases()).isZero();
    }
  }

  @Test
  void aDeadDatanodeOfOneHundredThousandReplicasIsForgottenTenPagesARound() throws Exception {
    Configuration conf = conf();
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 500);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      DataNode dn = cluster.startDatanodes(1).get(0);
      cluster.waitForLive(1);
      DatanodeManager dm = cluster.namenode().namesystem().blocks().datanodes();
      String uuid = dn.getDatanodeUuid();
      StorageRef s = dm.storagesOf(uuid).get(0);
      Storage storage = cluster.namenode().namesystem().storage();
      insert(storage, j -> List.of(new ReplicaRow(1_000_000 + j / 10, j, s.id(), 0)));
      awaitLeader(cluster);
      dn.shutdown();
      long deadline = System.nanoTime() + dm.expiryMillis() * 1_000_000L + 30_000_000_000L;
      while (dm.isLive(dm.node(uuid))) {
        assertThat(System.nanoTime()).as("declared dead").isLessThan(deadline);
        Thread.sleep(200);
      }
      // Ten pages of replicas, each read again as their blocks are forgotten.
      int pages = DeadDatanodeMonitor.PAGES_PER_ROUND;
      rounds(cluster, 3, 2 * pages + 3);
      int left;
      try (Transaction tx = storage.begin()) {
        left = tx.findKeysByIndex(ReplicaRow.TABLE, "storage_id", s.id()).size();
      }
      // Three rounds forgot ten pages each (and maybe the round a namenode runs at once when it
      // becomes the leader again, on a loaded machine); the datanode's real replicas: none.
      assertThat(left).isBetween(BACKLOG - 4 * pages * PAGE, BACKLOG - 3 * pages * PAGE);
    }
  }

  /**
   * {@code n} retry-cache entries of one client expiring at {@code minute}, call ids from {@code
   * from}.
   */
  private static void insertRetryEntries(
      Storage storage, byte[] client, int from, int n, long minute) throws Exception {
    for (int i = from; i < from + n; i += 5000) {
      try (Transaction tx = storage.begin()) {
        for (int j = i; j < Math.min(from + n, i + 5000); j++) {
          tx.insert(
              RetryCacheRow.TABLE, new RetryCacheRow(client, j, (byte) 1, minute, new byte[0]));
        }
        tx.commit();
      }
    }
  }

  private static long retryEntries(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.countAll(RetryCacheRow.TABLE);
    }
  }

  /**
   * 100,000 expired retry-cache entries of one client, and 10,000 live ones of another that sorts
   * before it: a round reads what it removes (four pages, twice: the walk, then locked to delete
   * them) and a probe of the live client, neither the live entries nor the table; the expired ones
   * go in rounds, a range delete per read of them (not a delete per entry), the live ones stay.
   */
  @Test
  void aRoundRemovesFourPagesOfExpiredRetryCacheEntriesAndReadsNoMore() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      Storage storage = cluster.namenode().namesystem().storage();
      awaitLeader(cluster);
      long now = cluster.namenode().namesystem().blocks().now();
      long expired = RetryCache.ceilMinute(now) - 30 * RetryCache.MINUTE;
      insertRetryEntries(storage, "expired-client-1".getBytes(), 0, BACKLOG, expired);
      insertRetryEntries(storage, "alive-client-123".getBytes(), 0, BACKLOG / 10, now + 3_600_000);
      List<Long> read = rounds(cluster, 3, 9);
      assertThat(read).allMatch(r -> r >= 4 * PAGE, "each round removed four pages");
      assertThat(retryEntries(storage)).isEqualTo(BACKLOG + BACKLOG / 10 - 3 * 4 * PAGE);
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      AccessCounts before = storage.accessCounts();
      housekeeping.runOnce();
      AccessCounts spent = storage.accessCounts().minus(before);
      assertThat(retryEntries(storage)).isEqualTo(BACKLOG + BACKLOG / 10 - 4 * 4 * PAGE);
      // A read doubles up to a page: 1, 2, 4, ... 256, then pages of 500 (PAGE is 1,000 here).
      assertThat(spent.keysDeleted())
          .as("keys deleted by a round that removed %s entries", 4 * PAGE)
          .isLessThanOrEqualTo(20);
      for (int i = 0; i < BACKLOG / (4 * PAGE) + 2; i++) {
        housekeeping.runOnce();
      }
      assertThat(retryEntries(storage)).isEqualTo(BACKLOG / 10);
    }
  }

  /**
   * Many clients whose entries are all live, then one whose entries expired: a round passes at most
   * a page of clients, reading the first entry of each and seeking past it, and the next round goes
   * on from there; a client with expired entries followed by live ones loses only the expired ones.
   */
  @Test
  void aRoundProbesEachLiveClientOnceAndGoesOnWhereTheLastStopped() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      Storage storage = cluster.namenode().namesystem().storage();
      awaitLeader(cluster);
      long now = cluster.namenode().namesystem().blocks().now();
      long expired = RetryCache.ceilMinute(now) - 30 * RetryCache.MINUTE;
      long live = now + 3_600_000;
      int clients = PAGE + 44;
      for (int c = 0; c < clients; c++) {
        insertRetryEntries(storage, String.format("live-%04d", c).getBytes(), 0, 50, live);
      }
      // Sorts after every live client: expired call ids 0-99, then live ones 100-129.
      byte[] mixed = "mixed-client".getBytes();
      insertRetryEntries(storage, mixed, 0, 100, expired);
      insertRetryEntries(storage, mixed, 100, 30, live);
      long all = clients * 50L + 130;
      List<Long> first = rounds(cluster, 1, 5);
      long probes = (long) PAGE * RetryCacheExpiry.PROBE;
      // The round's other tasks read a few rows of their own queues.
      assertThat(first.get(0)).as("a probe of each client passed").isBetween(probes, probes + 200);
      assertThat(retryEntries(storage)).as("the mixed client not reached yet").isEqualTo(all);
      rounds(cluster, 1, 5);
      assertThat(retryEntries(storage)).isEqualTo(all - 100);
      try (Transaction tx = storage.begin()) {
        List<RetryCacheRow> left =
            tx.scanFrom(RetryCacheRow.TABLE, mixed, null, 1000, LockMode.READ_COMMITTED);
        assertThat(left).hasSize(30).allMatch(r -> r.callId() >= 100);
      }
    }
  }
}
