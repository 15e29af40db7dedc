package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;

/**
 * Reads move a file's access time as in HDFS: when the stored one is older than {@code
 * dfs.namenode.accesstime.precision}, and never with a precision of 0. hops writes it after the
 * read answered, so its side is polled briefly; HDFS's is there at once.
 */
class AccessTimeLikeHdfsTest {
  private static final long HOUR = 3_600_000L;

  /** Per file: whether reading it moved its access time; for {@code precision}, on one side. */
  private static List<String> reads(DistributedFileSystem fs, boolean async) throws Exception {
    long now = System.currentTimeMillis();
    List<String> out = new ArrayList<>();
    for (long age : new long[] {2 * HOUR, 10 * 60_000L}) {
      Path f = new Path("/at/f" + age);
      fs.create(f).close();
      fs.setTimes(f, -1, now - age);
      fs.open(f).close();
      long before = now - age;
      long deadline = System.currentTimeMillis() + (async ? 5_000 : 0);
      long atime = fs.getFileStatus(f).getAccessTime();
      while (atime == before && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
        atime = fs.getFileStatus(f).getAccessTime();
      }
      out.add("age " + age + ": " + (atime == before ? "kept" : atime >= now ? "moved" : "odd"));
    }
    // A directory listing never counts as a read.
    fs.mkdirs(new Path("/at/d"));
    fs.setTimes(new Path("/at/d"), -1, now - 2 * HOUR);
    fs.listStatus(new Path("/at/d"));
    Thread.sleep(async ? 300 : 0);
    out.add("dir " + (fs.getFileStatus(new Path("/at/d")).getAccessTime() == now - 2 * HOUR));
    return out;
  }

  private static List<String> onHops(long precision) throws Exception {
    Configuration c = new Configuration(false);
    c.setLong(DFSConfigKeys.DFS_NAMENODE_ACCESSTIME_PRECISION_KEY, precision);
    try (HopsTestCluster hops = new HopsTestCluster(c);
        DistributedFileSystem fs = hops.client()) {
      return reads(fs, true);
    }
  }

  private static List<String> onHdfs(long precision) throws Exception {
    Configuration c = new Configuration(false);
    c.setLong(DFSConfigKeys.DFS_NAMENODE_ACCESSTIME_PRECISION_KEY, precision);
    MiniDFSCluster hdfs = ApacheHdfs.start("atime-" + precision, c);
    try (DistributedFileSystem fs =
        (DistributedFileSystem)
            FileSystem.get(
                hdfs.getURI(),
                ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT))) {
      return reads(fs, false);
    } finally {
      hdfs.shutdown();
    }
  }

  @Test
  void aReadMovesAStaleAccessTimeAsHdfsDoes() throws Exception {
    List<String> expected = onHdfs(HOUR);
    assertThat(expected).containsExactly("age 7200000: moved", "age 600000: kept", "dir true");
    assertThat(onHops(HOUR)).isEqualTo(expected);
  }

  @Test
  void aPrecisionOfZeroKeepsAccessTimesAsHdfsDoes() throws Exception {
    List<String> expected = onHdfs(0);
    assertThat(onHops(0)).isEqualTo(expected);
    assertThat(expected).containsExactly("age 7200000: kept", "age 600000: kept", "dir true");
  }
}
