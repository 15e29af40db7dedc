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
 * directory no snapshot covers, nothing is counted twice.
 */
class SnapshotContentLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-content", SnapshotTestFiles.snapshotsOn(), 1));

  @Test
  void contentSummariesCountWhatOnlySnapshotsHoldAsHdfsDoes() throws Exception {
    List<String> hdfs = history(both.hdfsSide().admin());
    List<String> hops = history(both.hopsSide().admin());
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
    assertThat(hdfs).anyMatch(l -> l.contains("snapshotLength=1550"));
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
    for (String path : List.of("/c", "/c/sub", "/c/sub/deep", "/plain", "/c/sub/deep/y")) {
      ContentSummary cs = fs.getContentSummary(p(path));
      out.add(path + ": " + SnapshotTestFiles.figures(cs));
      out.add(path + " count -q: " + shell(fs, "-count", "-q", path));
      out.add(path + " du -s: " + shell(fs, "-du", "-s", path));
      out.add(path + " du -s -x: " + shell(fs, "-du", "-s", "-x", path));
    }
    for (String path : List.of("/c", "/c/sub/deep")) {
      QuotaUsage q = fs.getQuotaUsage(p(path));
      out.add(path + " quota usage: " + q.getFileAndDirectoryCount() + " " + q.getSpaceConsumed());
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
    try (FSDataOutputStream out = fs.create(p(path), true, 4096, (short) 1, 128L << 20)) {
      out.write(new byte[n]);
    }
    assertThat(fs.getFileStatus(p(path)).getReplication()).isEqualTo((short) 1);
  }
}
