package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code getBlockLocations} of byte ranges, against hops and Apache HDFS with one DataNode each:
 * files whose blocks are all full, of mixed lengths after concat and append with NEW_BLOCK, cut by
 * truncate (inside a block and at a boundary), grown by append, and still being written; ranges at
 * and around every block boundary, empty, past the end of the file and to {@code Long.MAX_VALUE}
 * (whose end overflows, as HDFS's does). hops finds a range's blocks by where they begin instead of
 * reading every block: the answers (offsets, lengths, the last block, the file length and states)
 * are HDFS's, and the stock client reads the same bytes after a seek.
 */
class BlockRangeLikeHdfsTest {
  private static final int BLOCK = 1024;
  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster(conf());
    hops.startDatanodes(1);
    hops.waitForLive(1);
    hopsFs = hops.client();
    hdfs = ApacheHdfs.start("blockrange", conf(), 1);
    hdfsFs = (DistributedFileSystem) FileSystem.get(hdfs.getURI(), ApacheHdfs.clientConf(hdfs, 1));
  }

  private static Configuration conf() {
    Configuration c = new Configuration(false);
    c.setLong("dfs.namenode.fs-limits.min-block-size", 256);
    c.setInt("dfs.replication", 1);
    return c;
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {hopsFs, hdfsFs}) {
      if (c != null) {
        c.close();
      }
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (hops != null) {
      hops.close();
    }
  }

  /** Deterministic bytes, different per {@code seed}. */
  static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + seed * 7 + (i >> 8));
    }
    return b;
  }

  static void write(FileSystem fs, Path p, int n, int seed, long blockSize) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, blockSize)) {
      out.write(bytes(n, seed));
    }
  }

  /** Waits until a file that truncate reopened for recovery is closed again. */
  static void awaitClosed(DistributedFileSystem fs, Path p) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!fs.isFileClosed(p)) {
      assertThat(System.nanoTime()).as(p + " closed after truncate").isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /**
   * The files of the test, the same on each system: their names. {@code /r/open} stays open (being
   * written, its last block hflushed) until the caller closes the returned stream.
   */
  static FSDataOutputStream makeFiles(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(new Path("/r"));
    // More blocks than a small file's (FileBlockRange.SMALL_FILE_BLOCKS), but /r/one: read by
    // range.
    write(fs, new Path("/r/full"), 12 * BLOCK, 1, BLOCK);
    write(fs, new Path("/r/partial"), 12 * BLOCK + 300, 2, BLOCK);
    write(fs, new Path("/r/one"), 700, 3, BLOCK);
    // concat: ten blocks of 1024, then 100, 1024, 500, 512 and 188 bytes.
    write(fs, new Path("/r/concat"), 10 * BLOCK + 100, 4, BLOCK);
    write(fs, new Path("/r/src1"), BLOCK + 500, 5, BLOCK);
    write(fs, new Path("/r/src2"), 700, 6, 512);
    fs.concat(new Path("/r/concat"), new Path[] {new Path("/r/src1"), new Path("/r/src2")});
    write(fs, new Path("/r/cut"), 12 * BLOCK + 300, 7, BLOCK);
    if (!fs.truncate(new Path("/r/cut"), 10 * BLOCK + 10)) {
      awaitClosed(fs, new Path("/r/cut"));
    }
    write(fs, new Path("/r/cutAtBoundary"), 12 * BLOCK + 300, 8, BLOCK);
    assertThat(fs.truncate(new Path("/r/cutAtBoundary"), 10 * BLOCK)).isTrue();
    write(fs, new Path("/r/appended"), 9 * BLOCK + 300, 9, BLOCK);
    try (FSDataOutputStream out = fs.append(new Path("/r/appended"))) {
      out.write(bytes(2000, 10));
    }
    write(fs, new Path("/r/newBlock"), 9 * BLOCK + 300, 11, BLOCK);
    try (FSDataOutputStream out =
        fs.append(
            new Path("/r/newBlock"),
            EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK),
            4096,
            null)) {
      out.write(bytes(500, 12));
    }
    FSDataOutputStream open = fs.create(new Path("/r/open"), true, 4096, (short) 1, BLOCK);
    open.write(bytes(10 * BLOCK + 100, 13));
    open.hflush();
    return open;
  }

  static final List<String> FILES =
      List.of(
          "/r/full",
          "/r/partial",
          "/r/one",
          "/r/concat",
          "/r/cut",
          "/r/cutAtBoundary",
          "/r/appended",
          "/r/newBlock",
          "/r/open");

  /**
   * Offsets at, around and inside every block of a file as {@code fs} places them, and past its
   * end.
   */
  static List<Long> offsets(DistributedFileSystem fs, String file) throws IOException {
    LocatedBlocks all = fs.getClient().getLocatedBlocks(file, 0, Long.MAX_VALUE);
    List<Long> out = new ArrayList<>();
    List<Long> at = new ArrayList<>();
    for (LocatedBlock b : all.getLocatedBlocks()) {
      long s = b.getStartOffset();
      at.addAll(List.of(s - 1, s, s + 1, s + b.getBlockSize() / 2));
    }
    long length = all.getFileLength();
    at.addAll(List.of(length - 1, length, length + 1, length + 5000, 1L << 40));
    for (long o : at) {
      if (o >= 0 && !out.contains(o)) {
        out.add(o);
      }
    }
    return out;
  }

  static final long[] LENGTHS = {0, 1, 100, BLOCK, BLOCK + 1, 3000, 10L * BLOCK, Long.MAX_VALUE};

  /** What a reader learns of a range: offsets and lengths of the blocks, the last, the states. */
  static String describe(LocatedBlocks lb) {
    StringBuilder s = new StringBuilder();
    s.append("length=").append(lb.getFileLength());
    s.append(" uc=").append(lb.isUnderConstruction());
    s.append(" lastComplete=").append(lb.isLastBlockComplete());
    s.append(" blocks=");
    for (LocatedBlock b : lb.getLocatedBlocks()) {
      s.append(block(b)).append(' ');
    }
    s.append("last=")
        .append(lb.getLastLocatedBlock() == null ? "-" : block(lb.getLastLocatedBlock()));
    return s.toString();
  }

  private static String block(LocatedBlock b) {
    return b.getStartOffset() + "+" + b.getBlockSize() + "@" + b.getLocations().length;
  }

  static Map<String, String> answers(DistributedFileSystem fs) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    for (String f : FILES) {
      for (long o : offsets(fs, f)) {
        for (long l : LENGTHS) {
          out.put(
              f + " [" + o + ", +" + l + ")", describe(fs.getClient().getLocatedBlocks(f, o, l)));
        }
      }
    }
    return out;
  }

  /** The bytes the stock client reads at each offset after a seek, 1500 at most. */
  static Map<String, String> reads(DistributedFileSystem fs) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    for (String f : FILES) {
      long len = fs.getFileStatus(new Path(f)).getLen();
      try (FSDataInputStream in = fs.open(new Path(f))) {
        for (long o : offsets(fs, f)) {
          if (o >= len) {
            continue;
          }
          in.seek(o);
          byte[] buf = new byte[(int) Math.min(1500, len - o)];
          in.readFully(buf);
          out.put(f + "@" + o, java.util.Arrays.toString(buf));
        }
      }
    }
    return out;
  }

  @Test
  void rangesOfEveryKindOfFileAreAnsweredAsHdfsDoes() throws Exception {
    FSDataOutputStream hopsOpen = makeFiles(hopsFs);
    FSDataOutputStream hdfsOpen = makeFiles(hdfsFs);
    try {
      HopsTestCluster.awaitReplicas(hopsFs, new Path("/r/concat"), 1);
      Map<String, String> ours = answers(hopsFs);
      Map<String, String> theirs = answers(hdfsFs);
      assertThat(ours).hasSize(theirs.size());
      for (Map.Entry<String, String> e : theirs.entrySet()) {
        assertThat(ours.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
      }
      // The concatenated file's blocks, of mixed lengths, begin where HDFS says.
      assertThat(ours.get("/r/concat [0, +" + Long.MAX_VALUE + ")"))
          .contains("9216+1024@1 10240+100@1 10340+1024@1 11364+500@1 11864+512@1 12376+188@1");
      assertThat(reads(hopsFs)).isEqualTo(reads(hdfsFs));
    } finally {
      hopsOpen.close();
      hdfsOpen.close();
    }
    // Closed, the file that was open answers as HDFS's does, and reads the same.
    assertThat(describe(hopsFs.getClient().getLocatedBlocks("/r/open", 1500, 10)))
        .isEqualTo(describe(hdfsFs.getClient().getLocatedBlocks("/r/open", 1500, 10)));
  }

  /** The same files over MariaDB: its range scans find the same blocks. */
  @Test
  void rangesOverMariadbAreAnsweredAsHdfsDoes() throws Exception {
    HopsTestCluster onMariadb = HopsTestCluster.onMariadbOrNull(conf());
    assumeTrue(onMariadb != null, "HOPS_TEST_MYSQL_URL is not set");
    try (onMariadb) {
      onMariadb.startDatanodes(1);
      onMariadb.waitForLive(1);
      try (DistributedFileSystem fs = onMariadb.client()) {
        MiniDFSCluster other = ApacheHdfs.start("blockrange-mdb", conf(), 1);
        try (DistributedFileSystem hdfsSide =
            (DistributedFileSystem)
                FileSystem.get(other.getURI(), ApacheHdfs.clientConf(other, 1))) {
          FSDataOutputStream a = makeFiles(fs);
          FSDataOutputStream b = makeFiles(hdfsSide);
          try {
            HopsTestCluster.awaitReplicas(fs, new Path("/r/concat"), 1);
            assertThat(answers(fs)).isEqualTo(answers(hdfsSide));
            assertThat(reads(fs)).isEqualTo(reads(hdfsSide));
          } finally {
            a.close();
            b.close();
          }
        } finally {
          other.shutdown();
        }
      }
    }
  }
}
