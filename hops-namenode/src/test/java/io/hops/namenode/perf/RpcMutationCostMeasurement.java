package io.hops.namenode.perf;

import io.hops.common.HopsConfig;
import io.hops.namenode.HopsTestCluster;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Namenode CPU and throughput of mutations through real Hadoop IPC: client threads call mkdirs,
 * create (and close) and rename through DistributedFileSystem against a namenode over a file-backed
 * embedded store (fsync on commit). The namenode's CPU is the process's minus the client's
 * threads'. Run with {@code -Dhops.bench.rpccost=SECONDS} (threads: {@code
 * hops.bench.rpccost.threads}, 16; ops: {@code hops.bench.rpccost.ops}; deferred responses: {@code
 * hops.bench.rpccost.deferred}, true); prints a table.
 */
class RpcMutationCostMeasurement {
  private static final int THREADS = Integer.getInteger("hops.bench.rpccost.threads", 16);

  interface Op {
    void run(DistributedFileSystem fs, int thread, long i) throws Exception;
  }

  @Test
  @EnabledIfSystemProperty(named = "hops.bench.rpccost", matches = "\\d+")
  void measure() throws Exception {
    int seconds = Integer.getInteger("hops.bench.rpccost");
    java.nio.file.Path dir = Files.createTempDirectory("rpccost");
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(HopsConfig.EMBEDDED_DIR, dir.resolve("metadata").toString());
    String deferred = System.getProperty("hops.bench.rpccost.deferred", "true");
    conf.set("hops.namenode.rpc.deferred-response", deferred);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      DistributedFileSystem fs = cluster.client();
      for (int t = 0; t < THREADS; t++) {
        fs.mkdirs(new Path("/m/t" + t));
        fs.mkdirs(new Path("/f/t" + t));
      }
      List<String> report = new ArrayList<>();
      long[] files = new long[THREADS];
      phase(report, "mkdirs", seconds, fs, (c, t, i) -> c.mkdirs(new Path("/m/t" + t + "/d" + i)));
      phase(
          report,
          "create",
          seconds,
          fs,
          (c, t, i) -> {
            c.create(new Path("/f/t" + t + "/a" + i)).close();
            files[t] = Math.max(files[t], i + 1);
          });
      phase(
          report,
          "rename",
          seconds,
          fs,
          (c, t, i) -> {
            long n = Math.max(1, files[t]);
            long j = i % n;
            boolean back = (i / n) % 2 == 1;
            c.rename(
                new Path("/f/t" + t + (back ? "/b" : "/a") + j),
                new Path("/f/t" + t + (back ? "/a" : "/b") + j));
          });
      System.out.println(
          "== RpcMutationCostMeasurement, " + THREADS + " client threads, deferred " + deferred);
      report.forEach(System.out::println);
    }
  }

  private static boolean selected(String name) {
    String only = System.getProperty("hops.bench.rpccost.ops", "mkdirs,create,rename");
    return List.of(only.split(",")).contains(name);
  }

  /** Whether a thread is the client's: the workers and Hadoop's IPC client threads. */
  private static boolean clientThread(String name) {
    return name.startsWith("rpccost-")
        || name.startsWith("IPC Client")
        || name.startsWith("IPC Parameter Sending");
  }

  private static long clientCpu(ThreadMXBean mx, Map<Long, Long> last) {
    long total = 0;
    for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info != null && clientThread(info.getThreadName())) {
        long c = mx.getThreadCpuTime(info.getThreadId());
        if (c > 0) {
          last.put(info.getThreadId(), c);
        }
      }
    }
    for (long c : last.values()) {
      total += c;
    }
    return total;
  }

  private static void phase(
      List<String> report, String name, int seconds, DistributedFileSystem fs, Op op)
      throws Exception {
    if (!selected(name)) {
      return;
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    var osBean =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    AtomicLong ops = new AtomicLong();
    long start = System.nanoTime();
    long warmEnd = start + 3_000_000_000L;
    long end = warmEnd + seconds * 1_000_000_000L;
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int tt = t;
      Thread th =
          new Thread(
              () -> {
                try {
                  long i = 0;
                  while (System.nanoTime() < warmEnd) {
                    op.run(fs, tt, i++);
                  }
                  long n = 0;
                  while (System.nanoTime() < end) {
                    op.run(fs, tt, i++);
                    n++;
                  }
                  ops.addAndGet(n);
                } catch (Exception e) {
                  throw new RuntimeException(e);
                }
              },
              "rpccost-" + name + "-" + t);
      threads.add(th);
      th.start();
    }
    Thread.sleep(Math.max(0, (warmEnd - System.nanoTime()) / 1_000_000));
    Map<Long, Long> seen = new HashMap<>();
    long client0 = clientCpu(mx, seen);
    long proc0 = osBean.getProcessCpuTime();
    // Sample the client threads' CPU while they live: a thread's time is gone once it ends.
    while (System.nanoTime() < end - 200_000_000L) {
      Thread.sleep(100);
      clientCpu(mx, seen);
    }
    long client1 = clientCpu(mx, seen);
    long proc1 = osBean.getProcessCpuTime();
    for (Thread th : threads) {
      th.join();
    }
    double n = ops.get();
    double procUs = (proc1 - proc0) / 1000.0 / n;
    double clientUs = (client1 - client0) / 1000.0 / n;
    report.add(
        String.format(
            "%-8s %8.0f ops/s  process CPU %6.1f us/op  client %6.1f us/op  namenode %6.1f us/op",
            name, n / seconds, procUs, clientUs, procUs - clientUs));
  }
}
