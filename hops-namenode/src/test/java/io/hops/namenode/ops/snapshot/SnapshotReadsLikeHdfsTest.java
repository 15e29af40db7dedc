package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.sorted;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code .snapshot} reads and the copy-on-write behind them, against hops and Apache HDFS in the
 * same run: a scripted history under a snapshottable directory (mkdir, create, delete, rename,
 * chmod, chown, setTimes, snapshot create, rename and delete); after every step, every snapshot's
 * recursive listing (names, types, modes, owners, groups, lengths of files) and a few stats of
 * snapshot paths must be HDFS's, and every write into a snapshot must fail as in HDFS.
 */
class SnapshotReadsLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
              () -> SideBySide.start("snapshot-reads", SnapshotTestFiles.snapshotsOn(), 1))
          .eachSide(SnapshotReadsLikeHdfsTest::setUp);

  private static void setUp(Side s) throws Exception {
    DistributedFileSystem fs = s.admin();
    fs.mkdirs(p("/h/a/b"));
    write(fs, "/h/f1", "hello");
    write(fs, "/h/a/f2", "some bytes");
    fs.createNewFile(p("/h/a/b/f3"));
    fs.setPermission(p("/h/a"), new FsPermission((short) 0750));
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static void write(DistributedFileSystem fs, String path, String data) throws Exception {
    try (FSDataOutputStream out = fs.create(p(path))) {
      out.writeBytes(data);
    }
  }

  @FunctionalInterface
  private interface Action {
    void run(DistributedFileSystem fs) throws Exception;
  }

  private record Step(String name, Action action) {}

  private static Step step(String name, Action a) {
    return new Step(name, a);
  }

  @Test
  void everySnapshotListsAsInHdfsAfterEveryStep() throws Exception {
    List<Step> history =
        List.of(
            step("allow", fs -> fs.allowSnapshot(p("/h"))),
            step("stat of an empty .snapshot", fs -> stat(fs, "/h/.snapshot")),
            step("create s1", fs -> fs.createSnapshot(p("/h"), "s1")),
            step("create a file", fs -> fs.createNewFile(p("/h/new1"))),
            step("delete a file", fs -> fs.delete(p("/h/f1"), false)),
            step("chmod a directory", fs -> fs.setPermission(p("/h/a"), perm(0700))),
            step("chown a file", fs -> fs.setOwner(p("/h/a/f2"), "alice", "staff")),
            step("setTimes", fs -> fs.setTimes(p("/h/a/f2"), 1000L, 2000L)),
            step("rename across dirs", fs -> fs.rename(p("/h/a/f2"), p("/h/a/b/f2moved"))),
            step("mkdirs -p", fs -> fs.mkdirs(p("/h/c/d"))),
            step("create s2", fs -> fs.createSnapshot(p("/h"), "s2")),
            step("rename a directory", fs -> fs.rename(p("/h/a"), p("/h/a2"))),
            step("delete a tree", fs -> fs.delete(p("/h/c"), true)),
            step("chmod the new file", fs -> fs.setPermission(p("/h/new1"), perm(0600))),
            step("chmod the root", fs -> fs.setPermission(p("/h"), perm(0711))),
            step("rename s2", fs -> fs.renameSnapshot(p("/h"), "s2", "s2r")),
            step("create s3", fs -> fs.createSnapshot(p("/h"), "s3")),
            step("delete a moved tree", fs -> fs.delete(p("/h/a2"), true)),
            step("recreate a deleted name", fs -> fs.mkdirs(p("/h/f1"))),
            step("delete s1", fs -> fs.deleteSnapshot(p("/h"), "s1")),
            step("mkdir in a snapshot", fs -> fs.mkdirs(p("/h/.snapshot/s3/x"))),
            step("create in a snapshot", fs -> fs.createNewFile(p("/h/.snapshot/s3/y"))),
            step("delete in a snapshot", fs -> fs.delete(p("/h/.snapshot/s3/new1"), false)),
            step("rename out of a snapshot", fs -> fs.rename(p("/h/.snapshot/s3/new1"), p("/h/z"))),
            step("rename into a snapshot", fs -> fs.rename(p("/h/new1"), p("/h/.snapshot/s3/z"))),
            step(
                "chmod in a snapshot", fs -> fs.setPermission(p("/h/.snapshot/s3/a2"), perm(0777))),
            step("chown in a snapshot", fs -> fs.setOwner(p("/h/.snapshot/s3/new1"), "alice", "x")),
            step("setTimes in a snapshot", fs -> fs.setTimes(p("/h/.snapshot/s3/new1"), 1, 1)),
            step("delete s3", fs -> fs.deleteSnapshot(p("/h"), "s3")));
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (Step s : history) {
      hdfs.add(s.name() + " -> " + outcome(s.action(), both.hdfsSide().admin()));
      hops.add(s.name() + " -> " + outcome(s.action(), both.hopsSide().admin()));
      hdfs.add(view(both.hdfsSide().admin()));
      hops.add(view(both.hopsSide().admin()));
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }

  private static FsPermission perm(int mode) {
    return new FsPermission((short) mode);
  }

  private static void stat(DistributedFileSystem fs, String path) throws Exception {
    FileStatus st = fs.getFileStatus(p(path));
    if (!st.isDirectory()) {
      throw new AssertionError(path + " is not a directory");
    }
  }

  private static String outcome(Action a, DistributedFileSystem fs) {
    try {
      a.run(fs);
      return "done";
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }

  /** Every snapshot of /h, recursively, and stats of a few snapshot paths. */
  private static String view(DistributedFileSystem fs) {
    StringBuilder b = new StringBuilder();
    try {
      FileStatus dot = fs.getFileStatus(p("/h/.snapshot"));
      b.append("  .snapshot ").append(dot.isDirectory()).append('\n');
      FileStatus[] snapshots = fs.listStatus(p("/h/.snapshot"));
      for (FileStatus s : sorted(snapshots)) {
        b.append("  ").append(line(s, s.getPath().getName()));
        walk(fs, s.getPath(), s.getPath().getName(), b);
        FileStatus st = fs.getFileStatus(s.getPath());
        b.append("  stat ").append(line(st, s.getPath().getName()));
      }
      b.append("  missing snapshot ")
          .append(outcome(f -> f.getFileStatus(p("/h/.snapshot/none")), fs))
          .append('\n');
    } catch (Exception e) {
      b.append("  ").append(SideBySide.failure(e)).append('\n');
    }
    return b.toString();
  }

  private static void walk(DistributedFileSystem fs, Path dir, String rel, StringBuilder b)
      throws Exception {
    for (FileStatus c : sorted(fs.listStatus(dir))) {
      String name = rel + "/" + c.getPath().getName();
      b.append("    ").append(line(c, name));
      if (c.isDirectory()) {
        walk(fs, c.getPath(), name, b);
      } else {
        FileStatus st = fs.getFileStatus(c.getPath());
        b.append("    stat ").append(line(st, name));
      }
    }
  }

  private static String line(FileStatus s, String name) {
    return SnapshotTestFiles.line(s, name) + "\n";
  }
}
