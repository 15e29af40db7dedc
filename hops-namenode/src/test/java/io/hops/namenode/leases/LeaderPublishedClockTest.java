package io.hops.namenode.leases;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.election.ClusterClock;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * The cluster clock over a database whose connections read different clocks, as NDB's SQL nodes
 * each answer {@code NOW()} from their own host (docs/architecture.md, "Cluster clock"). A
 * namenode's database clock is set 30 s behind the others' with {@link
 * ClusterClock#skewForTesting}; with {@code hops.namenode.cluster-clock=leader} every namenode
 * keeps the leader's time anyway.
 */
class LeaderPublishedClockTest {
  private static final Duration SQL_NODE_BEHIND = Duration.ofSeconds(-30);

  private static Configuration leaderClock() {
    Configuration conf = new Configuration(false);
    conf.set(NamenodeConfig.CLUSTER_CLOCK, "leader");
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 200);
    return conf;
  }

  private static ClusterClock clock(HopsNameNode nn) {
    return nn.namesystem().blocks().clock();
  }

  /** Polls until the two clocks read within {@code slackMillis} of each other, or gives up. */
  private static long settledGap(ClusterClock a, ClusterClock b, long slackMillis)
      throws InterruptedException {
    long gap = Long.MAX_VALUE;
    for (int i = 0; i < 50; i++) {
      gap = Math.abs(a.now() - b.now());
      if (gap < slackMillis) {
        return gap;
      }
      Thread.sleep(100);
    }
    return gap;
  }

  @Test
  void aFollowerKeepsTheLeadersTimeWhateverItsSqlNodesClockSays() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(leaderClock())) {
      HopsNameNode follower = cluster.startAnotherNamenode();
      try {
        clock(follower).skewForTesting(SQL_NODE_BEHIND);
        // A follower trails the leader by at most one election round (1 s by default).
        assertThat(settledGap(clock(cluster.namenode()), clock(follower), 2_500)).isLessThan(2_500);
        Thread.sleep(3_000); // a few rounds later it still agrees: its own SQL node never wins
        assertThat(Math.abs(clock(cluster.namenode()).now() - clock(follower).now()))
            .isLessThan(2_500);
      } finally {
        follower.close();
      }
    }
  }

  /**
   * A lease renewed through a namenode whose SQL node runs 30 s behind looks 30 s old to a leader
   * that compares it with its own SQL node's clock: past a 20 s hard limit, the leader would
   * release (close) the file of a writer that is alive.
   */
  @Test
  void aWriterThroughANamenodeWhoseSqlNodeIsBehindKeepsItsLease() throws Exception {
    Configuration conf = leaderClock();
    conf.setLong(DFSConfigKeys.DFS_LEASE_HARDLIMIT_KEY, 20);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      HopsNameNode follower = cluster.startAnotherNamenode();
      try {
        clock(follower).skewForTesting(SQL_NODE_BEHIND);
        settledGap(clock(cluster.namenode()), clock(follower), 2_500);
        try (DistributedFileSystem fs = cluster.client(follower)) {
          Path file = new Path("/clock/open-file");
          FSDataOutputStream out = fs.create(file);
          Thread.sleep(3_000); // many lease-expiry rounds of the leader
          assertThat(fs.isFileClosed(file)).as("released under its live writer").isFalse();
          out.close();
          assertThat(fs.getFileStatus(file).getLen()).isZero();
          assertThat(fs.isFileClosed(file)).isTrue();
        }
      } finally {
        follower.close();
      }
    }
  }

  /**
   * When the lead moves to the namenode whose SQL node is behind, the cluster's time goes on from
   * where it stood: the new leader moves forward to its database's clock only when that is ahead.
   */
  @Test
  void theClusterTimeGoesOnWhenTheLeadMovesToANamenodeWhoseSqlNodeIsBehind() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(leaderClock())) {
      HopsNameNode next = cluster.startAnotherNamenode();
      try {
        clock(next).skewForTesting(SQL_NODE_BEHIND);
        settledGap(clock(cluster.namenode()), clock(next), 2_500);
        long before = clock(next).now();
        cluster.namenode().close(); // the leader stops; the other takes over within a few rounds
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!next.election().isLeader() && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        assertThat(next.election().isLeader()).isTrue();
        Thread.sleep(2_000); // rounds as the leader, each sampling its SQL node's clock
        long after = clock(next).now();
        assertThat(after).isGreaterThanOrEqualTo(before);
        // The first leader's SQL node read this process's clock: the time is still that one.
        assertThat(Math.abs(after - System.currentTimeMillis())).isLessThan(3_000);
      } finally {
        next.close();
      }
    }
  }
}
