package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.FsDatasetTestUtils;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A block whose only replica is really damaged on its stock DataNode's disk, reported by that
 * datanode as its block scanner does, on hops and on Apache HDFS (a MiniDFSCluster with one
 * datanode) in the same run: {@code listCorruptFileBlocks} and {@code hdfs fsck
 * -list-corruptfileblocks} must say the same, block ids aside.
 */
class CorruptFileBlocksLikeHdfsTest {
  private static final int BLOCK = 1024 * 1024;

  /** One datanode a side. */
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> {
            Configuration conf = new Configuration(false);
            conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
            conf.setInt("dfs.heartbeat.interval", 1);
            return SideBySide.named("corrupt").conf(conf).datanodes(1).oneNamenode().start();
          });

  /** The side's one datanode. */
  private static DataNode datanode(Side s) {
    return s == both.hopsSide()
        ? both.hops().datanodes().get(0)
        : both.hdfs().getDataNodes().get(0);
  }

  private static void write(DistributedFileSystem fs, String path, int size) throws IOException {
    byte[] data = new byte[size];
    new Random(size).nextBytes(data);
    try (FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 1, BLOCK)) {
      out.write(data);
    }
  }

  /** Damages the block's replica file on the datanode's disk and has the datanode report it. */
  private static void corruptAndReport(Side s, String path) throws Exception {
    ExtendedBlock b = s.admin().getClient().getLocatedBlocks(path, 0).get(0).getBlock();
    FsDatasetTestUtils.Factory.getFactory(datanode(s).getConf())
        .newInstance(datanode(s))
        .getMaterializedReplica(b)
        .corruptData();
    datanode(s).reportBadBlocks(b);
  }

  private static List<String> corruptFiles(Side s, String under) throws IOException {
    List<String> out = new ArrayList<>();
    RemoteIterator<Path> it = s.admin().listCorruptFileBlocks(new Path(under));
    while (it.hasNext()) {
      out.add(it.next().toUri().getPath());
    }
    return out;
  }

  private static List<String> fsckLines(Side s, String... args) throws Exception {
    StockTool.Output r = StockTool.run(out -> new DFSck(s.conf(), out), args);
    List<String> lines = new ArrayList<>();
    lines.add("rc=" + r.rc());
    for (String line : r.out().split("\n")) {
      if (!line.startsWith("Connecting to namenode") && !line.startsWith("FSCK started by")) {
        lines.add(line.replaceAll("blk_\\d+", "blk_ID").stripTrailing());
      }
    }
    return lines;
  }

  private static void awaitCorrupt(Side s) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (corruptFiles(s, "/").isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the corrupt block was never listed");
      }
      Thread.sleep(200);
    }
  }

  @Test
  void aReallyCorruptBlockIsListedLikeHdfs() throws Exception {
    List<List<String>> before = new ArrayList<>();
    for (Side s : new Side[] {both.hdfsSide(), both.hopsSide()}) {
      write(s.admin(), "/c/good", 1000);
      write(s.admin(), "/c/sub/bad", 100 * 1024);
      write(s.admin(), "/d/other", 10);
      before.add(fsckLines(s, "/", "-list-corruptfileblocks"));
      corruptAndReport(s, "/c/sub/bad");
      awaitCorrupt(s);
    }
    assertThat(before.get(1)).isEqualTo(before.get(0));
    for (String under : new String[] {"/", "/c", "/c/sub", "/c/sub/bad", "/d"}) {
      assertThat(corruptFiles(both.hopsSide(), under))
          .as("listCorruptFileBlocks " + under)
          .isEqualTo(corruptFiles(both.hdfsSide(), under));
      assertThat(fsckLines(both.hopsSide(), under, "-list-corruptfileblocks"))
          .as("fsck " + under + " -list-corruptfileblocks")
          .isEqualTo(fsckLines(both.hdfsSide(), under, "-list-corruptfileblocks"));
    }
    assertThat(corruptFiles(both.hdfsSide(), "/")).containsExactly("/c/sub/bad");
    assertThat(fsckLines(both.hdfsSide(), "/", "-list-corruptfileblocks"))
        .contains("blk_ID\t1\t/c/sub/bad", "The filesystem under path '/' has 1 CORRUPT blocks");
  }
}
