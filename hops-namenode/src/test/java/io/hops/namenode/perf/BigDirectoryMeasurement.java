package io.hops.namenode.perf;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.subtree.BulkTree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 59's big directory, a measurement and not a test: the cost of each call on one entry of a
 * directory of N files against the same call in a directory of 2,000, through the stock client, one
 * call at a time (create and close, stat, one full page of a listing from a random name, rename in,
 * rename out, delete), on hops (embedded store; the big directory written straight into the store
 * by {@link BulkTree}) and on Apache HDFS's NameNode (the directory made through the client by 16
 * threads) in the same run. Prints the median µs per call and the big/small ratios. Run: {@code mvn
 * -o -pl hops-namenode -am test -Dtest=BigDirectoryMeasurement
 * -Dsurefire.failIfNoSpecifiedTests=false -Dhops.bench.bigdir=1000000} (and {@code
 * -Dhops.bench.bigdir.hdfs=N} for another size on HDFS, 0 to skip it).
 */
class BigDirectoryMeasurement {
  private static final int SMALL = 2_000;
  private static final int CALLS = 300;
  private static final List<String> OPS =
      List.of("create", "stat", "list page", "rename in", "rename out", "delete");

  @Test
  @EnabledIfSystemProperty(named = "hops.bench.bigdir", matches = "\\d+")
  void measure() throws Exception {
    int n = Integer.getInteger("hops.bench.bigdir");
    int hdfsN = Integer.getInteger("hops.bench.bigdir.hdfs", n);
    Map<String, long[]> hops;
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      long t0 = System.nanoTime();
      BulkTree.build(cluster.namenode().namesystem().storage(), fs, new Path("/big"), 1, n);
      BulkTree.build(cluster.namenode().namesystem().storage(), fs, new Path("/small"), 1, SMALL);
      System.out.printf(
          "bigdir hops: %d files written in %d ms%n", n, (System.nanoTime() - t0) / 1_000_000);
      hops = measure(fs, n);
    }
    Map<String, long[]> hdfs = null;
    if (hdfsN > 0) {
      MiniDFSCluster cluster = ApacheHdfs.start("bigdir");
      try {
        Configuration conf = ApacheHdfs.clientConf(cluster, 1);
        long t0 = System.nanoTime();
        fill(cluster, conf, "/big/d0", hdfsN);
        fill(cluster, conf, "/small/d0", SMALL);
        System.out.printf(
            "bigdir hdfs: %d files made in %d ms%n", hdfsN, (System.nanoTime() - t0) / 1_000_000);
        try (DistributedFileSystem fs =
            (DistributedFileSystem) FileSystem.newInstance(cluster.getURI(), conf)) {
          hdfs = measure(fs, hdfsN);
        }
      } finally {
        cluster.shutdown();
      }
    }
    System.out.printf(
        "bigdir: median µs per call, directory of %d (hops) / %d (HDFS) files against %d%n",
        n, hdfsN, SMALL);
    System.out.printf(
        "%-11s %10s %10s %6s %10s %10s %6s %10s%n",
        "call", "hops small", "hops big", "ratio", "hdfs small", "hdfs big", "ratio", "hops/hdfs");
    for (String op : OPS) {
      long[] h = hops.get(op);
      long[] d = hdfs == null ? new long[] {0, 0} : hdfs.get(op);
      System.out.printf(
          "%-11s %10d %10d %6.2f %10d %10d %6.2f %10.2f%n",
          op,
          h[0],
          h[1],
          (double) h[1] / h[0],
          d[0],
          d[1],
          d[0] == 0 ? 0 : (double) d[1] / d[0],
          d[1] == 0 ? 0 : (double) h[1] / d[1]);
    }
  }

  /** Per call, the median µs in the small directory and in the big one. */
  private static Map<String, long[]> measure(DistributedFileSystem fs, int n) throws Exception {
    Map<String, long[]> result = new LinkedHashMap<>();
    for (String op : OPS) {
      result.put(op, new long[2]);
    }
    fs.mkdirs(new Path("/outside"));
    // A warm-up round in the small directory first: the JIT and the caches, not the directory.
    run(fs, new Path("/small/d0"), SMALL, "warm", new LinkedHashMap<>());
    for (int round = 0; round < 2; round++) {
      int i = 0;
      for (String dir : new String[] {"/small/d0", "/big/d0"}) {
        Map<String, long[]> times = new LinkedHashMap<>();
        boolean small = dir.startsWith("/small");
        run(fs, new Path(dir), small ? SMALL : n, (small ? "s" : "b") + round, times);
        if (round == 1) {
          for (String op : OPS) {
            long[] t = times.get(op);
            Arrays.sort(t);
            result.get(op)[i] = t[t.length / 2] / 1000;
          }
        }
        i++;
      }
    }
    return result;
  }

  private static void run(
      DistributedFileSystem fs, Path dir, int files, String tag, Map<String, long[]> times)
      throws Exception {
    Random random = new Random(42);
    for (String op : OPS) {
      times.put(op, new long[CALLS]);
    }
    for (int c = 0; c < CALLS; c++) {
      long t0 = System.nanoTime();
      fs.create(new Path(dir, tag + "-new-" + c)).close();
      times.get("create")[c] = System.nanoTime() - t0;
    }
    for (int c = 0; c < CALLS; c++) {
      Path p = new Path(dir, "f" + random.nextInt(files));
      long t0 = System.nanoTime();
      fs.getFileStatus(p);
      times.get("stat")[c] = System.nanoTime() - t0;
    }
    // A page from a random name with at least a full page (dfs.ls.limit, 1,000) after it.
    String[] names = new String[files];
    for (int f = 0; f < files; f++) {
      names[f] = "f" + f;
    }
    Arrays.sort(names);
    String src = dir.toUri().getPath();
    for (int c = 0; c < CALLS; c++) {
      byte[] after = DFSUtilClient.string2Bytes(names[random.nextInt(files - 1_000)]);
      long t0 = System.nanoTime();
      fs.getClient().listPaths(src, after);
      times.get("list page")[c] = System.nanoTime() - t0;
    }
    for (int c = 0; c < CALLS; c++) {
      Path outside = new Path("/outside/" + tag + "-in-" + c);
      fs.create(outside).close();
      long t0 = System.nanoTime();
      fs.rename(outside, new Path(dir, tag + "-in-" + c));
      times.get("rename in")[c] = System.nanoTime() - t0;
    }
    for (int c = 0; c < CALLS; c++) {
      long t0 = System.nanoTime();
      fs.rename(new Path(dir, tag + "-new-" + c), new Path("/outside/" + tag + "-out-" + c));
      times.get("rename out")[c] = System.nanoTime() - t0;
    }
    for (int c = 0; c < CALLS; c++) {
      long t0 = System.nanoTime();
      fs.delete(new Path(dir, tag + "-in-" + c), false);
      times.get("delete")[c] = System.nanoTime() - t0;
    }
  }

  /**
   * {@code files} empty files {@code f0..} in {@code dir}, made through the client by 16 threads.
   */
  private static void fill(MiniDFSCluster cluster, Configuration conf, String dir, int files)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      int me = t;
      done.add(
          pool.submit(
              () -> {
                try (FileSystem fs = FileSystem.newInstance(cluster.getURI(), conf)) {
                  for (int f = me; f < files; f += 16) {
                    fs.create(new Path(dir + "/f" + f)).close();
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
  }
}
