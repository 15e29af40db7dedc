package io.hops.namenode.bench;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.tx.OperationMetrics;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Issue 3's measurement, not a test: stat, ls, mkdirs and create through the stock client with 8
 * threads for a fixed time each, against a hops namenode (embedded store) and an Apache HDFS
 * NameNode in the same run, printed as ops/s, hops/HDFS ratios and hops's database accesses per
 * operation. Run: {@code java -cp <test classpath> io.hops.namenode.bench.MetadataThroughput
 * [seconds]}.
 */
public final class MetadataThroughput {
  private static final int THREADS = 8;

  /** One client operation on a thread's own numbered path. */
  private interface Op {
    void run(FileSystem fs, int thread, int i) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    Map<String, Op> ops = new LinkedHashMap<>();
    ops.put("mkdirs", (fs, t, i) -> fs.mkdirs(new Path("/bench/t" + t + "/d" + i)));
    ops.put("create", (fs, t, i) -> fs.create(new Path("/bench/t" + t + "/f" + i)).close());
    ops.put("stat", (fs, t, i) -> fs.getFileStatus(new Path("/bench/t" + t + "/d" + (i % 100))));
    ops.put("ls", (fs, t, i) -> fs.listStatus(new Path("/bench/t" + t + "/d" + (i % 100))));

    Configuration hdfsConf = new Configuration();
    hdfsConf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File("target/bench-hdfs").getAbsolutePath());
    hdfsConf.setInt("dfs.namenode.handler.count", 16);
    try (HopsTestCluster hops = new HopsTestCluster();
        MiniDFSCluster hdfs = new MiniDFSCluster.Builder(hdfsConf).numDataNodes(0).build()) {
      Configuration hdfsClient = new Configuration(hdfs.getConfiguration(0));
      hdfsClient.setInt("dfs.replication", 1);
      hdfsClient.setBoolean("fs.hdfs.impl.disable.cache", true);
      OperationMetrics metrics = hops.namenode().namesystem().runner().metrics();
      System.out.printf(
          "%-8s %12s %12s %8s %14s%n", "op", "hops ops/s", "hdfs ops/s", "ratio", "db acc/op");
      for (Map.Entry<String, Op> e : ops.entrySet()) {
        String rpc = rpcName(e.getKey());
        long accBefore = metrics.get(rpc).accesses();
        long countBefore = metrics.get(rpc).count();
        double h = run(() -> FileSystem.get(hops.uri(), hops.clientConf()), e.getValue(), seconds);
        double accPerOp =
            (double) (metrics.get(rpc).accesses() - accBefore)
                / Math.max(1, metrics.get(rpc).count() - countBefore);
        double a = run(() -> FileSystem.get(hdfs.getURI(), hdfsClient), e.getValue(), seconds);
        System.out.printf("%-8s %12.0f %12.0f %8.2f %14.2f%n", e.getKey(), h, a, h / a, accPerOp);
      }
    }
  }

  private static String rpcName(String op) {
    return switch (op) {
      case "stat" -> "getFileInfo";
      case "ls" -> "getListing";
      default -> op;
    };
  }

  private interface Client {
    FileSystem open() throws Exception;
  }

  private static double run(Client client, Op op, int seconds) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    AtomicInteger done = new AtomicInteger();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<Future<?>> futures = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                try (FileSystem fs = client.open()) {
                  fs.mkdirs(new Path("/bench/t" + thread));
                  for (int i = 0; System.nanoTime() < end; i++) {
                    op.run(fs, thread, i);
                    done.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    return done.get() / ((System.nanoTime() - start) / 1e9);
  }
}
