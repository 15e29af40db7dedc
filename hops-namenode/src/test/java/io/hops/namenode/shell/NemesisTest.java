package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.NamespaceChecker;
import io.hops.namenode.data.TcpCut;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 58: a Jepsen-style run. Three {@code bin/hops namenode} processes over MariaDB, each
 * through a forwarder of its own, three datanode processes, and two stock HA clients doing creates,
 * appends, renames, deletes and reads, each on keys of its own and each keeping a model of its keys
 * (one gives up quickly, so that some of its calls fail). Meanwhile a nemesis picks at random among
 * SIGKILL of a namenode (started again), SIGSTOP and SIGCONT of one, a stall of the database (every
 * forwarder frozen) and a one-way partition (one namenode's statements reach the database, the
 * answers are held), and that partition ended by a SIGKILL.
 *
 * <p>An acknowledged operation must be seen by every later read. A failed one may or may not have
 * happened: its paths are read back at once (the lease recovered first, as an application would)
 * and must hold one of the outcomes it allows: the state before it, or its effect (for a write or
 * an append, any prefix of what it wrote, since the file may be closed by recovery part way). At
 * the end, every fault healed, every key reads as its model says, no file the model does not know
 * is there, and the namespace check is clean. {@code -Dhops.nemesis.seconds=N} sets the length of
 * the run (60 s by default).
 */
class NemesisTest {
  private static final int BLOCK = 1024 * 1024;
  private static final int NAMENODES = 3;
  private static final int DATANODES = 3;
  private static final int WORKERS = 2;
  private static final int KEYS = 12;

  /** How long an unanswered path may stay unreadable once its fault is over. */
  private static final long SETTLE_MS = 120_000;

  private enum Fault {
    SIGKILL,
    SIGSTOP,
    DATABASE_STALL,
    ONE_WAY_PARTITION,
    /**
     * The answers held, then SIGKILL: calls whose transactions committed die unanswered, and the
     * client resends them to another namenode (what the retry cache is for).
     */
    ONE_WAY_PARTITION_THEN_SIGKILL
  }

  private final List<Process> daemons = new ArrayList<>();
  private final Process[] namenodes = new Process[NAMENODES];
  private final int[] rpcPorts = new int[NAMENODES];
  private final TcpCut[] proxies = new TcpCut[NAMENODES];
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong lastCompletion = new AtomicLong();
  private final AtomicLong longestGap = new AtomicLong();
  private Path work;
  private int generation;

  @AfterEach
  void stopAll() throws Exception {
    for (Process p : daemons) {
      new ProcessBuilder("kill", "-CONT", Long.toString(p.pid())).start().waitFor();
      p.destroyForcibly();
    }
    for (Process p : daemons) {
      p.waitFor(10, TimeUnit.SECONDS);
    }
    for (TcpCut c : proxies) {
      if (c != null) {
        c.close();
      }
    }
  }

  @Test
  @Timeout(value = 900, unit = TimeUnit.SECONDS)
  void noAcknowledgedOperationIsLostUnderKillsPausesStallsAndPartitions() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    long seconds = Long.getLong("hops.nemesis.seconds", 60);
    long seed = Long.getLong("hops.nemesis.seed", System.nanoTime());
    System.out.printf("nemesis run: %d s, seed %d%n", seconds, seed);
    startCluster(db);

    List<Worker> workers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    for (int w = 0; w < WORKERS; w++) {
      // The first client is patient (the stock client's failover, quick); the second gives up
      // after one failover, so its calls fail and what they leave behind is checked.
      Configuration client = haClient(w == 0 ? 30 : 1);
      DistributedFileSystem fs =
          (DistributedFileSystem) FileSystem.get(FileSystem.getDefaultUri(client), client);
      if (w == 0) {
        awaitLiveDatanodes(fs);
      }
      Worker worker = new Worker(w, fs, new Random(seed + w), stop);
      fs.mkdirs(worker.dir);
      workers.add(worker);
      Thread t = new Thread(worker, "worker-" + w);
      threads.add(t);
    }
    lastCompletion.set(System.currentTimeMillis());
    threads.forEach(Thread::start);

    Map<Fault, AtomicInteger> faults = nemesis(new Random(seed), seconds * 1000);

    stop.set(true);
    for (Thread t : threads) {
      t.join(SETTLE_MS * 2);
      assertThat(t.isAlive()).as("%s stopped", t.getName()).isFalse();
    }
    for (Worker w : workers) {
      assertThat(w.error).as("worker %d ended by", w.id).isNull();
      w.checkAll();
      w.fs.close();
    }
    try (Storage s = Storages.open(DalConfig.of(db))) {
      assertThat(NamespaceChecker.violations(s)).as("the namespace's invariants").isEmpty();
    }

    Map<String, Integer> acknowledged = new TreeMap<>();
    Map<String, Integer> failed = new TreeMap<>();
    for (Worker w : workers) {
      w.acknowledged.forEach((k, v) -> acknowledged.merge(k, v, Integer::sum));
      w.failed.forEach((k, v) -> failed.merge(k, v, Integer::sum));
    }
    int total = acknowledged.values().stream().mapToInt(Integer::intValue).sum();
    System.out.printf(
        "nemesis run of %d s: faults %s; acknowledged operations %d %s; failed operations %s;"
            + " longest gap without a completed operation %d ms; acknowledged operations lost %d%n",
        seconds, faults, total, acknowledged, failed, longestGap.get(), violations.size());
    assertThat(violations).as("histories the cluster did not keep").isEmpty();
    for (Fault f : Fault.values()) {
      assertThat(faults.get(f).get()).as("%s injected", f).isPositive();
    }
    assertThat(total).as("operations acknowledged under the faults").isGreaterThan(50);
  }

  /**
   * Injects faults for {@code millis}, one at a time, every kind in turn in a random order. Most
   * hit the namenode the clients are talking to: the first of the nameservice, then the next one
   * after each kill of it (the stock failover proxy goes round the list), so that calls are in
   * flight when the fault lands.
   */
  private Map<Fault, AtomicInteger> nemesis(Random random, long millis) throws Exception {
    Map<Fault, AtomicInteger> count = new EnumMap<>(Fault.class);
    for (Fault f : Fault.values()) {
      count.put(f, new AtomicInteger());
    }
    long end = System.currentTimeMillis() + millis;
    List<Fault> round = new ArrayList<>();
    int clients = 0;
    while (System.currentTimeMillis() < end) {
      if (round.isEmpty()) {
        round.addAll(Arrays.asList(Fault.values()));
        Collections.shuffle(round, random);
      }
      Thread.sleep(2_000 + random.nextInt(3_000));
      Fault fault = round.remove(0);
      int victim = random.nextInt(4) == 0 ? random.nextInt(NAMENODES) : clients;
      System.out.printf("nemesis: %s of namenode %d%n", fault, victim);
      switch (fault) {
        case SIGKILL, ONE_WAY_PARTITION_THEN_SIGKILL -> {
          if (fault == Fault.ONE_WAY_PARTITION_THEN_SIGKILL) {
            proxies[victim].freezeReplies();
            Thread.sleep(1_000);
          }
          namenodes[victim].destroyForcibly().waitFor(30, TimeUnit.SECONDS);
          proxies[victim].thaw();
          if (victim == clients) {
            clients = (clients + 1) % NAMENODES;
          }
          Thread.sleep(3_000);
          namenodes[victim] = startNamenode(victim);
        }
        case SIGSTOP -> {
          signal("STOP", namenodes[victim]);
          Thread.sleep(5_000);
          signal("CONT", namenodes[victim]);
        }
        case DATABASE_STALL -> {
          for (TcpCut p : proxies) {
            p.freeze();
          }
          Thread.sleep(4_000);
          for (TcpCut p : proxies) {
            p.thaw();
          }
        }
        case ONE_WAY_PARTITION -> {
          proxies[victim].freezeReplies();
          Thread.sleep(5_000);
          proxies[victim].thaw();
        }
      }
      count.get(fault).incrementAndGet();
    }
    return count;
  }

  private static void signal(String signal, Process p) throws Exception {
    new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
  }

  private void completed() {
    long now = System.currentTimeMillis();
    long before = lastCompletion.getAndSet(now);
    longestGap.accumulateAndGet(now - before, Math::max);
  }

  /** One client: operations on its own keys, checked against its model of them. */
  private final class Worker implements Runnable {
    final int id;
    final DistributedFileSystem fs;
    final Random random;
    final AtomicBoolean stop;
    final org.apache.hadoop.fs.Path dir;

    /** Each key's contents as the acknowledged history says; no entry: no file. */
    final Map<String, byte[]> model = new HashMap<>();

    final Map<String, Integer> acknowledged = new ConcurrentHashMap<>();
    final Map<String, Integer> failed = new ConcurrentHashMap<>();
    volatile Throwable error;

    Worker(int id, DistributedFileSystem fs, Random random, AtomicBoolean stop) {
      this.id = id;
      this.fs = fs;
      this.random = random;
      this.stop = stop;
      this.dir = new org.apache.hadoop.fs.Path("/nemesis/w" + id);
    }

    @Override
    public void run() {
      try {
        while (!stop.get()) {
          step();
        }
      } catch (Throwable t) {
        error = t;
      }
    }

    private org.apache.hadoop.fs.Path path(String key) {
      return new org.apache.hadoop.fs.Path(dir, key);
    }

    private String anyKey() {
      return "k" + random.nextInt(KEYS);
    }

    private String absentKey() {
      for (int i = 0; i < 4 * KEYS; i++) {
        String k = anyKey();
        if (!model.containsKey(k)) {
          return k;
        }
      }
      return null;
    }

    private byte[] data(int max) {
      byte[] b = new byte[1 + random.nextInt(max)];
      random.nextBytes(b);
      return b;
    }

    void step() throws Exception {
      String key = anyKey();
      byte[] now = model.get(key);
      int choice = random.nextInt(10);
      if (now == null) {
        if (choice < 7) {
          write(key, data(256 * 1024));
        } else {
          read(key);
        }
        return;
      }
      switch (choice) {
        case 0, 1, 2 -> read(key);
        case 3, 4 -> append(key, data(64 * 1024));
        case 5 -> write(key, data(256 * 1024));
        case 6, 7 -> {
          String to = absentKey();
          if (to != null) {
            rename(key, to);
          } else {
            read(key);
          }
        }
        default -> delete(key);
      }
    }

    private void ack(String op) {
      acknowledged.merge(op, 1, Integer::sum);
      completed();
    }

    private void fail(String op, IOException e) {
      failed.merge(op + ":" + e.getClass().getSimpleName(), 1, Integer::sum);
    }

    private void violation(String what) {
      violations.add("worker " + id + ": " + what);
    }

    void write(String key, byte[] data) throws Exception {
      byte[] before = model.get(key);
      try (FSDataOutputStream out = fs.create(path(key), true, 4096, (short) 3, BLOCK)) {
        out.write(data);
      } catch (IOException e) {
        fail("create", e);
        byte[] seen = settle(key);
        if (!same(seen, before) && !prefix(seen, data, 0)) {
          violation(
              String.format(
                  "a failed create of %s (%d bytes) left %s: neither the file before (%s) nor a"
                      + " prefix of the write",
                  key, data.length, describe(seen), describe(before)));
        }
        put(key, seen);
        return;
      }
      model.put(key, data);
      ack("create");
    }

    void append(String key, byte[] data) throws Exception {
      byte[] before = model.get(key);
      byte[] after = concat(before, data);
      try (FSDataOutputStream out = fs.append(path(key))) {
        out.write(data);
      } catch (IOException e) {
        fail("append", e);
        byte[] seen = settle(key);
        if (!prefix(seen, after, before.length)) {
          violation(
              String.format(
                  "a failed append of %d bytes to %s (%d bytes) left %s",
                  data.length, key, before.length, describe(seen)));
        }
        put(key, seen);
        return;
      }
      model.put(key, after);
      ack("append");
    }

    void rename(String from, String to) throws Exception {
      byte[] moved = model.get(from);
      boolean done;
      try {
        done = fs.rename(path(from), path(to));
      } catch (IOException e) {
        fail("rename", e);
        byte[] src = settle(from);
        byte[] dst = settle(to);
        boolean notDone = same(src, moved) && dst == null;
        boolean isDone = src == null && same(dst, moved);
        if (!notDone && !isDone) {
          violation(
              String.format(
                  "a failed rename of %s (%s) to %s left %s and %s",
                  from, describe(moved), to, describe(src), describe(dst)));
        }
        put(from, src);
        put(to, dst);
        return;
      }
      if (!done) {
        violation(
            "rename " + from + " to " + to + " returned false; " + from + " was acknowledged");
        put(from, settle(from));
        put(to, settle(to));
        return;
      }
      model.remove(from);
      model.put(to, moved);
      ack("rename");
    }

    void delete(String key) throws Exception {
      byte[] before = model.get(key);
      boolean done;
      try {
        done = fs.delete(path(key), false);
      } catch (IOException e) {
        fail("delete", e);
        byte[] seen = settle(key);
        if (seen != null && !same(seen, before)) {
          violation("a failed delete of " + key + " left " + describe(seen));
        }
        put(key, seen);
        return;
      }
      if (!done) {
        violation("delete of " + key + " returned false; it was acknowledged");
      }
      model.remove(key);
      ack("delete");
    }

    void read(String key) throws Exception {
      byte[] expected = model.get(key);
      byte[] seen;
      try {
        seen = readAll(path(key));
      } catch (FileNotFoundException e) {
        seen = null;
      } catch (IOException e) {
        fail("read", e);
        return;
      }
      if (!same(seen, expected)) {
        violation(
            String.format(
                "read of %s gave %s; the history says %s",
                key, describe(seen), describe(expected)));
        put(key, seen);
      }
      ack("read");
    }

    private void put(String key, byte[] contents) {
      if (contents == null) {
        model.remove(key);
      } else {
        model.put(key, contents);
      }
    }

    /**
     * What {@code key} holds once its lease is recovered and the cluster answers: its bytes, or
     * null if there is no file.
     */
    private byte[] settle(String key) throws Exception {
      org.apache.hadoop.fs.Path p = path(key);
      long deadline = System.currentTimeMillis() + SETTLE_MS;
      IOException last = null;
      while (System.currentTimeMillis() < deadline) {
        try {
          if (!fs.recoverLease(p)) {
            Thread.sleep(500);
            continue;
          }
          return readAll(p);
        } catch (FileNotFoundException e) {
          return null;
        } catch (IOException e) {
          last = e;
          Thread.sleep(500);
        }
      }
      throw new AssertionError(
          "worker " + id + ": " + key + " did not become readable in " + SETTLE_MS + " ms", last);
    }

    private byte[] readAll(org.apache.hadoop.fs.Path p) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (FSDataInputStream in = fs.open(p)) {
        in.transferTo(out);
      }
      return out.toByteArray();
    }

    /** With every fault healed: every key as the model says, and no file the model lacks. */
    void checkAll() throws Exception {
      TreeSet<String> keys = new TreeSet<>(model.keySet());
      for (FileStatus f : fs.listStatus(dir)) {
        keys.add(f.getPath().getName());
      }
      for (String key : keys) {
        byte[] seen = settle(key);
        if (!same(seen, model.get(key))) {
          violation(
              String.format(
                  "at the end %s holds %s; the history says %s",
                  key, describe(seen), describe(model.get(key))));
        }
      }
    }
  }

  private static boolean same(byte[] a, byte[] b) {
    return a == null ? b == null : b != null && Arrays.equals(a, b);
  }

  /** Whether {@code seen} is a prefix of {@code full} at least {@code min} bytes long. */
  private static boolean prefix(byte[] seen, byte[] full, int min) {
    return seen != null
        && seen.length >= min
        && seen.length <= full.length
        && Arrays.equals(seen, 0, seen.length, full, 0, seen.length);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static String describe(byte[] b) {
    return b == null ? "no file" : b.length + " bytes (" + Arrays.hashCode(b) + ")";
  }

  private void awaitLiveDatanodes(DistributedFileSystem fs) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (Arrays.stream(fs.getDataNodeStats(DatanodeReportType.LIVE))
            .filter(d -> d.getCapacity() > 0)
            .count()
        < DATANODES) {
      assertThat(System.nanoTime()).as("datanodes did not come up").isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  /**
   * A stock client of the three namenodes (an HA nameservice), failing over quickly: a call without
   * an answer in 2 s is resent to the next namenode, so a paused namenode may still run the first
   * copy when it resumes.
   */
  private Configuration haClient(int failovers) {
    Configuration client = new Configuration(false);
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (int port : rpcPorts) {
      addresses.add(new InetSocketAddress("127.0.0.1", port));
    }
    DatanodeLauncher.setNamenodes(client, addresses);
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    client.setInt("ipc.client.connect.max.retries", 1);
    client.setInt("ipc.client.connect.retry.interval", 100);
    client.setInt("dfs.client.failover.max.attempts", failovers);
    client.setInt("dfs.client.failover.sleep.base.millis", 100);
    client.setInt("dfs.client.failover.sleep.max.millis", 1000);
    client.setLong("dfs.blocksize", BLOCK);
    client.setInt("ipc.client.rpc-timeout.ms", 2_000);
    return client;
  }

  /** Three namenode processes over MariaDB, each through its own forwarder, and the datanodes. */
  private void startCluster(Map<String, String> db) throws Exception {
    work = Files.createDirectories(Path.of("target/nemesis/" + System.nanoTime()));
    String url = db.get(HopsConfig.JDBC_URL);
    URI address = URI.create(url.substring("jdbc:".length()));
    for (int i = 0; i < NAMENODES; i++) {
      proxies[i] = new TcpCut(new InetSocketAddress(address.getHost(), address.getPort()));
      rpcPorts[i] = Processes.freePort();
      Map<String, String> mine = new HashMap<>(db);
      mine.put(
          HopsConfig.JDBC_URL,
          url.replace(
              address.getHost() + ":" + address.getPort(), "127.0.0.1:" + proxies[i].port()));
      writeConf(i, mine, Processes.freePort());
    }
    for (int i = 0; i < NAMENODES; i++) {
      namenodes[i] = startNamenode(i);
    }
    for (int i = 1; i <= DATANODES; i++) {
      List<String> args = new ArrayList<>(List.of("datanode", "--conf", conf(0).toString()));
      for (int port : rpcPorts) {
        args.add("--namenode");
        args.add("hdfs://127.0.0.1:" + port);
      }
      args.addAll(List.of("--data-dir", work.resolve("dn" + i).toString(), "--any-ports"));
      daemon("datanode-" + i, args.toArray(new String[0]));
    }
  }

  private Path conf(int i) {
    return work.resolve("conf-" + i);
  }

  private void writeConf(int i, Map<String, String> mine, int httpPort) throws IOException {
    Path dir = Files.createDirectories(conf(i));
    Files.writeString(
        dir.resolve("core-site.xml"),
        Processes.site("fs.defaultFS", "hdfs://127.0.0.1:" + rpcPorts[i]),
        StandardCharsets.UTF_8);
    List<String> kv = new ArrayList<>();
    mine.forEach(
        (k, v) -> {
          kv.add(k);
          kv.add(v);
        });
    kv.addAll(
        List.of(
            "hops.metadata.pool.size", "20",
            "hops.namenode.rpc.port", Integer.toString(rpcPorts[i]),
            "hops.namenode.http.port", Integer.toString(httpPort),
            "hops.namenode.housekeeping.interval.ms", "500",
            "dfs.namenode.fs-limits.min-block-size", "1024",
            "dfs.blocksize", Integer.toString(BLOCK),
            "dfs.heartbeat.interval", "1",
            "ipc.client.connect.max.retries", "2",
            "ipc.client.connect.retry.interval", "200"));
    Files.writeString(
        dir.resolve("hdfs-site.xml"),
        Processes.site(kv.toArray(new String[0])),
        StandardCharsets.UTF_8);
  }

  private Process startNamenode(int i) throws Exception {
    String name = "namenode-" + i + "-" + generation++;
    Process p = daemon(name, "namenode", "--conf", conf(i).toString());
    Path out = work.resolve(name + ".out");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(out, StandardCharsets.UTF_8).contains("namenode serving at")) {
      assertThat(p.isAlive())
          .as("%s died:%n%s", name, Processes.tail(work.resolve(name + ".err")))
          .isTrue();
      assertThat(System.nanoTime()).as("%s did not start", name).isLessThan(deadline);
      Thread.sleep(100);
    }
    return p;
  }

  private Process daemon(String name, String... args) throws IOException {
    List<String> cmd = Processes.java(false);
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(work.resolve(name + ".out").toFile())
            .redirectError(work.resolve(name + ".err").toFile())
            .start();
    daemons.add(p);
    return p;
  }
}
