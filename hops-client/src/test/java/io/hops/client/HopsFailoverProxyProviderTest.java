package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.Uninterruptibles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three real namenodes in this JVM and stock {@code DistributedFileSystem} clients configured only
 * through the HA keys of one nameservice, with this provider (or Hadoop's own) as the failover
 * proxy provider. Calls are counted per namenode by the namenode's own operation metrics.
 */
class HopsFailoverProxyProviderTest {
  private static final String NS = "hops";
  private static final int CLIENTS = 16;

  private HopsTestCluster cluster;
  private final List<HopsNameNode> namenodes = new ArrayList<>();
  private final List<FileSystem> clients = new ArrayList<>();

  @BeforeEach
  void startThreeNamenodes() throws Exception {
    cluster = new HopsTestCluster();
    namenodes.add(cluster.namenode());
    namenodes.add(cluster.startAnotherNamenode());
    namenodes.add(cluster.startAnotherNamenode());
    awaitMembership(3);
  }

  /**
   * Waits until every namenode lists {@code n} live ones: a client that asked earlier would not
   * know them all until its next refresh.
   */
  private void awaitMembership(int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (HopsNameNode nn : namenodes) {
      while (MembershipClient.fetch(nn.address(), cluster.clientConf()).size() != n) {
        assertThat(System.nanoTime()).as("all namenodes listed in time").isLessThan(deadline);
        Thread.sleep(50);
      }
    }
  }

  @AfterEach
  void stop() throws IOException {
    for (FileSystem fs : clients) {
      fs.close();
    }
    for (HopsNameNode nn : namenodes.subList(1, namenodes.size())) {
      nn.close();
    }
    cluster.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"round-robin", "random"})
  void perCallPoliciesGiveEveryNamenodeAFairShare(String policy) throws Exception {
    Configuration conf = haConf(HopsFailoverProxyProvider.class, namenodes);
    conf.set(HopsClientConfig.NAMENODE_SELECTION, policy);
    List<FileSystem> fss = newClients(conf, CLIENTS);
    fss.get(0).mkdirs(new Path("/d"));

    long[] before = statCounts();
    assertThat(statForAWhile(fss, 2000, null)).isZero();
    long[] calls = minus(statCounts(), before);

    long total = calls[0] + calls[1] + calls[2];
    System.out.printf("%s: stat calls per namenode %s%n", policy, Arrays.toString(calls));
    assertThat(total).isGreaterThan(300);
    for (long n : calls) {
      assertThat((double) n / total).as("share of %s in %s", n, total).isGreaterThan(0.20);
    }
  }

  @Test
  void stickyKeepsEachClientOnOneNamenodeAndSpreadsTheClients() throws Exception {
    Configuration conf = haConf(HopsFailoverProxyProvider.class, namenodes);
    conf.set(HopsClientConfig.NAMENODE_SELECTION, "sticky");
    List<FileSystem> fss = newClients(conf, 2 * CLIENTS);
    fss.get(0).mkdirs(new Path("/d"));

    long[] clientsPerNamenode = new long[3];
    for (FileSystem fs : fss) {
      long[] before = statCounts();
      for (int i = 0; i < 50; i++) {
        fs.getFileStatus(new Path("/d"));
      }
      long[] calls = minus(statCounts(), before);
      int used = 0;
      for (int n = 0; n < 3; n++) {
        if (calls[n] > 0) {
          assertThat(calls[n]).isEqualTo(50);
          clientsPerNamenode[n]++;
          used++;
        }
      }
      assertThat(used).as("namenodes one sticky client used").isEqualTo(1);
    }
    System.out.printf("sticky: clients per namenode %s%n", Arrays.toString(clientsPerNamenode));
    // 32 clients drawn at random over 3 namenodes: all three serve some (fails with p = 3 (2/3)^32,
    // under 1e-5; with 16 clients it failed once in a few hundred runs, 3 (2/3)^16 = 0.5%).
    assertThat(clientsPerNamenode).doesNotContain(0L);
  }

  @Test
  void aNamenodeThatJoinsGetsCallsWithinARefresh() throws Exception {
    HopsNameNode third = namenodes.remove(2);
    third.close();
    awaitMembership(2);
    Configuration conf = haConf(HopsFailoverProxyProvider.class, namenodes.subList(0, 1));
    conf.setLong(HopsClientConfig.MEMBERSHIP_REFRESH_MS, 1000);
    List<FileSystem> fss = newClients(conf, CLIENTS);
    fss.get(0).mkdirs(new Path("/d"));

    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService load = Executors.newSingleThreadExecutor();
    Future<Long> failures = load.submit(() -> statForAWhile(fss, 60_000, stop));
    try {
      Thread.sleep(1500);
      assertThat(count(namenodes.get(1))).as("learned from the seed").isPositive();
      HopsNameNode joined = cluster.startAnotherNamenode();
      namenodes.add(joined);
      long started = System.nanoTime();
      while (count(joined) == 0 && System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10)) {
        Thread.sleep(50);
      }
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      System.out.printf("joined namenode got its first call after %d ms%n", tookMs);
      // One election round to be listed, then at most one refresh interval.
      assertThat(count(joined)).isPositive();
      assertThat(tookMs).isLessThan(3000);
    } finally {
      stop.set(true);
      assertThat(failures.get()).isZero();
      load.shutdown();
    }
  }

  /**
   * Closed: it leaves the membership at once; crashed (as by SIGKILL): it stays listed until
   * evicted, and only the dead-namenode TTL keeps clients away.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aNamenodeStoppedMidRunIsSkippedWithoutFailedReads(boolean crash) throws Exception {
    Configuration conf = haConf(HopsFailoverProxyProvider.class, namenodes);
    conf.setLong(HopsClientConfig.MEMBERSHIP_REFRESH_MS, 1000);
    List<FileSystem> fss = newClients(conf, CLIENTS);
    fss.get(0).mkdirs(new Path("/d"));

    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService load = Executors.newSingleThreadExecutor();
    Future<Long> failures = load.submit(() -> statForAWhile(fss, 60_000, stop));
    try {
      Thread.sleep(1000);
      HopsNameNode stopped = namenodes.remove(2);
      if (crash) {
        stopped.crash();
      } else {
        stopped.close();
      }
      long[] before = statCounts();
      Thread.sleep(2000);
      long[] after = minus(statCounts(), before);
      assertThat(after[0]).isPositive();
      assertThat(after[1]).isPositive();
    } finally {
      stop.set(true);
      assertThat(failures.get()).as("failed stat calls").isZero();
      load.shutdown();
    }
  }

  @Test
  void stockConfiguredFailoverProxyProviderStillWorks() throws Exception {
    cluster.startDatanodes(1, new Configuration(false), namenodes.get(1), namenodes.get(2));
    Configuration conf = haConf(ConfiguredFailoverProxyProvider.class, namenodes);
    FileSystem fs = newClients(conf, 1).get(0);
    Path p = new Path("/roundtrip.txt");
    try (FSDataOutputStream out = fs.create(p)) {
      out.write("hello hops".getBytes(StandardCharsets.UTF_8));
    }
    try (FSDataInputStream in = fs.open(p)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello hops");
    }
  }

  /**
   * A namenode dies after committing a delete or a rename, before it answers (the window a SIGKILL
   * can hit). The client fails over and sends the call again with its first call id, so the next
   * namenode answers the committed outcome from the retry cache: true, not the false that running
   * the call again would give (its path is gone by then).
   */
  @ParameterizedTest
  @ValueSource(strings = {"delete", "rename"})
  void aCallWhoseNamenodeDiesAfterCommittingIsAnsweredFromTheRetryCache(String op)
      throws Exception {
    FileSystem fs = newClients(haConf(HopsFailoverProxyProvider.class, namenodes), 1).get(0);
    Path file = new Path("/f");
    Path renamed = new Path("/g");
    fs.create(file).close();
    AtomicBoolean armed = new AtomicBoolean(true);
    AtomicReference<HopsNameNode> died = new AtomicReference<>();
    for (HopsNameNode nn : namenodes) {
      nn.namesystem()
          .runner()
          .observe(
              (name, counts) -> {
                if (name.equals(op) && armed.compareAndSet(true, false)) {
                  died.set(nn);
                  crashAndWait(nn); // on its RPC handler, after the commit, before the answer
                }
              });
    }

    boolean answer = op.equals("delete") ? fs.delete(file, false) : fs.rename(file, renamed);

    assertThat(died.get()).as("a namenode died after committing the " + op).isNotNull();
    assertThat(answer).as(op + " answered after the failover").isTrue();
    assertThat(fs.exists(file)).isFalse();
    assertThat(fs.exists(renamed)).isEqualTo(op.equals("rename"));
    long fromCache = 0;
    for (HopsNameNode nn : namenodes) {
      if (nn != died.get()) {
        fromCache += nn.namesystem().runner().metrics().get(op + ".retried").count();
      }
    }
    assertThat(fromCache).as("resent " + op + " answered from the retry cache").isEqualTo(1);
  }

  /**
   * Crashes {@code nn} from another thread, as a SIGKILL would, and waits until it is down (its
   * client connections closed) even though the crash interrupts this handler thread.
   */
  private static void crashAndWait(HopsNameNode nn) {
    Thread t = new Thread(nn::crash, "crash " + nn.address());
    t.start();
    Uninterruptibles.joinUninterruptibly(t);
  }

  /** The stock HA client configuration of nameservice {@value #NS} over {@code nns}. */
  private Configuration haConf(Class<?> provider, List<HopsNameNode> nns) {
    Configuration conf = cluster.clientConf();
    conf.set("fs.defaultFS", "hdfs://" + NS);
    conf.set("dfs.nameservices", NS);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < nns.size(); i++) {
      String id = "nn" + i;
      ids.add(id);
      var a = nns.get(i).address();
      conf.set("dfs.namenode.rpc-address." + NS + "." + id, a.getHostString() + ":" + a.getPort());
    }
    conf.set("dfs.ha.namenodes." + NS, String.join(",", ids));
    conf.set("dfs.client.failover.proxy.provider." + NS, provider.getName());
    return conf;
  }

  private List<FileSystem> newClients(Configuration conf, int n) throws IOException {
    List<FileSystem> fss = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      fss.add(FileSystem.get(URI.create("hdfs://" + NS), conf));
    }
    clients.addAll(fss);
    return fss;
  }

  /**
   * One thread per client stats {@code /d} until {@code millis} pass or {@code stop} is set;
   * answers the number of failed calls.
   */
  private static long statForAWhile(List<FileSystem> fss, long millis, AtomicBoolean stop)
      throws Exception {
    AtomicLong failed = new AtomicLong();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    ExecutorService pool = Executors.newFixedThreadPool(fss.size());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (FileSystem fs : fss) {
        done.add(
            pool.submit(
                () -> {
                  while (System.nanoTime() < end && (stop == null || !stop.get())) {
                    try {
                      fs.getFileStatus(new Path("/d"));
                    } catch (IOException e) {
                      failed.incrementAndGet();
                    }
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return failed.get();
  }

  private long[] statCounts() {
    long[] out = new long[namenodes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = count(namenodes.get(i));
    }
    return out;
  }

  private static long count(HopsNameNode nn) {
    return nn.namesystem().runner().metrics().get("getFileInfo").count();
  }

  private static long[] minus(long[] a, long[] b) {
    long[] out = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] - b[i];
    }
    return out;
  }
}
