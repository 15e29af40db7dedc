package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop's own {@code distcp -update -diff s1 s2} between hops and Apache HDFS, both ways, as a
 * MapReduce job in the local runner: the source changes after {@code s1} by a create (a file and a
 * new directory with a file), an append, a rename into another directory and a delete; the target,
 * equal to the source's {@code s1} and snapshotted as {@code s1}, ends equal to the source's {@code
 * s2}, with only what changed shipped (the diff report the source answers, the renames and deletes
 * done on the target, a renamed file keeping its inode there, the rest copied from {@code
 * .snapshot/s2}).
 */
class SnapshotDistCpDiffTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-distcp", SnapshotTestFiles.snapshotsOn(), 1));

  private static File local;

  @BeforeAll
  static void localDir() throws Exception {
    local = Files.createTempDirectory("hops-distcp-diff").toFile();
  }

  @Test
  void diffFromHopsToHdfsShipsTheChangesBetweenTwoSnapshots() throws Exception {
    syncs(both.hopsSide().admin(), both.hdfsSide().admin(), "/h2d");
  }

  @Test
  void diffFromHdfsToHopsShipsTheChangesBetweenTwoSnapshots() throws Exception {
    syncs(both.hdfsSide().admin(), both.hopsSide().admin(), "/d2h");
  }

  private static void syncs(DistributedFileSystem src, DistributedFileSystem dst, String dir)
      throws Exception {
    String from = dir + "/src";
    String to = dir + "/dst";
    for (DistributedFileSystem fs : List.of(src, dst)) {
      // The target starts as the source's s1, written alike.
      String root = fs == src ? from : to;
      fs.mkdirs(p(root + "/a/deep"));
      fs.mkdirs(p(root + "/b"));
      write(fs, root + "/grows", text("grows", 3000));
      write(fs, root + "/moves", text("moves", 2000));
      write(fs, root + "/goes", text("goes", 1000));
      write(fs, root + "/a/deep/stays", text("stays", 500));
      write(fs, root + "/a/gone-dir-file", text("x", 10));
      fs.allowSnapshot(p(root));
      fs.createSnapshot(p(root), "s1");
    }
    write(src, from + "/fresh", text("fresh", 1200));
    src.mkdirs(p(from + "/nd"));
    write(src, from + "/nd/inner", text("inner", 700));
    try (FSDataOutputStream out = src.append(p(from + "/grows"))) {
      out.writeBytes(text("appended", 900));
    }
    src.rename(p(from + "/moves"), p(from + "/b/moved"));
    src.delete(p(from + "/goes"), false);
    src.delete(p(from + "/a/gone-dir-file"), false);
    src.createSnapshot(p(from), "s2");
    // Changes after s2 are not shipped.
    write(src, from + "/later", text("later", 100));

    long movedId = dst.getClient().getFileInfo(to + "/moves").getFileId();
    int rc =
        ToolRunner.run(
            jobConf(),
            new DistCp(jobConf(), null),
            new String[] {
              "-update", "-diff", "s1", "s2", uri(src) + from, uri(dst) + to,
            });
    assertThat(rc).isZero();

    List<String> expected = tree(src, p(from + "/.snapshot/s2"));
    assertThat(expected)
        .contains(
            "/b/moved " + text("moves", 2000),
            "/grows " + text("grows", 3000) + text("appended", 900),
            "/nd/inner " + text("inner", 700))
        .noneMatch(l -> l.startsWith("/goes") || l.startsWith("/later"));
    assertThat(tree(dst, p(to))).containsExactlyElementsOf(expected);
    // Renamed on the target, not copied again: the diff was applied.
    assertThat(dst.getClient().getFileInfo(to + "/b/moved").getFileId()).isEqualTo(movedId);
  }

  private static Configuration jobConf() {
    Configuration conf = new Configuration(both.hops().clientConf());
    conf.set("mapreduce.framework.name", "local");
    conf.set("hadoop.tmp.dir", new File(local, "tmp").getPath());
    conf.set("mapreduce.jobtracker.staging.root.dir", "/user/staging");
    conf.set("mapreduce.cluster.local.dir", new File(local, "mapred").getPath());
    conf.setInt("dfs.replication", 1);
    return conf;
  }

  private static URI uri(DistributedFileSystem fs) {
    return fs.getUri();
  }

  private static Path p(String path) {
    return new Path(path);
  }

  /** Every path below {@code root}, relative to it, with a file's bytes; in name order. */
  private static List<String> tree(DistributedFileSystem fs, Path root) throws Exception {
    List<String> out = new ArrayList<>();
    walk(fs, root.toUri().getPath(), root, out);
    return out;
  }

  private static void walk(DistributedFileSystem fs, String root, Path dir, List<String> out)
      throws Exception {
    for (FileStatus c : fs.listStatus(dir)) {
      String rel = c.getPath().toUri().getPath().substring(root.length());
      if (c.isDirectory()) {
        out.add(rel + "/");
        walk(fs, root, c.getPath(), out);
      } else {
        try (InputStream in = fs.open(c.getPath())) {
          out.add(rel + " " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    }
  }
}
