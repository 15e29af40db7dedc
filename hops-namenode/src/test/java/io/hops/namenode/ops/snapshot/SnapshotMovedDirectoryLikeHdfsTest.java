package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.line;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.sorted;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
 * Directories a snapshot has, moved out of their snapshottable directory (to a plain one, and
 * across to another snapshottable one) and then changed there, against hops and Apache HDFS in the
 * same run: the snapshot must go on showing each subtree as it was when it was taken (children,
 * attributes, file contents), whatever happens to it afterwards, and the diff reports must be
 * HDFS's (docs/architecture.md, "Snapshots"); and the cases the generated history ({@code
 * SnapshotHistoryLikeHdfsTest}) found around them.
 */
class SnapshotMovedDirectoryLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-moved-dir", SnapshotTestFiles.snapshotsOn(), 1));

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void anEmptyDirectoryMovedOutShowsNoChildrenItGotOutside() throws Exception {
    assertAlike(
        "/e",
        fs -> {
          fs.mkdirs(p("/e/d/empty"));
          fs.mkdirs(p("/e/o"));
          fs.allowSnapshot(p("/e/d"));
          fs.createSnapshot(p("/e/d"), "s0");
          fs.rename(p("/e/d/empty"), p("/e/o/moved"));
          write(fs, "/e/o/moved/x", "outside");
          fs.mkdirs(p("/e/o/moved/y/z"));
          fs.setPermission(p("/e/o/moved"), new FsPermission((short) 0700));
        },
        "/e/d");
  }

  @Test
  void aNonEmptyDirectoryMovedOutKeepsItsSubtreeInTheSnapshot() throws Exception {
    assertAlike(
        "/n",
        fs -> {
          fs.mkdirs(p("/n/d/t/sub"));
          fs.mkdirs(p("/n/o"));
          write(fs, "/n/d/t/f", "first file");
          write(fs, "/n/d/t/sub/g", "deep file");
          write(fs, "/n/d/t/sub/h", "to be overwritten");
          fs.allowSnapshot(p("/n/d"));
          fs.createSnapshot(p("/n/d"), "s0");
          fs.rename(p("/n/d/t"), p("/n/o/t"));
          fs.createSnapshot(p("/n/d"), "s1");
          try (FSDataOutputStream out = fs.append(p("/n/o/t/f"))) {
            out.writeBytes(" and more");
          }
          fs.setPermission(p("/n/o/t/f"), new FsPermission((short) 0600));
          fs.setOwner(p("/n/o/t/sub"), "alice", "staff");
          fs.delete(p("/n/o/t/sub/g"), false);
          write(fs, "/n/o/t/sub/h", "overwritten outside");
          write(fs, "/n/o/t/sub/new", "created outside");
          fs.rename(p("/n/o/t/sub"), p("/n/o/sub2"));
          fs.delete(p("/n/o/sub2"), true);
        },
        "/n/d");
  }

  @Test
  void aDirectoryMovedAcrossSnapshottableDirectoriesIsSeenByBoth() throws Exception {
    assertAlike(
        "/a",
        fs -> {
          fs.mkdirs(p("/a/d1/t/sub"));
          fs.mkdirs(p("/a/d2"));
          write(fs, "/a/d1/t/f", "in d1");
          write(fs, "/a/d1/t/sub/g", "deep in d1");
          fs.allowSnapshot(p("/a/d1"));
          fs.allowSnapshot(p("/a/d2"));
          fs.createSnapshot(p("/a/d1"), "s0");
          fs.createSnapshot(p("/a/d2"), "s0");
          fs.rename(p("/a/d1/t"), p("/a/d2/t"));
          write(fs, "/a/d2/t/sub/g", "rewritten in d2");
          fs.createSnapshot(p("/a/d2"), "s1");
          fs.delete(p("/a/d2/t/f"), false);
          fs.mkdirs(p("/a/d2/t/later"));
          fs.rename(p("/a/d2/t"), p("/a/t"));
          write(fs, "/a/t/outside", "after both");
          fs.delete(p("/a/t/sub"), true);
        },
        "/a/d1",
        "/a/d2");
  }

  /**
   * A chown or chmod that changes nothing still records the directory in the latest snapshot, as
   * HDFS's does, so a diff between it and a later snapshot reports the directory modified when it
   * changes after the later one (HDFS compares its state with the states after the later end).
   * Found by the generated history, seed -3911416484948678762.
   */
  @Test
  void aChangeThatChangesNothingStillMarksTheDirectoryInTheSnapshot() throws Exception {
    assertAlike(
        "/u",
        fs -> {
          fs.mkdirs(p("/u/d/owned"));
          fs.mkdirs(p("/u/d/moded"));
          fs.setOwner(p("/u/d/owned"), "bob", "g");
          fs.allowSnapshot(p("/u/d"));
          fs.createSnapshot(p("/u/d"), "s0");
          fs.setOwner(p("/u/d/owned"), "bob", "g");
          fs.setPermission(p("/u/d/moded"), new FsPermission((short) 0755));
          fs.createSnapshot(p("/u/d"), "s1");
          fs.setPermission(p("/u/d/owned"), new FsPermission((short) 0600));
          fs.setOwner(p("/u/d/moded"), "alice", "staff");
        },
        "/u/d");
  }

  /**
   * A held directory made snapshottable, then not, then snapshottable again with a snapshot of its
   * own taken and deleted: HDFS allows each call (the directory has no snapshot of its own when it
   * is disallowed), and the snapshot it was moved away from goes on showing its subtree as it was.
   */
  @Test
  void aHeldDirectoryIsAllowedAndDisallowedAsInHdfs() throws Exception {
    assertAlike(
        "/h",
        fs -> {
          fs.mkdirs(p("/h/d/t/sub"));
          fs.mkdirs(p("/h/o"));
          write(fs, "/h/d/t/f", "first file");
          write(fs, "/h/d/t/sub/g", "deep file");
          fs.allowSnapshot(p("/h/d"));
          fs.createSnapshot(p("/h/d"), "s0");
          fs.rename(p("/h/d/t"), p("/h/o/t"));
          fs.allowSnapshot(p("/h/o/t"));
          write(fs, "/h/o/t/sub/g", "overwritten while snapshottable");
          fs.disallowSnapshot(p("/h/o/t"));
          fs.delete(p("/h/o/t/f"), false);
          fs.allowSnapshot(p("/h/o/t"));
          fs.createSnapshot(p("/h/o/t"), "own");
          fs.mkdirs(p("/h/o/t/later"));
          fs.deleteSnapshot(p("/h/o/t"), "own");
          fs.delete(p("/h/o/t/sub"), true);
          fs.disallowSnapshot(p("/h/o/t"));
          write(fs, "/h/o/t/last", "after all");
        },
        "/h/d");
  }

  @FunctionalInterface
  private interface History {
    void run(DistributedFileSystem fs) throws Exception;
  }

  /** Runs the history on both sides, then compares the tree, the snapshots and every diff. */
  /**
   * A diff report reads only the directories its snapshottable directory's version log names
   * (docs/architecture.md, "Diff reports", which directories); below a directory held by a move
   * into another snapshottable directory, versions are logged under the held one, so the other's
   * diffs must still see the changes there.
   */
  @Test
  void aChangeBelowADirectoryHeldInsideAnotherSnapshottableOneIsInItsDiffs() throws Exception {
    assertAlike(
        "/x",
        fs -> {
          fs.mkdirs(p("/x/a/h/deep/er"));
          fs.mkdirs(p("/x/b/plain"));
          write(fs, "/x/a/h/deep/f", "file");
          write(fs, "/x/a/h/deep/er/g", "deeper file");
          fs.allowSnapshot(p("/x/a"));
          fs.allowSnapshot(p("/x/b"));
          fs.createSnapshot(p("/x/a"), "s0");
          fs.rename(p("/x/a/h"), p("/x/b/h"));
          fs.createSnapshot(p("/x/b"), "s1");
          write(fs, "/x/b/h/deep/er/g2", "created below the held directory");
          fs.setPermission(p("/x/b/h/deep/f"), new FsPermission((short) 0600));
          fs.createSnapshot(p("/x/b"), "s2");
          fs.delete(p("/x/b/h/deep/er/g"), false);
        },
        "/x/a",
        "/x/b");
  }

  /**
   * A directory moved out and back between two snapshots: what changed while out is in the diff.
   */
  @Test
  void aDirectoryMovedOutAndBackShowsWhatChangedOutside() throws Exception {
    assertAlike(
        "/y",
        fs -> {
          fs.mkdirs(p("/y/d/m/k/j"));
          fs.mkdirs(p("/y/o"));
          write(fs, "/y/d/m/k/f", "file");
          fs.allowSnapshot(p("/y/d"));
          fs.createSnapshot(p("/y/d"), "s0");
          fs.rename(p("/y/d/m"), p("/y/o/m"));
          fs.setPermission(p("/y/o/m/k/f"), new FsPermission((short) 0600));
          write(fs, "/y/o/m/k/j/g", "created outside");
          fs.rename(p("/y/o/m"), p("/y/d/m"));
          fs.createSnapshot(p("/y/d"), "s1");
          write(fs, "/y/d/m/k/j/h", "created after");
        },
        "/y/d");
  }

  private static void assertAlike(String root, History history, String... snapshottable)
      throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      DistributedFileSystem fs = s.admin();
      List<String> out = s == both.hopsSide() ? hops : hdfs;
      try {
        history.run(fs);
        out.add("history done");
      } catch (IOException e) {
        out.add("history failed: " + SideBySide.failure(e));
      }
      walk(fs, root, out);
      for (String dir : snapshottable) {
        List<String> names = new ArrayList<>();
        for (FileStatus snap : sorted(fs.listStatus(p(dir + "/.snapshot")))) {
          names.add(snap.getPath().getName());
          walk(fs, dir + "/.snapshot/" + snap.getPath().getName(), out);
        }
        names.add("");
        SnapshotTestFiles.diffsBetween(fs, dir, names, out);
      }
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }

  private static void walk(DistributedFileSystem fs, String dir, List<String> out)
      throws IOException {
    for (FileStatus c : sorted(fs.listStatus(p(dir)))) {
      String path = dir + "/" + c.getPath().getName();
      if (c.isDirectory()) {
        out.add(line(c, path));
        walk(fs, path, out);
      } else {
        out.add(line(c, path) + " data=" + contents(fs, path));
      }
    }
  }

  private static String contents(DistributedFileSystem fs, String path) throws IOException {
    try (InputStream in = fs.open(p(path))) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      in.transferTo(b);
      return b.toString(StandardCharsets.UTF_8);
    }
  }
}
