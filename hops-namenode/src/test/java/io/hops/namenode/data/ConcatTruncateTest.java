package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.bytes;
import static io.hops.namenode.data.DataFiles.concat;
import static io.hops.namenode.data.DataFiles.eventually;
import static io.hops.namenode.data.DataFiles.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * concat moves blocks between files; truncate cuts whole blocks at once and a partial one by
 * recovery.
 */
class ConcatTruncateTest {
  private static final int BLOCK = 64 * 1024;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
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

  private static byte[] write(Path p, int size, long seed) throws IOException {
    byte[] data = bytes(size, seed);
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
      out.write(data);
    }
    return data;
  }

  private static void assertEveryBlockOnThreeDatanodes(Path p, long length) throws Exception {
    eventually(
        30,
        "every block of " + p + " reported by 3 datanodes",
        () -> Arrays.stream(fs.getFileBlockLocations(p, 0, length)).allMatch(l -> hosts(l) == 3));
  }

  private static int hosts(BlockLocation l) {
    try {
      return l.getHosts().length;
    } catch (IOException e) {
      return -1;
    }
  }

  @Test
  void concatAppendsTheSourcesBlocksInOrderAndRemovesTheSources() throws Exception {
    Path target = new Path("/concat/ok/target");
    byte[] all = write(target, BLOCK + 36 * 1024, 1);
    Path[] srcs = {new Path("/concat/ok/a"), new Path("/concat/ok/b"), new Path("/concat/ok/c")};
    int[] sizes = {BLOCK + 10, 5000, 2 * BLOCK + 7};
    for (int i = 0; i < srcs.length; i++) {
      all = concat(all, write(srcs[i], sizes[i], 2 + i));
    }
    fs.concat(target, srcs);
    for (Path s : srcs) {
      assertThat(fs.exists(s)).isFalse();
    }
    assertThat(fs.getFileStatus(target).getLen()).isEqualTo(all.length);
    assertThat(read(fs, target)).isEqualTo(all);
    assertThat(fs.getFileBlockLocations(target, 0, all.length)).hasSize(2 + 2 + 1 + 3);
    assertEveryBlockOnThreeDatanodes(target, all.length);
    assertThat(fs.listStatus(new Path("/concat/ok"))).hasSize(1);
  }

  @Test
  void concatRefusesWhatHdfsRefuses() throws Exception {
    Path target = new Path("/concat/no/target");
    write(target, 1000, 10);
    Path src = new Path("/concat/no/src");
    write(src, 1000, 11);
    Path elsewhere = new Path("/concat/other/src");
    write(elsewhere, 1000, 12);
    Path empty = new Path("/concat/no/empty");
    fs.create(empty).close();
    assertThatThrownBy(() -> fs.concat(target, new Path[] {elsewhere}))
        .hasMessageContaining("is not in the same directory with the target");
    assertThatThrownBy(() -> fs.concat(target, new Path[] {empty}))
        .hasMessageContaining("is invalid or empty or underConstruction");
    assertThatThrownBy(() -> fs.concat(target, new Path[] {target}))
        .hasMessageContaining("is the same with the target file");
    assertThatThrownBy(() -> fs.concat(target, new Path[] {src, src}))
        .hasMessageContaining("at least two of the source files are the same");
    assertThatThrownBy(() -> fs.concat(new Path("/concat/no/missing"), new Path[] {src}))
        .hasMessageContaining("File does not exist");
    try (FSDataOutputStream out = fs.create(new Path("/concat/no/open"))) {
      out.write(1);
      assertThatThrownBy(() -> fs.concat(new Path("/concat/no/open"), new Path[] {src}))
          .hasMessageContaining("is under construction");
      assertThatThrownBy(() -> fs.concat(target, new Path[] {new Path("/concat/no/open")}))
          .hasMessageContaining("is invalid or empty or underConstruction");
    }
    assertThat(read(fs, target)).isEqualTo(bytes(1000, 10));
    assertThat(fs.exists(src)).isTrue();
  }

  @Test
  void truncateOnABlockBoundaryIsDoneAtOnce() throws Exception {
    Path p = new Path("/truncate/boundary");
    byte[] data = write(p, 3 * BLOCK + 100, 20);
    assertThat(fs.truncate(p, 2 * BLOCK)).isTrue();
    assertThat(fs.isFileClosed(p)).isTrue();
    assertThat(fs.getFileStatus(p).getLen()).isEqualTo(2 * BLOCK);
    assertThat(read(fs, p)).isEqualTo(Arrays.copyOf(data, 2 * BLOCK));
    assertThat(fs.getFileBlockLocations(p, 0, 2 * BLOCK)).hasSize(2);
    assertThat(fs.truncate(p, 0)).isTrue();
    assertThat(fs.getFileStatus(p).getLen()).isZero();
    assertThat(read(fs, p)).isEmpty();
  }

  @Test
  void truncateInsideABlockRecoversItOnTheDatanodes() throws Exception {
    Path p = new Path("/truncate/inside");
    byte[] data = write(p, 2 * BLOCK + BLOCK / 2, 30);
    int newLength = BLOCK + 1000;
    assertThat(fs.truncate(p, newLength)).as("the last block needs recovery").isFalse();
    assertThat(fs.getFileStatus(p).getLen()).isEqualTo(newLength);
    assertThat(fs.truncate(p, newLength)).as("the same truncate again").isFalse();
    assertThatThrownBy(() -> fs.truncate(p, 10)).hasMessageContaining("is being truncated");
    eventually(30, p + " closed after the truncate recovery", () -> fs.isFileClosed(p));
    assertThat(fs.getFileStatus(p).getLen()).isEqualTo(newLength);
    byte[] cut = Arrays.copyOf(data, newLength);
    assertThat(read(fs, p)).isEqualTo(cut);
    assertEveryBlockOnThreeDatanodes(p, newLength);
    byte[] more = bytes(2000, 31);
    try (FSDataOutputStream out = fs.append(p)) {
      out.write(more);
    }
    assertThat(read(fs, p)).isEqualTo(concat(cut, more));
  }

  @Test
  void truncateRefusesWhatHdfsRefuses() throws Exception {
    Path p = new Path("/truncate/no/file");
    write(p, 1000, 40);
    assertThatThrownBy(() -> fs.truncate(p, 1001))
        .hasMessageContaining("Cannot truncate to a larger file size. Current size: 1000");
    assertThatThrownBy(() -> fs.truncate(p, -1))
        .hasMessageContaining("Cannot truncate to a negative file size: -1.");
    assertThatThrownBy(() -> fs.truncate(new Path("/truncate/no"), 0))
        .hasMessageContaining("Path is not a file");
    assertThatThrownBy(() -> fs.truncate(new Path("/truncate/no/missing"), 0))
        .isInstanceOf(RemoteException.class)
        .satisfies(
            e ->
                assertThat(((RemoteException) e).getClassName())
                    .isEqualTo(FileNotFoundException.class.getName()))
        .hasMessageContaining("File does not exist: /truncate/no/missing");
    assertThat(fs.truncate(p, 1000)).as("to its own length").isTrue();
    try (FSDataOutputStream out = fs.create(new Path("/truncate/no/open"))) {
      out.write(bytes(100, 41));
      out.hflush();
      assertThatThrownBy(() -> fs.truncate(new Path("/truncate/no/open"), 10))
          .hasMessageContaining("is already the current lease holder");
    }
  }
}
