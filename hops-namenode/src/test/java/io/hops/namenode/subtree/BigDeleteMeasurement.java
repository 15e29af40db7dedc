package io.hops.namenode.subtree;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 11's measurement at a million files, not a test: a tree of 1,000 directories of 1,000 empty
 * files ({@link BulkTree}) deleted through the stock client; prints the time to the answer, the
 * time to reclaim every row, and the peak heap in use during the delete (all heap pools, after a GC
 * before it). Run: {@code mvn -o -pl hops-namenode -am test -Dtest=BigDeleteMeasurement
 * -Dsurefire.failIfNoSpecifiedTests=false -Dhops.bench.bigdelete=1000}, the value being the
 * directories of 1,000 files.
 */
class BigDeleteMeasurement {
  @Test
  @EnabledIfSystemProperty(named = "hops.bench.bigdelete", matches = "\\d+")
  void measure() throws Exception {
    int dirs = Integer.getInteger("hops.bench.bigdelete");
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      long b0 = System.nanoTime();
      int n =
          BulkTree.build(cluster.namenode().namesystem().storage(), fs, new Path("/m"), dirs, 1000);
      long b1 = System.nanoTime();
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        p.resetPeakUsage();
      }
      System.gc();
      long base = heapUsed(false);
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        p.resetPeakUsage();
      }
      long t0 = System.nanoTime();
      assertThat(fs.delete(new Path("/m"), true)).isTrue();
      long t1 = System.nanoTime();
      Reclaims.await(cluster.namenode().namesystem().storage(), java.time.Duration.ofMinutes(30));
      long t2 = System.nanoTime();
      long peak = heapUsed(true);
      System.out.printf(
          "bigdelete: %d inodes built in %d ms; delete answered in %d ms, reclaimed in %d ms;"
              + " heap %d MB before, peak %d MB during%n",
          n,
          TimeUnit.NANOSECONDS.toMillis(b1 - b0),
          TimeUnit.NANOSECONDS.toMillis(t1 - t0),
          TimeUnit.NANOSECONDS.toMillis(t2 - t1),
          base >> 20,
          peak >> 20);
    }
  }

  /**
   * The same tree on Apache HDFS's NameNode (MiniDFSCluster), made through the client by 8 threads
   * (HDFS has no way in but its namenode): {@code -Dhops.bench.bigdelete.hdfs=1000}.
   */
  @Test
  @EnabledIfSystemProperty(named = "hops.bench.bigdelete.hdfs", matches = "\\d+")
  void measureHdfs() throws Exception {
    int dirs = Integer.getInteger("hops.bench.bigdelete.hdfs");
    org.apache.hadoop.hdfs.MiniDFSCluster hdfs = io.hops.namenode.ApacheHdfs.start("bigdelete");
    try {
      org.apache.hadoop.conf.Configuration conf = io.hops.namenode.ApacheHdfs.clientConf(hdfs, 1);
      long b0 = System.nanoTime();
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(8);
      java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int me = t;
        done.add(
            pool.submit(
                () -> {
                  try (org.apache.hadoop.fs.FileSystem fs =
                      org.apache.hadoop.fs.FileSystem.newInstance(hdfs.getURI(), conf)) {
                    for (int d = me; d < dirs; d += 8) {
                      for (int f = 0; f < 1000; f++) {
                        fs.create(new Path("/m/d" + d + "/f" + f)).close();
                      }
                    }
                  }
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      long b1 = System.nanoTime();
      try (org.apache.hadoop.fs.FileSystem fs =
          org.apache.hadoop.fs.FileSystem.newInstance(hdfs.getURI(), conf)) {
        long t0 = System.nanoTime();
        assertThat(fs.delete(new Path("/m"), true)).isTrue();
        long t1 = System.nanoTime();
        System.out.printf(
            "bigdelete hdfs: %d files made in %d ms; delete answered in %d ms%n",
            dirs * 1000,
            TimeUnit.NANOSECONDS.toMillis(b1 - b0),
            TimeUnit.NANOSECONDS.toMillis(t1 - t0));
      }
    } finally {
      hdfs.shutdown();
    }
  }

  private static long heapUsed(boolean peak) {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += peak ? p.getPeakUsage().getUsed() : p.getUsage().getUsed();
      }
    }
    return sum;
  }
}
