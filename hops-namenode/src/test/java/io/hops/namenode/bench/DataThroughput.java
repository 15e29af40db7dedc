package io.hops.namenode.bench;

import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.net.URI;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Issue 4's measurement, not a test: through the stock client, against hops (embedded in-memory
 * store, 3 stock DataNodes in this JVM) and Apache HDFS (MiniDFSCluster, 3 DataNodes in this JVM)
 * in the same run, replication 3, 128 MB blocks: write and read throughput of one file of {@code
 * sizeMb} (default 1024), and the time to create and close 1,000 empty files and 1,000 files of 1
 * KB (one client thread, as {@code hdfs dfs -put} would). Prints both and the hops/HDFS ratios.
 * Run: {@code java -cp <test classpath> io.hops.namenode.bench.DataThroughput [sizeMb] [files]}.
 */
public final class DataThroughput {
  private record Result(double writeMbs, double readMbs, double emptyMs, double oneKbMs) {}

  public static void main(String[] args) throws Exception {
    int sizeMb = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    Result hops;
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      cluster.startDatanodes(3);
      measure(cluster.uri(), cluster.clientConf(), 256, 200); // warm-up: JIT, caches
      hops = measure(cluster.uri(), cluster.clientConf(), sizeMb, files);
    }
    Result hdfs;
    Configuration hdfsConf = new Configuration();
    hdfsConf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/bench-hdfs-data-" + System.nanoTime()).getAbsolutePath());
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(hdfsConf).numDataNodes(3).build()) {
      cluster.waitActive();
      Configuration c = new Configuration(cluster.getConfiguration(0));
      c.setBoolean("fs.hdfs.impl.disable.cache", true);
      measure(cluster.getURI(), c, 256, 200); // warm-up: JIT, caches
      hdfs = measure(cluster.getURI(), c, sizeMb, files);
    }
    System.out.printf("%-34s %12s %12s %8s%n", "measure", "hops", "hdfs", "hops/hdfs");
    row("write " + sizeMb + " MB (MB/s)", hops.writeMbs, hdfs.writeMbs);
    row("read " + sizeMb + " MB (MB/s)", hops.readMbs, hdfs.readMbs);
    row("create+close " + files + " empty (ms)", hops.emptyMs, hdfs.emptyMs);
    row("create+close " + files + " x 1 KB (ms)", hops.oneKbMs, hdfs.oneKbMs);
  }

  private static void row(String name, double hops, double hdfs) {
    System.out.printf("%-34s %12.1f %12.1f %8.2f%n", name, hops, hdfs, hops / hdfs);
  }

  private static Result measure(URI uri, Configuration conf, int sizeMb, int files)
      throws Exception {
    conf.setInt("dfs.replication", 3);
    try (FileSystem fs = FileSystem.get(uri, conf)) {
      byte[] chunk = new byte[1 << 20];
      new Random(1).nextBytes(chunk);
      Path big = new Path("/bench/big");
      long t0 = System.nanoTime();
      try (FSDataOutputStream out = fs.create(big, true, 1 << 16, (short) 3, 128L << 20)) {
        for (int i = 0; i < sizeMb; i++) {
          out.write(chunk);
        }
      }
      double write = sizeMb / seconds(t0);
      t0 = System.nanoTime();
      long read = 0;
      try (FSDataInputStream in = fs.open(big)) {
        int n;
        while ((n = in.read(chunk)) > 0) {
          read += n;
        }
      }
      if (read != (long) sizeMb << 20) {
        throw new IllegalStateException("read " + read + " bytes of " + ((long) sizeMb << 20));
      }
      double readMbs = sizeMb / seconds(t0);
      fs.delete(big, false);
      fs.delete(new Path("/bench/empty"), true);
      fs.delete(new Path("/bench/1k"), true);
      fs.mkdirs(new Path("/bench/empty"));
      fs.mkdirs(new Path("/bench/1k"));
      t0 = System.nanoTime();
      for (int i = 0; i < files; i++) {
        fs.create(new Path("/bench/empty/f" + i)).close();
      }
      double empty = seconds(t0) * 1000;
      byte[] kb = new byte[1024];
      t0 = System.nanoTime();
      for (int i = 0; i < files; i++) {
        try (FSDataOutputStream out = fs.create(new Path("/bench/1k/f" + i))) {
          out.write(kb);
        }
      }
      double oneKb = seconds(t0) * 1000;
      return new Result(write, readMbs, empty, oneKb);
    }
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
