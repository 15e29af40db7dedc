package io.hops.namenode.bench;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Issue 11's measurement, not a test: trees of N empty files (directories of 1,000 files) built by
 * 8 client threads, then, through the stock client, a plain rename of the tree's root, a move to
 * the trash (rename2 with TO_TRASH, which checks the whole subtree: the subtree protocol on hops),
 * and a recursive delete (the subtree protocol on hops), against a hops namenode (embedded store,
 * default bound of 1,000 inodes per transaction) and an Apache HDFS NameNode in the same run.
 * Prints seconds, the hops/HDFS ratio, the JVM's peak heap growth during the hops delete, and the
 * time hops then takes to free the deleted rows in the background. Run: {@code java -cp <test
 * classpath> io.hops.namenode.bench.SubtreeThroughput [N ...]}.
 */
public final class SubtreeThroughput {
  private static final int THREADS = 8;
  private static final int PER_DIR = 1000;

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    for (String a : args) {
      sizes.add(Integer.parseInt(a));
    }
    if (sizes.isEmpty()) {
      sizes = List.of(10_000, 100_000);
    }
    MiniDFSCluster hdfs = ApacheHdfs.start("subtree-bench");
    try (HopsTestCluster hops = new HopsTestCluster()) {
      var hdfsConf = ApacheHdfs.clientConf(hdfs, 1);
      System.out.printf("%-8s %-10s %10s %10s %8s%n", "files", "op", "hops s", "hdfs s", "ratio");
      for (int n : sizes) {
        double[] h =
            run(
                () -> get(hops.uri(), hops.clientConf()),
                n,
                () -> {
                  io.hops.namenode.subtree.Reclaims.await(
                      hops.namenode().namesystem().storage(), java.time.Duration.ofMinutes(30));
                  return null;
                });
        double[] d = run(() -> get(hdfs.getURI(), hdfsConf), n, null);
        String[] names = {"create", "rename", "trash", "delete"};
        for (int i = 0; i < names.length; i++) {
          System.out.printf(
              "%-8d %-10s %10.2f %10.2f %8.2f%n", n, names[i], h[i], d[i], h[i] / d[i]);
        }
        System.out.printf("%-8d peak heap growth during the hops delete: %d MB%n", n, (long) h[4]);
        System.out.printf(
            "%-8d hops freed the deleted rows in the background in %.2f s more%n", n, h[5]);
      }
    } finally {
      hdfs.shutdown();
    }
  }

  private static DistributedFileSystem get(
      java.net.URI uri, org.apache.hadoop.conf.Configuration c) {
    try {
      return (DistributedFileSystem) FileSystem.get(uri, c);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Seconds of create (all files), rename, move to trash, delete; and peak heap growth in MB. */
  private static double[] run(
      Supplier<DistributedFileSystem> client,
      int n,
      java.util.concurrent.Callable<Void> awaitReclaim)
      throws Exception {
    boolean sampleHeap = awaitReclaim != null;
    String top = "/st" + n;
    double[] out = new double[6];
    long t0 = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int me = t;
      done.add(
          pool.submit(
              () -> {
                try (DistributedFileSystem fs = client.get()) {
                  for (int i = me; i < n; i += THREADS) {
                    fs.create(new Path(top + "/d" + (i / PER_DIR) + "/f" + i)).close();
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    out[0] = seconds(t0);
    try (DistributedFileSystem fs = client.get()) {
      fs.mkdirs(new Path("/trash" + n));
      long t1 = System.nanoTime();
      fs.rename(new Path(top), new Path(top + "-moved"));
      out[1] = seconds(t1);
      long t2 = System.nanoTime();
      fs.getClient().rename(top + "-moved", "/trash" + n + "/t", Options.Rename.TO_TRASH);
      out[2] = seconds(t2);
      Runtime rt = Runtime.getRuntime();
      System.gc();
      long base = rt.totalMemory() - rt.freeMemory();
      AtomicLong peak = new AtomicLong(base);
      AtomicBoolean sampling = new AtomicBoolean(sampleHeap);
      Thread sampler =
          new Thread(
              () -> {
                while (sampling.get()) {
                  peak.accumulateAndGet(rt.totalMemory() - rt.freeMemory(), Math::max);
                  try {
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              });
      sampler.start();
      long t3 = System.nanoTime();
      if (!fs.delete(new Path("/trash" + n), true)) {
        throw new IllegalStateException("delete returned false");
      }
      out[3] = seconds(t3);
      if (awaitReclaim != null) {
        awaitReclaim.call();
        out[5] = seconds(t3) - out[3];
      }
      sampling.set(false);
      sampler.join();
      out[4] = (peak.get() - base) / (1024.0 * 1024);
    }
    return out;
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
