package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RetriableException;
import org.junit.jupiter.api.Test;

/**
 * A namenode that loses its database (MariaDB, reached through a connection the test cuts) stops
 * acting as leader, so another namenode takes over; its operations fail with Hadoop's retriable
 * error within their deadline, never with a DAL exception; and when the database is back it joins
 * the election again (with a new id) and serves again.
 */
class DatabaseOutageTest {

  @Test
  void aLeaderThatLosesItsDatabaseStepsDownAnswersRetriablyAndComesBack() throws Exception {
    String url = System.getenv("HOPS_TEST_MYSQL_URL");
    assumeTrue(url != null && !url.isBlank(), "HOPS_TEST_MYSQL_URL is not set");
    URI db = URI.create(url.substring("jdbc:".length()));
    Configuration direct = new Configuration(false);
    direct.set(HopsConfig.METADATA_ENGINE, "mysql");
    direct.set(HopsConfig.JDBC_URL, url);
    direct.set(HopsConfig.JDBC_USER, System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops"));
    direct.set(
        HopsConfig.JDBC_PASSWORD, System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", "hops"));
    direct.setInt(NamenodeConfig.RPC_PORT, 0);
    try (Storage s = Storages.open(NamenodeConfig.dalConfig(direct))) {
      s.schema().createOrUpgrade();
      s.schema().clearAll();
    }
    try (TcpCut cut = new TcpCut(new InetSocketAddress(db.getHost(), db.getPort()))) {
      Configuration viaCut = new Configuration(direct);
      viaCut.set(
          HopsConfig.JDBC_URL,
          url.replace(db.getHost() + ":" + db.getPort(), "127.0.0.1:" + cut.port()));
      viaCut.setLong(NamenodeConfig.TX_DEADLINE_MS, 4000);
      viaCut.setLong(HopsConfig.CONNECTION_TIMEOUT_MS, 500);
      // The namenode behind the cut joins first, so it leads.
      try (HopsTestCluster cluster = new HopsTestCluster(viaCut);
          HopsNameNode second = HopsNameNode.start(direct)) {
        HopsNameNode first = cluster.namenode();
        eventually(
            10,
            "both see each other",
            () ->
                first.election().membership().members().size() == 2
                    && second.election().membership().members().size() == 2);
        assertThat(first.namesystem().blocks().isLeader()).isTrue();
        long oldId = first.election().id();

        cut.cut();
        eventually(5, "it stops leading", () -> !first.namesystem().blocks().isLeader());
        eventually(10, "the other takes over", () -> second.namesystem().blocks().isLeader());
        long start = System.nanoTime();
        assertThatThrownBy(() -> first.namesystem().run(ReadVariable::new))
            .isInstanceOf(RetriableException.class);
        assertThat((System.nanoTime() - start) / 1_000_000L).isLessThan(15_000);

        cut.restore();
        eventually(
            20,
            "it joins again with a new id",
            () ->
                first.election().id() > oldId
                    && first.election().membership().members().size() == 2);
        assertThat(second.namesystem().blocks().isLeader()).isTrue();
        assertThat(first.namesystem().blocks().isLeader()).isFalse();
        first.namesystem().run(ReadVariable::new);
      }
    }
  }

  /** One primary-key read: the cheapest operation that needs the database. */
  private static final class ReadVariable extends Operation<Void> {
    @Override
    public String name() {
      return "readVariable";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      tx.find(VariableRow.TABLE, VariableRow.TABLE.key("namespace_ids"), LockMode.READ_COMMITTED);
    }

    @Override
    protected Void execute(ExecutePhase tx) {
      return null;
    }
  }
}
