package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.InProcessClients;
import io.hops.bench.client.Phase;
import io.hops.bench.client.PhaseListener;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.client.SetupResult;
import io.hops.bench.cluster.ClusterSettings;
import io.hops.bench.cluster.HopsNamenodes;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.Tables;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Workload;
import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 58, item 3: three hops namenode processes over MariaDB, each with 200 RPC handlers (what
 * HDFS operators run), under hammer-bench's Spotify mix from 32 threads: the election has
 * connections of its own, so however busy the handlers keep the pool and the two cores, the leader
 * never changes (the database's {@code leader_epoch} stays where the start left it) and no client
 * operation fails. {@code -Dhops.bench.many-handlers.seconds=N} sets the measured time (30 s by
 * default: thirty election periods, or three of the longest a slow namenode may stretch one to,
 * while a leader whose counter stalls for two is replaced; the run is 120). Tagged
 * "serial": it runs alone, after the module's other tests.
 */
@Tag("serial")
class ManyHandlersTest {
  private static final int HANDLERS = 200;
  private static final int THREADS = 32;

  private final Path dir = Path.of("target", "many-handlers", String.valueOf(System.nanoTime()));

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void threeNamenodesOf200HandlersKeepTheirLeaderUnderTheMix() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    long millis = TimeUnit.SECONDS.toMillis(Long.getLong("hops.bench.many-handlers.seconds", 30));
    ClusterSettings s =
        new ClusterSettings(
            "512m",
            HANDLERS,
            dir.resolve("work").toAbsolutePath(),
            dir.resolve("logs").toAbsolutePath(),
            System.getProperty("java.class.path"),
            "mariadb",
            db.get(HopsConfig.JDBC_URL),
            db.get(HopsConfig.JDBC_USER),
            db.get(HopsConfig.JDBC_PASSWORD),
            0,
            3,
            false,
            Map.of(),
            null);
    try (HopsNamenodes cluster = HopsNamenodes.start(s);
        Storage storage = Storages.open(DalConfig.of(db))) {
      Map<String, String> conf = new LinkedHashMap<>(BenchRunner.CLIENT_DEFAULTS);
      conf.putAll(cluster.clientConf());
      ClientSpec spec = TestPlans.client(THREADS, null, 30_000).withTarget(cluster.uri(), conf);
      InProcessClients clients = new InProcessClients(spec);
      try {
        SetupResult setup = clients.setup(PhaseListener.NONE);
        assertThat(setup.failures().errors()).isEmpty();
        long epoch = leaderEpoch(storage);
        assertThat(epoch).as("a leader was elected").isPositive();
        Phase phase = new Phase("mix", Workload.mixed(Mix.load("spotify")), 5_000, millis);
        ClusterWatch watch = new ClusterWatch(List.of(), List.of(), List.of(), cluster.database());
        PhaseResult result = clients.run(phase, watch);
        MeasuredPhase measured = new MeasuredPhase(phase, result, null, watch.work());
        System.out.print(Tables.phase("hops, 3 namenodes of " + HANDLERS + " handlers", measured));
        long after = leaderEpoch(storage);
        System.out.printf(
            "  leader epoch before the mix %d, after %d; longest gap without a completed operation"
                + " %d ms%n",
            epoch, after, result.timeline().longestGapMillis());
        assertThat(result.failures())
            .as("failed client operations:%n%s", ApacheHdfsRunTest.errors(measured))
            .isZero();
        assertThat(result.successes()).as("operations done").isPositive();
        assertThat(after).as("the leader's epoch (a change is a new leader)").isEqualTo(epoch);
      } finally {
        clients.close();
      }
    }
  }

  private static long leaderEpoch(Storage s) throws IOException {
    try (Transaction tx = s.begin()) {
      VariableRow r =
          tx.find(
              VariableRow.TABLE, VariableRow.TABLE.key("leader_epoch"), LockMode.READ_COMMITTED);
      return r == null ? -1 : r.longValue();
    }
  }
}
