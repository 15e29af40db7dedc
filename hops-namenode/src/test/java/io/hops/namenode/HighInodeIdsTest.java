package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.IdPool;
import io.hops.namenode.cli.FsckNamespaceCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A namespace whose inode ids pass 2^21, 2^24, 2^31 and 2^32 (issue 59: a build of 10 M files
 * stopped past 2^21 inodes) serves as one of small ids does: each namenode here takes its first
 * range of ids after the {@code inode_id} counter was moved to just below an edge, so its directory
 * and files take ids on both sides of it, and they are created, listed, read (by path and by {@code
 * /.reserved/.inodes/<id>}), renamed and deleted through the stock client, and {@code
 * fsck-namespace} finds the namespace healthy.
 */
class HighInodeIdsTest {
  private static final long[] EDGES = {1L << 21, 1L << 24, 1L << 31, 1L << 32};
  private static final int FILES = 4;

  @Test
  void filesWithIdsPastEachWidthsEdgeAreCreatedListedReadRenamedAndDeleted() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      Namesystem ns = cluster.namenode().namesystem();
      List<HopsNameNode> namenodes = new ArrayList<>();
      try {
        for (int e = 0; e < EDGES.length; e++) {
          namenodes.add(cluster.startAnotherNamenode());
        }
        cluster.startDatanodes(1, new Configuration(false), namenodes.toArray(new HopsNameNode[0]));
        for (int e = 0; e < EDGES.length; e++) {
          // The counter below the edge: the namenode takes its first range of ids from there.
          new IdPool(ns.storage(), "inode_id", 1).reserveUpTo(EDGES[e] - 4);
          createListReadRenameDelete(cluster, namenodes.get(e), EDGES[e]);
        }
      } finally {
        namenodes.forEach(HopsNameNode::close);
      }
      ByteArrayOutputStream report = new ByteArrayOutputStream();
      int exit =
          FsckNamespaceCommand.run(
              ns.storage(),
              1000,
              false,
              id -> true,
              new PrintStream(report, true, StandardCharsets.UTF_8));
      assertThat(exit).as(report.toString(StandardCharsets.UTF_8)).isZero();
      assertThat(report.toString(StandardCharsets.UTF_8)).contains("HEALTHY");
    }
  }

  private static void createListReadRenameDelete(
      HopsTestCluster cluster, HopsNameNode nn, long edge) throws Exception {
    try (DistributedFileSystem fs = cluster.client(nn)) {
      Path dir = new Path("/edge-" + edge);
      assertThat(fs.mkdirs(dir)).isTrue();
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < FILES; i++) {
        Path f = new Path(dir, "f" + i);
        try (FSDataOutputStream out = fs.create(f, (short) 1)) {
          out.write(content(f));
        }
        ids.add(fs.getClient().getFileInfo(f.toString()).getFileId());
      }
      assertThat(fs.getClient().getFileInfo(dir.toString()).getFileId()).isLessThan(edge - 1);
      assertThat(ids).as("ids on both sides of %s", edge).contains(edge - 1, edge);

      assertThat(Arrays.stream(fs.listStatus(dir)).map(s -> s.getPath().getName()))
          .containsExactly("f0", "f1", "f2", "f3");
      for (int i = 0; i < FILES; i++) {
        Path f = new Path(dir, "f" + i);
        assertThat(read(fs, f)).isEqualTo(content(f));
        assertThat(read(fs, new Path("/.reserved/.inodes/" + ids.get(i)))).isEqualTo(content(f));
      }

      Path moved = new Path("/moved-" + edge);
      assertThat(fs.rename(new Path(dir, "f1"), new Path(dir, "g1"))).isTrue();
      assertThat(fs.rename(dir, moved)).isTrue();
      assertThat(fs.getClient().getFileInfo(moved + "/g1").getFileId()).isEqualTo(ids.get(1));
      assertThat(read(fs, new Path(moved, "g1"))).isEqualTo(content(new Path(dir, "f1")));
      assertThat(fs.delete(new Path(moved, "f2"), false)).isTrue();
      assertThat(fs.exists(new Path(moved, "f2"))).isFalse();
      assertThat(Arrays.stream(fs.listStatus(moved)).map(FileStatus::getLen)).hasSize(FILES - 1);
    }
  }

  /** A file's bytes: its path, so each file reads back as its own. */
  private static byte[] content(Path f) {
    return ("bytes of " + f.toUri().getPath()).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] read(DistributedFileSystem fs, Path p) throws Exception {
    try (FSDataInputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }
}
