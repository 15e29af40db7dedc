package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.common.HopsConfig;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.junit.jupiter.api.Test;

/**
 * A database that stops answering (MariaDB behind a forwarder that the test freezes, as SIGSTOP
 * would) for three times the operations' deadline: the stock client's calls end with Hadoop's
 * retriable error by the deadline instead of waiting for the thaw, {@code /jmx}, {@code /prom} and
 * the overview answer at once and show how long the database has been silent, and after the thaw
 * the namenode serves again with nothing lost (docs/operations.md, "Failures").
 */
class FrozenDatabaseTest {
  private static final long DEADLINE_MS = 5000;
  private static final long FREEZE_MS = 3 * DEADLINE_MS;
  private static final long MARGIN_MS = 3000;
  private static final long PAGE_MS = 2000;
  private static final int CLIENTS = 4;

  /** What one client call did (the directory it made, if any), and how long it took. */
  private record Call(long millis, Throwable error, Path created) {}

  @Test
  void callsEndRetriablyByTheDeadlineWhileThePagesAnswerAndShowTheSilence() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    String url = db.get(HopsConfig.JDBC_URL);
    URI address = URI.create(url.substring("jdbc:".length()));
    try (TcpCut proxy = new TcpCut(new InetSocketAddress(address.getHost(), address.getPort()))) {
      Configuration conf = new Configuration(false);
      db.forEach(conf::set);
      conf.set(
          HopsConfig.JDBC_URL,
          url.replace(address.getHost() + ":" + address.getPort(), "127.0.0.1:" + proxy.port()));
      conf.setLong(NamenodeConfig.TX_DEADLINE_MS, DEADLINE_MS);
      conf.setLong(HopsConfig.CONNECTION_TIMEOUT_MS, 1000);
      conf.setLong(HopsConfig.LOCK_WAIT_TIMEOUT_MS, 2000);
      try (HopsTestCluster cluster = new HopsTestCluster(conf);
          DistributedFileSystem fs = cluster.client()) {
        String http = cluster.namenode().httpUri();
        String hopsBean =
            http
                + "/jmx?qry=Hadoop:service=NameNode,name="
                + cluster.namenode().metrics().nameOf("HopsDatabase");
        for (int i = 0; i < 10; i++) {
          fs.mkdirs(new Path("/before/d" + i));
          fs.create(new Path("/before/f" + i)).close();
        }
        assertThat(ageMillis(get(hopsBean).body)).isLessThan(PAGE_MS);

        // A client of CLIENTS threads keeps calling through the freeze, as in the issue: some
        // calls are waiting for the database when it freezes, others start while it is frozen.
        List<DistributedFileSystem> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
          clients.add(cluster.client());
        }
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<List<Call>>> threads = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
          DistributedFileSystem c = clients.get(i);
          String dir = "/during/c" + i + "/";
          threads.add(pool.submit(() -> keepCalling(c, dir, stop)));
        }
        Thread.sleep(1000);
        Page jmxEarly;
        Page jmxAll;
        Page jmxLate;
        Page overview;
        Page prom;
        long frozenAt = System.nanoTime();
        proxy.freeze();
        // The thaw comes on time whatever the pages do, so that a page held by the database
        // shows as slow rather than holding the test.
        ScheduledExecutorService thawer = Executors.newSingleThreadScheduledExecutor();
        thawer.schedule(proxy::thaw, FREEZE_MS, TimeUnit.MILLISECONDS);
        try {
          Thread.sleep(2000);
          jmxEarly = get(hopsBean);
          prom = get(http + "/prom");
          Thread.sleep(Math.max(0, DEADLINE_MS - millisSince(frozenAt)));
          // Read now, not 2 s in: the probe that met the freeze started up to a probe period
          // after it, so at 2 s it may have waited less than the page's 2 s before it says so.
          overview = get(http + "/");
          jmxAll = get(http + "/jmx");
          jmxLate = get(hopsBean);
          Thread.sleep(Math.max(0, FREEZE_MS - millisSince(frozenAt)));
        } finally {
          thawer.shutdown();
          thawer.awaitTermination(FREEZE_MS, TimeUnit.MILLISECONDS);
          proxy.thaw();
          stop.set(true);
        }
        List<Call> calls = new ArrayList<>();
        for (Future<List<Call>> f : threads) {
          calls.addAll(f.get());
        }
        pool.shutdown();
        long slowest = calls.stream().mapToLong(Call::millis).max().orElse(0);
        List<Call> failed = calls.stream().filter(c -> c.error() != null).toList();
        System.out.printf(
            "frozen %d ms: %d calls, %d failed, slowest %d ms; /jmx %d ms (HopsDatabase) and %d ms"
                + " (all), /prom %d ms, overview %d ms%n",
            FREEZE_MS,
            calls.size(),
            failed.size(),
            slowest,
            jmxEarly.millis,
            jmxAll.millis,
            prom.millis,
            overview.millis);

        // Not a call held until the thaw: the retriable error, as the deadline promises.
        assertThat(slowest).as("the slowest call").isLessThan(DEADLINE_MS + MARGIN_MS);
        assertThat(failed).as("calls during the freeze").isNotEmpty();
        for (Call c : failed) {
          assertThat(retriable(c.error())).as(c.error().toString()).isTrue();
        }
        for (Page p : List.of(jmxEarly, jmxAll, jmxLate, overview, prom)) {
          assertThat(p.status).as(p.body).isEqualTo(200);
        }
        assertThat(jmxEarly.millis).as("/jmx during the freeze").isLessThan(PAGE_MS);
        assertThat(jmxAll.millis).as("all of /jmx during the freeze").isLessThan(PAGE_MS);
        assertThat(jmxLate.millis).as("/jmx during the freeze").isLessThan(PAGE_MS);
        assertThat(overview.millis).as("the overview during the freeze").isLessThan(PAGE_MS);
        assertThat(prom.millis).as("/prom during the freeze").isLessThan(PAGE_MS);
        long early = ageMillis(jmxEarly.body);
        long late = ageMillis(jmxLate.body);
        assertThat(early).isGreaterThanOrEqualTo(1000);
        assertThat(late).isGreaterThan(early + 2000);
        assertThat(overview.body).contains("UNREACHABLE");
        assertThat(prom.body).contains("database_last_round_trip_age_ms");

        eventually(
            3 * (int) (DEADLINE_MS / 1000),
            "calls succeed after the thaw",
            () -> {
              try {
                return fs.mkdirs(new Path("/after"));
              } catch (IOException e) {
                return false;
              }
            });
        for (int i = 0; i < 10; i++) {
          assertThat(fs.isDirectory(new Path("/before/d" + i))).isTrue();
          assertThat(fs.isFile(new Path("/before/f" + i))).isTrue();
        }
        for (Call c : calls) {
          if (c.created() != null) {
            assertThat(fs.isDirectory(c.created())).as(c.created().toString()).isTrue();
          }
        }
        for (DistributedFileSystem c : clients) {
          assertThat(c.mkdirs(new Path("/after/" + clients.indexOf(c)))).isTrue();
          c.close();
        }
        eventually(5, "the age is small again", () -> ageMillis(get(hopsBean).body) < PAGE_MS);
        // The pool's one connection may still be held by a call of the frozen time for a moment.
        eventually(10, "the overview says healthy", () -> get(http + "/").body.contains("healthy"));
      }
    }
  }

  /** Makes directories and reads a status by turns until {@code stop}. */
  private static List<Call> keepCalling(DistributedFileSystem fs, String dir, AtomicBoolean stop) {
    List<Call> calls = new ArrayList<>();
    for (int n = 0; !stop.get(); n++) {
      Path made = new Path(dir + n);
      boolean write = n % 2 == 0;
      long start = System.nanoTime();
      try {
        if (write) {
          fs.mkdirs(made);
        } else {
          fs.getFileStatus(new Path("/before/d0"));
        }
        calls.add(new Call(millisSince(start), null, write ? made : null));
      } catch (IOException e) {
        calls.add(new Call(millisSince(start), e, null));
      }
    }
    return calls;
  }

  /** The stock client without HA retries once only: the namenode's error reaches the caller. */
  private static boolean retriable(Throwable e) {
    return e instanceof RetriableException
        || (e instanceof RemoteException r
            && RetriableException.class.getName().equals(r.getClassName()));
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000L;
  }

  private record Page(int status, String body, long millis) {}

  private static Page get(String uri) throws IOException {
    long start = System.nanoTime();
    HttpURLConnection c = (HttpURLConnection) URI.create(uri).toURL().openConnection();
    c.setReadTimeout((int) (3 * FREEZE_MS));
    try {
      int status = c.getResponseCode();
      InputStream in = status == 200 ? c.getInputStream() : c.getErrorStream();
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new Page(status, body, millisSince(start));
    } finally {
      c.disconnect();
    }
  }

  /** {@code DatabaseLastRoundTripAgeMs} of the {@code HopsDatabase} bean. */
  private static long ageMillis(String jmx) throws IOException {
    for (JsonNode bean : new ObjectMapper().readTree(jmx).get("beans")) {
      JsonNode age = bean.get("DatabaseLastRoundTripAgeMs");
      if (age != null) {
        return age.asLong();
      }
    }
    throw new AssertionError("no DatabaseLastRoundTripAgeMs in " + jmx);
  }
}
