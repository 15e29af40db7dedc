package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Put and get through stock DataNodes: the bytes come back, and the lengths are right. */
class ReadWriteTest {
  private static final int BLOCK = 1024 * 1024;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void roundTrip(String name, int size) throws IOException {
    Path p = new Path("/rw/" + name);
    byte[] data = bytes(size, size);
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
      out.write(data);
    }
    FileStatus st = fs.getFileStatus(p);
    assertThat(st.getLen()).isEqualTo(size);
    byte[] back = new byte[size];
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.readFully(in, back, 0, size);
      assertThat(in.read()).isEqualTo(-1);
    }
    assertThat(back).isEqualTo(data);
  }

  @Test
  void emptyFile() throws IOException {
    roundTrip("zero", 0);
  }

  @Test
  void oneByte() throws IOException {
    roundTrip("one", 1);
  }

  @Test
  void sixtyFourKilobytes() throws IOException {
    roundTrip("64k", 64 * 1024);
  }

  @Test
  void oneBlockPlusOneByte() throws IOException {
    roundTrip("block-plus-one", BLOCK + 1);
  }

  /** 300 MB, streamed (not held in memory): every byte is compared through a checksum. */
  @Test
  void threeHundredMegabytes() throws IOException {
    Path p = new Path("/rw/300m");
    long size = 300L * 1024 * 1024;
    byte[] chunk = new byte[1 << 20];
    java.util.zip.CRC32 written = new java.util.zip.CRC32();
    Random r = new Random(300);
    try (FSDataOutputStream out = fs.create(p, true, 1 << 16, (short) 3, 64L * BLOCK)) {
      for (long done = 0; done < size; done += chunk.length) {
        r.nextBytes(chunk);
        written.update(chunk);
        out.write(chunk);
      }
    }
    assertThat(fs.getFileStatus(p).getLen()).isEqualTo(size);
    java.util.zip.CRC32 read = new java.util.zip.CRC32();
    long total = 0;
    try (FSDataInputStream in = fs.open(p)) {
      int n;
      while ((n = in.read(chunk)) > 0) {
        read.update(chunk, 0, n);
        total += n;
      }
    }
    assertThat(total).isEqualTo(size);
    assertThat(read.getValue()).isEqualTo(written.getValue());
    fs.delete(p, false);
  }

  @Test
  void severalBlocksAreEachOnThreeDatanodes() throws IOException {
    roundTrip("five-blocks", 5 * BLOCK);
    Path p = new Path("/rw/five-blocks");
    assertThat(fs.getFileBlockLocations(p, 0, 5L * BLOCK)).hasSize(5);
    HopsTestCluster.awaitReplicas(fs, p, 3);
  }
}
