package io.hops.namenode.bench;

import io.hops.dal.AccessCounts;
import io.hops.namenode.HopsTestCluster;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Issue 12's measurement, not a test: the write of a file of {@code blocks} (default 1,000) blocks
 * of 1 KB through the stock client and one stock DataNode on the embedded store. Prints the
 * namenode time and the rows read of {@code addBlock} for the first and the last blocks (mean of 10
 * each). Run: {@code java -cp <test classpath> io.hops.namenode.bench.LongFileWrite [blocks]}.
 */
public final class LongFileWrite {
  private static final int BLOCK = 1024;

  public static void main(String[] args) throws Exception {
    int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      cluster.startDatanodes(1);
      cluster.waitForLive(1);
      List<Long> nanos = Collections.synchronizedList(new ArrayList<>());
      List<Long> rows = Collections.synchronizedList(new ArrayList<>());
      var runner = cluster.namenode().namesystem().runner();
      runner.time(
          (op, n) -> {
            if (op.equals("addBlock")) {
              nanos.add(n);
            }
          });
      runner.observe(
          (String op, AccessCounts c) -> {
            if (op.equals("addBlock")) {
              rows.add(c.rowsRead());
            }
          });
      try (DistributedFileSystem fs = cluster.client()) {
        for (int round = 0; round < 2; round++) { // the first round warms the JIT
          nanos.clear();
          rows.clear();
          long start = System.nanoTime();
          try (FSDataOutputStream out =
              fs.create(new Path("/long/f" + round), true, 4096, (short) 1, BLOCK)) {
            byte[] block = new byte[BLOCK];
            for (int i = 0; i < blocks; i++) {
              out.write(block);
            }
          }
          long total = System.nanoTime() - start;
          int n = nanos.size();
          System.out.printf(
              "round %d: %d blocks in %.1f s; addBlock namenode time (median): first 50 %.3f ms,"
                  + " last 50 %.3f ms; rows read: first %d, last %d%n",
              round,
              blocks,
              total / 1e9,
              median(nanos.subList(0, 50)) / 1e6,
              median(nanos.subList(n - 50, n)) / 1e6,
              rows.get(0),
              rows.get(rows.size() - 1));
        }
      }
    }
  }

  private static double median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
