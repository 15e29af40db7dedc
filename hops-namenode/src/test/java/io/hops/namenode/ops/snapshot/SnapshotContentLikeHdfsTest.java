package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Content summaries with snapshots against hops and Apache HDFS in the same run: after files and a
 * directory are deleted, a file renamed and one created and deleted again under a snapshotted
 * directory, {@code getContentSummary} (with its snapshot figures), {@code getQuotaUsage} of a
 * directory without a quota, {@code dfs -count -q}, {@code dfs -du} and {@code dfs -du -x} of the
 * directory, of directories below it and of a file answer as HDFS's; before the changes, and in a
 * directory no snapshot covers, nothing is counted twice. Blocks truncates keep for the snapshots
 * count in their files' space, as HDFS counts its file diffs' blocks.
 */
class SnapshotContentLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-content", smallBlocks(), 1));

  private static final int BLOCK = 1024;

  private static Configuration smallBlocks() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong(org.apache.hadoop.hdfs.DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, BLOCK);
    return conf;
  }

  @Test
  void contentSummariesCountWhatOnlySnapshotsHoldAsHdfsDoes() throws Exception {
    List<String> hdfs = history(both.hdfsSide().admin());
    List<String> hops = history(both.hopsSide().admin());
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
    assertThat(hdfs).anyMatch(l -> l.contains("snapshotLength=1550"));
  }

  /**
   * A truncate below a snapshot's length keeps the cut-off blocks for the snapshot (HDFS's file
   * diff, hops's tail): HDFS counts them in the file's space consumed, not in the snapshot figures,
   * in the summaries of the file and of every directory above it, until the snapshots that keep
   * them are deleted. Truncates inside a block (its copy) and on a boundary, a second one after a
   * second snapshot, then each snapshot deleted.
   */
  @Test
  void blocksTruncatesKeepForSnapshotsCountInTheFilesSpaceAsHdfsDoes() throws Exception {
    List<String> hdfs = truncates(both.hdfsSide().admin());
    List<String> hops = truncates(both.hopsSide().admin());
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
    assertThat(hdfs)
        .anyMatch(l -> l.startsWith("/ct/sub/t: length=500 files=1 dirs=0 space=4476 "));
  }

  private static List<String> truncates(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p("/ct/sub"));
    write(fs, "/ct/sub/t", 3500, BLOCK);
    write(fs, "/ct/b", 2 * BLOCK, BLOCK);
    write(fs, "/ct/other", 100, BLOCK);
    fs.allowSnapshot(p("/ct"));
    fs.createSnapshot(p("/ct"), "s1");
    List<String> out = new ArrayList<>();
    List<String> paths = List.of("/ct", "/ct/sub", "/ct/sub/t", "/ct/b");
    views(fs, out, paths);
    out.add("cut inside a block: " + SnapshotTestFiles.truncate(fs, "/ct/sub/t", 1500));
    views(fs, out, paths);
    out.add("cut on a boundary: " + SnapshotTestFiles.truncate(fs, "/ct/b", BLOCK));
    views(fs, out, paths);
    fs.createSnapshot(p("/ct"), "s2");
    out.add("cut after s2: " + SnapshotTestFiles.truncate(fs, "/ct/sub/t", 500));
    views(fs, out, paths);
    fs.deleteSnapshot(p("/ct"), "s1");
    views(fs, out, paths);
    fs.deleteSnapshot(p("/ct"), "s2");
    views(fs, out, paths);
    return out;
  }

  private static List<String> history(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p("/c/sub/deep"));
    fs.mkdirs(p("/c/gone/in"));
    fs.mkdirs(p("/plain"));
    write(fs, "/c/a", 1000);
    write(fs, "/c/b", 500);
    write(fs, "/c/ren", 50);
    write(fs, "/c/sub/x", 300);
    write(fs, "/c/sub/deep/y", 200);
    write(fs, "/c/gone/z", 100);
    write(fs, "/c/gone/in/w", 100);
    write(fs, "/plain/p", 10);
    fs.setQuota(p("/c/sub"), 1000, 1L << 30);
    fs.allowSnapshot(p("/c"));
    fs.createSnapshot(p("/c"), "s1");
    List<String> out = new ArrayList<>();
    views(fs, out);
    fs.delete(p("/c/a"), false);
    fs.delete(p("/c/gone"), true);
    fs.delete(p("/c/sub/x"), false);
    fs.rename(p("/c/ren"), p("/c/sub/ren2"));
    write(fs, "/c/new", 70);
    fs.delete(p("/c/new"), false);
    fs.delete(p("/plain/p"), false);
    views(fs, out);
    fs.createSnapshot(p("/c"), "s2");
    fs.delete(p("/c/b"), false);
    views(fs, out);
    return out;
  }

  private static void views(DistributedFileSystem fs, List<String> out) throws Exception {
    views(fs, out, List.of("/c", "/c/sub", "/c/sub/deep", "/plain", "/c/sub/deep/y"));
  }

  private static void views(DistributedFileSystem fs, List<String> out, List<String> paths)
      throws Exception {
    for (String path : paths) {
      ContentSummary cs = fs.getContentSummary(p(path));
      out.add(path + ": " + SnapshotTestFiles.figures(cs));
      out.add(path + " count -q: " + shell(fs, "-count", "-q", path));
      out.add(path + " du -s: " + shell(fs, "-du", "-s", path));
      out.add(path + " du -s -x: " + shell(fs, "-du", "-s", "-x", path));
      if (fs.getFileStatus(p(path)).isDirectory()) {
        QuotaUsage q = fs.getQuotaUsage(p(path));
        out.add(
            path + " quota usage: " + q.getFileAndDirectoryCount() + " " + q.getSpaceConsumed());
      }
    }
  }

  /** What {@code hdfs dfs args} prints against {@code fs}. */
  private static synchronized String shell(DistributedFileSystem fs, String... args)
      throws Exception {
    Configuration conf = new Configuration(fs.getConf());
    conf.set("fs.defaultFS", fs.getUri().toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream was = System.out;
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    int rc;
    try {
      rc = ToolRunner.run(new FsShell(conf), args);
    } finally {
      System.setOut(was);
    }
    return rc + " " + bytes.toString(StandardCharsets.UTF_8).trim().replaceAll("\\s+", " ");
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static void write(DistributedFileSystem fs, String path, int n) throws Exception {
    write(fs, path, n, 128L << 20);
  }

  private static void write(DistributedFileSystem fs, String path, int n, long blockSize)
      throws Exception {
    try (FSDataOutputStream out = fs.create(p(path), true, 4096, (short) 1, blockSize)) {
      out.write(new byte[n]);
    }
    assertThat(fs.getFileStatus(p(path)).getReplication()).isEqualTo((short) 1);
  }
}
