package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.Test;

/**
 * The data path over MariaDB (InnoDB row locks, real round trips): put and get through stock
 * DataNodes, and the replica locations every namenode reads. Runs when HOPS_TEST_MYSQL_URL names a
 * database (CI starts one); skipped otherwise.
 */
class MariadbDataTest {

  @Test
  void putAndGetThroughDatanodesOverMariadb() throws IOException {
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull();
    assumeTrue(cluster != null, "HOPS_TEST_MYSQL_URL is not set");
    try (cluster) {
      cluster.startDatanodes(3);
      try (DistributedFileSystem fs = cluster.client()) {
        for (int size : new int[] {0, 1, 64 * 1024, 3 * 1024 * 1024 + 1}) {
          byte[] data = new byte[size];
          new Random(size).nextBytes(data);
          Path p = new Path("/mariadb/f" + size);
          try (FSDataOutputStream out = fs.create(p, (short) 3)) {
            out.write(data);
          }
          assertThat(fs.getFileStatus(p).getLen()).isEqualTo(size);
          byte[] back = new byte[size];
          try (FSDataInputStream in = fs.open(p)) {
            IOUtils.readFully(in, back, 0, size);
            assertThat(in.read()).isEqualTo(-1);
          }
          assertThat(back).isEqualTo(data);
          if (size > 0) {
            HopsTestCluster.awaitReplicas(fs, p, 3);
          }
        }
      }
    }
  }
}
