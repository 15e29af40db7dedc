package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Throughput and CPU of 4 KB reads in one JVM (client, namenode and a datanode share the process):
 * T threads read N files for D seconds through hops-client from a {@code DB} directory, its reads
 * on the stock IPC client and on connections of their own ({@link DirectReadConnections}), each
 * twice, alternating; then through the stock client from a directory on the datanode. Prints
 * reads/s and CPU per read, split into the reading threads, Hadoop's IPC client threads, and the
 * rest (namenode, datanode). Run with {@code -Dhops.bench.smallread=SECONDS} (threads: {@code
 * hops.bench.smallread.threads}, 16; files: {@code hops.bench.smallread.files}, 512; {@code
 * hops.bench.smallread.stock=false} skips the stock client).
 */
class SmallReadMeasurement {
  private static final int THREADS = Integer.getInteger("hops.bench.smallread.threads", 16);
  private static final int FILES = Integer.getInteger("hops.bench.smallread.files", 512);
  private static final int SIZE = 4096;

  @Test
  @EnabledIfSystemProperty(named = "hops.bench.smallread", matches = "\\d+")
  void measure() throws Exception {
    int seconds = Integer.getInteger("hops.bench.smallread");
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    try (HopsTestCluster cluster = new HopsTestCluster(nn)) {
      cluster.startDatanodes(1);
      Configuration c = cluster.clientConf();
      c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
      c.setBoolean("fs.hdfs.impl.disable.cache", true);
      c.setInt("dfs.replication", 1);
      Configuration viaIpc = new Configuration(c);
      viaIpc.setBoolean(SmallFilesClient.DIRECT_READ, false);
      try (FileSystem hops = FileSystem.get(cluster.uri(), c);
          FileSystem hopsIpc = FileSystem.get(cluster.uri(), viaIpc)) {
        cluster.client().mkdirs(new Path("/db/a/b/c"));
        cluster.client().setStoragePolicy(new Path("/db"), "DB");
        cluster.client().mkdirs(new Path("/dn/a/b/c"));
        for (int i = 0; i < FILES; i++) {
          SmallFilesTest.write(hops, file("/db", i), SmallFilesTest.bytes(SIZE, i));
        }
        assertThat(hops.open(file("/db", 0)).getWrappedStream())
            .isInstanceOf(InlineFileInputStream.class);
        run("hops-client IPC (warm-up)", hopsIpc, "/db", Math.max(2, seconds / 3));
        run("hops-client direct (warm-up)", hops, "/db", Math.max(2, seconds / 3));
        for (int round = 0; round < 2; round++) {
          run("hops-client IPC, DB files", hopsIpc, "/db", seconds);
          run("hops-client direct, DB files", hops, "/db", seconds);
        }
        if (Boolean.parseBoolean(System.getProperty("hops.bench.smallread.stock", "true"))) {
          for (int i = 0; i < FILES; i++) {
            SmallFilesTest.write(cluster.client(), file("/dn", i), SmallFilesTest.bytes(SIZE, i));
          }
          run("stock client, datanode files", cluster.client(), "/dn", seconds);
        }
      }
    }
  }

  private static Path file(String root, int i) {
    return new Path(root + "/a/b/c/f-" + i);
  }

  private static void run(String label, FileSystem fs, String root, int seconds) throws Exception {
    ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    AtomicLong failures = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int seed = t;
      Thread th =
          new Thread(
              () -> {
                byte[] buf = new byte[SIZE * 2];
                long n = 0;
                int i = seed * 7919;
                while (!stop.get()) {
                  try (InputStream in = fs.open(file(root, Math.floorMod(i++, FILES)))) {
                    int got = 0;
                    for (int k; (k = in.read(buf, got, buf.length - got)) > 0; ) {
                      got += k;
                    }
                    if (got != SIZE) {
                      failures.incrementAndGet();
                    }
                    n++;
                  } catch (Exception e) {
                    failures.incrementAndGet();
                  }
                }
                reads.addAndGet(n);
              },
              "smallread-" + t);
      threads.add(th);
    }
    Map<Long, Long> before = cpuByThread(bean);
    long proc0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    threads.forEach(Thread::start);
    Thread.sleep(seconds * 1000L);
    // CPU of the reading threads is taken while they still live.
    Map<Long, Long> after = cpuByThread(bean);
    Map<Long, String> names = namesByThread(bean);
    stop.set(true);
    for (Thread th : threads) {
      th.join();
    }
    long wall = System.nanoTime() - t0;
    long proc = os.getProcessCpuTime() - proc0;
    long readers = 0;
    long ipc = 0;
    for (var e : after.entrySet()) {
      long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      String name = names.getOrDefault(e.getKey(), "");
      if (name.startsWith("smallread-")) {
        readers += d;
      } else if (name.startsWith("IPC Client") || name.startsWith("IPC Parameter Sending")) {
        ipc += d;
      }
    }
    long n = reads.get();
    System.out.printf(
        "SMALLREAD %-32s %8.0f reads/s  process %5.1f us/read  (readers %5.1f, IPC client threads"
            + " %5.1f, rest %5.1f)  failures %d%n",
        label,
        n * 1e9 / wall,
        proc / 1000.0 / n,
        readers / 1000.0 / n,
        ipc / 1000.0 / n,
        (proc - readers - ipc) / 1000.0 / n,
        failures.get());
    assertThat(failures.get()).isZero();
  }

  private static Map<Long, Long> cpuByThread(ThreadMXBean bean) {
    Map<Long, Long> out = new HashMap<>();
    for (long id : bean.getAllThreadIds()) {
      long cpu = bean.getThreadCpuTime(id);
      if (cpu >= 0) {
        out.put(id, cpu);
      }
    }
    return out;
  }

  private static Map<Long, String> namesByThread(ThreadMXBean bean) {
    Map<Long, String> out = new HashMap<>();
    for (ThreadInfo i : bean.getThreadInfo(bean.getAllThreadIds())) {
      if (i != null) {
        out.put(i.getThreadId(), i.getThreadName());
      }
    }
    return out;
  }
}
