package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.election.LeaderElection;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The leader election of a namenode over MariaDB never waits for a connection of the shared pool,
 * and a namenode whose pool cannot serve its threads refuses to start.
 */
// Serial: the leader's 250 ms rounds, counted against the wall clock, lag behind a second test
// JVM's load on a two-core machine (docs/development.md, "The whole suite").
@Tag("serial")
class ElectionConnectionsTest {

  @Test
  void leaderKeepsItsRoundsOnTimeWhileEveryPooledConnectionIsHeld() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(HopsConfig.ELECTION_PERIOD_MS, 250);
    conf.setLong(HopsConfig.CONNECTION_TIMEOUT_MS, 1000);
    try (HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(conf)) {
      assumeTrue(cluster != null, "HOPS_TEST_MYSQL_URL is not set");
      HopsNameNode nn = cluster.namenode();
      LeaderElection election = nn.election();
      assertThat(election.isLeader()).isTrue();
      AtomicInteger losses = new AtomicInteger();
      election.addListener(
          (leader, epoch) -> {
            if (!leader) {
              losses.incrementAndGet();
            }
          });
      Storage shared = nn.namesystem().storage();
      long poolSize = shared.poolUsage().get("max");
      List<Transaction> held = new ArrayList<>();
      try {
        // What RPC handlers stuck in long transactions do: hold every connection of the pool.
        for (int i = 0; i < poolSize; i++) {
          held.add(shared.begin());
        }
        assertThat(shared.poolUsage().get("idle")).isZero();
        long rounds = election.rounds();
        long epoch = election.epoch();
        Thread.sleep(3000);
        assertThat(losses).hasValue(0);
        assertThat(election.isLeader()).isTrue();
        assertThat(election.epoch()).isEqualTo(epoch);
        // 12 periods of 250 ms: most of them ran (a loaded machine may raise the period).
        assertThat(election.rounds() - rounds).isGreaterThanOrEqualTo(6);
      } finally {
        for (Transaction tx : held) {
          tx.close();
        }
      }
    }
  }

  @Test
  void namenodeRefusesToStartWhenItsPoolCannotServeItsThreads() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    Configuration conf = new Configuration(false);
    db.forEach(conf::set);
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt(NamenodeConfig.HTTP_PORT, -1);
    conf.setInt("dfs.namenode.handler.count", 64);
    conf.setInt(HopsConfig.POOL_SIZE, 32);
    assertThatThrownBy(() -> HopsNameNode.start(conf))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("hops.metadata.pool.size = 32")
        .hasMessageContaining("dfs.namenode.handler.count (64)")
        .hasMessageContaining("hops.namenode.subtree.threads (4)")
        .hasMessageContaining("at least 72");
    conf.setInt(HopsConfig.POOL_SIZE, 72);
    try (HopsNameNode nn = HopsNameNode.start(conf)) {
      assertThat(nn.election().isLeader()).isTrue();
    }
  }
}
