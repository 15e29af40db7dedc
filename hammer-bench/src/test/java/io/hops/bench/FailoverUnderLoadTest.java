package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.FileCheck;
import io.hops.bench.client.InProcessClients;
import io.hops.bench.client.Phase;
import io.hops.bench.client.PhaseListener;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.client.SetupResult;
import io.hops.bench.cluster.ClusterSettings;
import io.hops.bench.cluster.HopsNamenodes;
import io.hops.bench.namespace.NamespaceSpec;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.Tables;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Workload;
import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Failover as clients see it: three hops namenode processes over MariaDB and three stock DataNodes;
 * hammer-bench's Spotify mix runs while a namenode (the leader first) is killed with SIGKILL every
 * 15 s and started again. No client operation fails, the files the clients believe they have are
 * exactly those in the namespace, the namespace's invariants hold, and the longest time without a
 * completed operation is reported.
 */
class FailoverUnderLoadTest {
  private static final int THREADS = 8;
  private static final long KILL_EVERY_MS = 15_000;
  private static final long DOWN_MS = 2_000;

  /** Kept after the run (under target/): the namenodes' and datanodes' logs say what happened. */
  private final Path dir =
      Path.of("target", "failover-under-load", String.valueOf(System.nanoTime()));

  /** hops-client, round-robin over the three: the goal, no failed operation. */
  @Test
  @Timeout(value = 420, unit = TimeUnit.SECONDS)
  void hopsClientSeesNoFailedOperationWhileNamenodesAreKilled() throws Exception {
    MeasuredPhase p = runWhileKilling(Map.of(), 60_000);
    assertThat(p.result().failures())
        .as("failed client operations:%n%s", ApacheHdfsRunTest.errors(p))
        .isZero();
  }

  /**
   * The stock client with Hadoop's {@code ConfiguredFailoverProxyProvider}: it stays on one
   * namenode until that one fails, then fails over in order; the retry cache makes a resent create,
   * rename or delete answer as the first attempt did, so nothing fails here either.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void stockClientWithConfiguredFailoverSeesNoFailedOperation() throws Exception {
    MeasuredPhase p =
        runWhileKilling(
            Map.of(
                "dfs.client.failover.proxy.provider." + HopsNamenodes.NAMESERVICE,
                ConfiguredFailoverProxyProvider.class.getName()),
            32_000);
    assertThat(p.result().failures())
        .as("failed client operations:%n%s", ApacheHdfsRunTest.errors(p))
        .isZero();
  }

  /**
   * Runs the mix for {@code millis} through the cluster's client settings plus {@code clientConf},
   * killing a namenode every 15 s; checks the files and the namespace; answers the phase.
   */
  private MeasuredPhase runWhileKilling(Map<String, String> clientConf, long millis)
      throws Exception {
    Map<String, String> db = database();
    ClusterSettings s =
        new ClusterSettings(
            "384m",
            16,
            dir.resolve("work").toAbsolutePath(),
            dir.resolve("logs").toAbsolutePath(),
            System.getProperty("java.class.path"),
            "mariadb",
            db.get(HopsConfig.JDBC_URL),
            db.get(HopsConfig.JDBC_USER),
            db.get(HopsConfig.JDBC_PASSWORD),
            3,
            3,
            false,
            Map.of(),
            null);
    try (HopsNamenodes cluster = HopsNamenodes.start(s)) {
      Map<String, String> conf = new LinkedHashMap<>(BenchRunner.CLIENT_DEFAULTS);
      conf.putAll(cluster.clientConf());
      conf.putAll(clientConf);
      ClientSpec small = TestPlans.client(THREADS, null, 30_000);
      // Files of 1 KB: creates and appends write a block through a datanode, reads read it.
      ClientSpec spec =
          new ClientSpec(
                  "",
                  Map.of(),
                  small.threads(),
                  0,
                  small.baseDir(),
                  new NamespaceSpec(7, 2, 4, 34, 8, 7, 1024),
                  small.seed(),
                  null,
                  small.graceMillis(),
                  small.setupTimeoutMillis())
              .withTarget(cluster.uri(), conf);
      InProcessClients clients = new InProcessClients(spec);
      try {
        SetupResult setup = clients.setup(PhaseListener.NONE);
        assertThat(setup.failures().errors()).isEmpty();
        Phase phase = new Phase("mix", Workload.mixed(Mix.load("spotify")), 2_000, millis);
        // Per-namenode counters restart with their namenode: only the database's are read here.
        ClusterWatch watch = new ClusterWatch(List.of(), List.of(), List.of(), cluster.database());
        Killer killer = new Killer(cluster, phase.warmupMillis(), millis);
        killer.start();
        PhaseResult result = clients.run(phase, watch);
        killer.join(TimeUnit.SECONDS.toMillis(120));
        MeasuredPhase measured = new MeasuredPhase(phase, result, null, watch.work());
        System.out.print(Tables.phase("hops", measured));
        killer.events.forEach(e -> System.out.println("  " + e));
        System.out.println("  successes per second: " + result.timeline().perSecond());
        long retried = 0;
        for (String web : cluster.namenodeWebAddresses()) {
          retried +=
              Math.max(0, ClusterWatch.attribute(ClusterWatch.operationsJson(web), "RetriedCalls"));
        }
        // A lower bound: a namenode's counters start again with it.
        System.out.println("  resent calls answered from the retry cache: at least " + retried);
        assertThat(killer.failure).as("killing and restarting").isNull();
        assertThat(killer.kills).as("namenodes killed").isEqualTo((millis - 1) / KILL_EVERY_MS);
        assertThat(killer.leaderKills).as("leaders killed").isPositive();
        assertThat(result.stuckThreads()).isZero();
        assertThat(result.timeline().longestGapMillis()).isBetween(0L, millis);

        FileCheck files = clients.checkFiles();
        System.out.printf(
            "  files: %d expected, %d missing %s, %d unexpected %s%n",
            files.expected(),
            files.missingCount(),
            files.missing(),
            files.unexpectedCount(),
            files.unexpected());
        assertThat(files.ok()).as("lost or duplicated files").isTrue();
        assertThat(files.expected()).isPositive();
        try (Storage storage = Storages.open(DalConfig.of(db))) {
          assertThat(NamespaceChecker.violations(storage)).isEmpty();
        }
        return measured;
      } finally {
        clients.close();
      }
    }
  }

  /** MariaDB settings from the environment, or a skipped test; the database emptied. */
  private static Map<String, String> database() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    return db;
  }

  /**
   * Every 15 s of the measured window: SIGKILL to a namenode (the leader, then another, then the
   * leader again, ...), 2 s down, then started again and waited for.
   */
  private static final class Killer extends Thread {
    private final HopsNamenodes cluster;
    private final long firstKill;
    private final long lastKill;
    final List<String> events = new ArrayList<>();
    volatile Exception failure;
    volatile int kills;
    volatile int leaderKills;

    Killer(HopsNamenodes cluster, long warmupMillis, long measureMillis) {
      super("namenode-killer");
      setDaemon(true);
      this.cluster = cluster;
      long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMillis);
      this.firstKill = start + TimeUnit.MILLISECONDS.toNanos(KILL_EVERY_MS);
      this.lastKill = start + TimeUnit.MILLISECONDS.toNanos(measureMillis - 1);
    }

    @Override
    public void run() {
      long window = firstKill - TimeUnit.MILLISECONDS.toNanos(KILL_EVERY_MS);
      try {
        for (long next = firstKill;
            next - lastKill < 0;
            next += TimeUnit.MILLISECONDS.toNanos(KILL_EVERY_MS)) {
          long wait = TimeUnit.NANOSECONDS.toMillis(next - System.nanoTime());
          if (wait > 0) {
            Thread.sleep(wait);
          }
          int leader = cluster.leaderIndex();
          boolean killLeader = kills % 2 == 0;
          int victim = killLeader || leader < 0 ? leader : (leader + 1) % cluster.size();
          if (victim < 0) {
            victim = kills % cluster.size();
          }
          long at = System.nanoTime();
          cluster.kill(victim);
          kills++;
          if (victim == leader) {
            leaderKills++;
          }
          events.add(
              String.format(
                  "%.1f s: SIGKILL namenode %d%s",
                  (at - window) / 1e9, victim, victim == leader ? " (the leader)" : ""));
          Thread.sleep(DOWN_MS);
          cluster.restart(victim);
          events.add(
              String.format(
                  "%.1f s: namenode %d serves again", (System.nanoTime() - window) / 1e9, victim));
        }
      } catch (Exception e) {
        failure = e;
        events.add("failed: " + e);
      }
    }
  }
}
