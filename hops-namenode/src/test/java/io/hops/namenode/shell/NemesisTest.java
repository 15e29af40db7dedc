package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
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
 * is there, and the namespace check is clean. The run lasts until every kind of fault has been
 * injected once (about 40 s); {@code -Dhops.nemesis.seconds=N} runs rounds for at least N s.
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

  private ProcessCluster cluster;
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong lastCompletion = new AtomicLong();
  private final AtomicLong longestGap = new AtomicLong();

  @AfterEach
  void stopAll() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Timeout(value = 900, unit = TimeUnit.SECONDS)
  void noAcknowledgedOperationIsLostUnderKillsPausesStallsAndPartitions() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    long seconds = Long.getLong("hops.nemesis.seconds", 0);
    long seed = Long.getLong("hops.nemesis.seed", System.nanoTime());
    System.out.printf("nemesis run: at least %d s and one round, seed %d%n", seconds, seed);
    cluster =
        ProcessCluster.throughForwarders(
            Path.of("target/nemesis/" + System.nanoTime()),
            db,
            NAMENODES,
            Map.of("hops.metadata.pool.size", "20", "dfs.blocksize", Integer.toString(BLOCK)));
    cluster.startNamenodes();
    cluster.startDatanodes(DATANODES);

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
        cluster.awaitLiveDatanodes(fs);
      }
      Worker worker = new Worker(w, fs, new Random(seed + w), stop);
      fs.mkdirs(worker.dir);
      workers.add(worker);
      Thread t = new Thread(worker, "worker-" + w);
      threads.add(t);
    }
    lastCompletion.set(System.currentTimeMillis());
    threads.forEach(Thread::start);

    long began = System.currentTimeMillis();
    Map<Fault, AtomicInteger> faults = nemesis(new Random(seed), seconds * 1000);
    long ranSeconds = (System.currentTimeMillis() - began) / 1000;

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
        ranSeconds, faults, total, acknowledged, failed, longestGap.get(), violations.size());
    assertThat(violations).as("histories the cluster did not keep").isEmpty();
    for (Fault f : Fault.values()) {
      assertThat(faults.get(f).get()).as("%s injected", f).isPositive();
    }
    assertThat(total).as("operations acknowledged under the faults").isGreaterThan(50);
  }

  /**
   * Injects faults for at least {@code millis} and at least one whole round, one at a time, every
   * kind in turn in a random order. Most hit the namenode the clients are talking to: the first of
   * the nameservice, then the next one after each kill of it (the stock failover proxy goes round
   * the list), so that calls are in flight when the fault lands.
   */
  private Map<Fault, AtomicInteger> nemesis(Random random, long millis) throws Exception {
    Map<Fault, AtomicInteger> count = new EnumMap<>(Fault.class);
    for (Fault f : Fault.values()) {
      count.put(f, new AtomicInteger());
    }
    long end = System.currentTimeMillis() + millis;
    List<Fault> round = new ArrayList<>();
    int clients = 0;
    boolean begun = false;
    // At least one whole round, so that every kind is injected; more while the time lasts.
    while (!begun || !round.isEmpty() || System.currentTimeMillis() < end) {
      begun = true;
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
            cluster.forwarder(victim).freezeReplies();
            Thread.sleep(1_000);
          }
          cluster.kill(victim);
          cluster.forwarder(victim).thaw();
          if (victim == clients) {
            clients = (clients + 1) % NAMENODES;
          }
          Thread.sleep(3_000);
          cluster.startNamenode(victim);
        }
        case SIGSTOP -> {
          cluster.signal(victim, "STOP");
          Thread.sleep(5_000);
          cluster.signal(victim, "CONT");
        }
        case DATABASE_STALL -> {
          for (int i = 0; i < NAMENODES; i++) {
            cluster.forwarder(i).freeze();
          }
          Thread.sleep(4_000);
          for (int i = 0; i < NAMENODES; i++) {
            cluster.forwarder(i).thaw();
          }
        }
        case ONE_WAY_PARTITION -> {
          cluster.forwarder(victim).freezeReplies();
          Thread.sleep(5_000);
          cluster.forwarder(victim).thaw();
        }
      }
      count.get(fault).incrementAndGet();
    }
    return count;
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

  /**
   * A stock client of the three namenodes (an HA nameservice), failing over quickly: a call without
   * an answer in 2 s is resent to the next namenode, so a paused namenode may still run the first
   * copy when it resumes.
   */
  private Configuration haClient(int failovers) {
    Configuration client = cluster.haClient();
    client.setInt("dfs.client.failover.max.attempts", failovers);
    client.setLong("dfs.blocksize", BLOCK);
    client.setInt("ipc.client.rpc-timeout.ms", 2_000);
    return client;
  }
}
