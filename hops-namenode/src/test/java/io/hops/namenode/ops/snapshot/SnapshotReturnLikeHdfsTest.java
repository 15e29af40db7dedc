package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.sorted;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
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
 * Files and directories a snapshot has that leave the snapshottable directory and come back into it
 * (under another name, the same name, or into a subdirectory), with snapshots taken while they are
 * away and changes made outside, against hops and Apache HDFS in the same run: every diff report
 * between the snapshots and the current tree, both ways, must be HDFS's, which follows the
 * reference the rename left (docs/architecture.md, "Snapshots", "Diff reports").
 */
class SnapshotReturnLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-return", SnapshotTestFiles.snapshotsOn(), 1));

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void aFileBackUnderAnotherNameBeforeTheNextSnapshot() throws Exception {
    assertAlike(
        "/a",
        fs -> {
          prepare(fs, "/a");
          fs.createSnapshot(p("/a/d"), "s1");
          fs.rename(p("/a/d/f"), p("/a/x/f"));
          fs.rename(p("/a/x/f"), p("/a/d/g"));
          fs.createSnapshot(p("/a/d"), "s2");
        });
  }

  @Test
  void aFileBackUnderItsOwnNameModifiedOutside() throws Exception {
    assertAlike(
        "/b",
        fs -> {
          prepare(fs, "/b");
          fs.createSnapshot(p("/b/d"), "s1");
          fs.rename(p("/b/d/f"), p("/b/x/f"));
          append(fs, "/b/x/f");
          fs.rename(p("/b/x/f"), p("/b/d/f"));
          fs.createSnapshot(p("/b/d"), "s2");
        });
  }

  @Test
  void aFileBackIntoASubdirectoryAfterSnapshotsTakenWhileAway() throws Exception {
    assertAlike(
        "/c",
        fs -> {
          prepare(fs, "/c");
          fs.createSnapshot(p("/c/d"), "s1");
          fs.rename(p("/c/d/f"), p("/c/x/f"));
          fs.createSnapshot(p("/c/d"), "s2");
          fs.setPermission(p("/c/x/f"), new FsPermission((short) 0600));
          fs.createSnapshot(p("/c/d"), "s3");
          fs.rename(p("/c/x/f"), p("/c/d/sub/g"));
          fs.createSnapshot(p("/c/d"), "s4");
          append(fs, "/c/d/sub/g");
        });
  }

  @Test
  void aFileBackAfterALaterSnapshotAndAwayAgain() throws Exception {
    assertAlike(
        "/e",
        fs -> {
          prepare(fs, "/e");
          fs.createSnapshot(p("/e/d"), "s1");
          fs.rename(p("/e/d/f"), p("/e/x/f"));
          fs.createSnapshot(p("/e/d"), "s2");
          fs.rename(p("/e/x/f"), p("/e/d/g"));
          fs.createSnapshot(p("/e/d"), "s3");
          fs.rename(p("/e/d/g"), p("/e/x/h"));
          fs.createSnapshot(p("/e/d"), "s4");
          fs.rename(p("/e/x/h"), p("/e/d/f"));
        });
  }

  @Test
  void aFileAcrossSnapshottableDirectoriesAndBack() throws Exception {
    assertAlike(
        "/k",
        fs -> {
          prepare(fs, "/k");
          fs.mkdirs(p("/k/d2"));
          fs.allowSnapshot(p("/k/d2"));
          fs.createSnapshot(p("/k/d"), "s1");
          fs.rename(p("/k/d/f"), p("/k/d2/f"));
          fs.createSnapshot(p("/k/d2"), "t1");
          fs.createSnapshot(p("/k/d"), "s2");
          fs.rename(p("/k/d2/f"), p("/k/d/r"));
          fs.createSnapshot(p("/k/d2"), "t2");
        },
        "/k/d2");
  }

  @Test
  void aDirectoryBackUnderAnotherNameAndIntoASubdirectory() throws Exception {
    assertAlike(
        "/t",
        fs -> {
          prepare(fs, "/t");
          fs.mkdirs(p("/t/d/t/in"));
          write(fs, "/t/d/t/in/h", "deep");
          fs.createSnapshot(p("/t/d"), "s1");
          fs.rename(p("/t/d/t"), p("/t/x/t"));
          write(fs, "/t/x/t/new", "made outside");
          fs.createSnapshot(p("/t/d"), "s2");
          fs.rename(p("/t/x/t"), p("/t/d/sub/t2"));
          fs.createSnapshot(p("/t/d"), "s3");
          fs.rename(p("/t/d/sub/t2"), p("/t/x/t3"));
          fs.rename(p("/t/x/t3"), p("/t/d/t"));
        });
  }

  @Test
  void aFileAwayAndBackWithinOnePeriodUnderItsOwnName() throws Exception {
    assertAlike(
        "/w",
        fs -> {
          prepare(fs, "/w");
          fs.createSnapshot(p("/w/d"), "s1");
          fs.rename(p("/w/d/f"), p("/w/d/sub/f"));
          fs.rename(p("/w/d/sub/f"), p("/w/d/f"));
          fs.setPermission(p("/w/d/sub/e"), new FsPermission((short) 0600));
          fs.rename(p("/w/d/sub/e"), p("/w/x/e"));
          fs.createSnapshot(p("/w/d"), "s2");
          fs.rename(p("/w/x/e"), p("/w/d/sub/e"));
        });
  }

  @Test
  void aDirectoryRenamedWithinAfterAFileMovedIntoIt() throws Exception {
    assertAlike(
        "/i",
        fs -> {
          prepare(fs, "/i");
          fs.mkdirs(p("/i/d/b"));
          fs.createSnapshot(p("/i/d"), "s1");
          fs.rename(p("/i/d/f"), p("/i/d/b/fr"));
          fs.createSnapshot(p("/i/d"), "s2");
          fs.rename(p("/i/d/b"), p("/i/d/b2"));
          fs.rename(p("/i/d/sub"), p("/i/x/sub"));
          fs.createNewFile(p("/i/d/b2/x"));
        });
  }

  private static void prepare(DistributedFileSystem fs, String root) throws Exception {
    fs.mkdirs(p(root + "/d/sub"));
    fs.mkdirs(p(root + "/x"));
    write(fs, root + "/d/f", "the file");
    write(fs, root + "/d/sub/e", "another");
    fs.allowSnapshot(p(root + "/d"));
  }

  private static void append(DistributedFileSystem fs, String path) throws Exception {
    try (FSDataOutputStream out = fs.append(p(path))) {
      out.writeBytes(" and more");
    }
  }

  @FunctionalInterface
  private interface History {
    void run(DistributedFileSystem fs) throws Exception;
  }

  /** Runs the history on both sides, then compares every diff of {@code root/d} and the others. */
  private static void assertAlike(String root, History history, String... others) throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      DistributedFileSystem fs = s.admin();
      List<String> out = s == both.hopsSide() ? hops : hdfs;
      history.run(fs);
      List<String> dirs = new ArrayList<>(List.of(root + "/d"));
      dirs.addAll(List.of(others));
      for (String dir : dirs) {
        List<String> names = new ArrayList<>();
        for (FileStatus snap : sorted(fs.listStatus(p(dir + "/.snapshot")))) {
          names.add(snap.getPath().getName());
        }
        names.add("");
        for (String from : names) {
          for (String to : names) {
            if (!from.equals(to)) {
              out.add(
                  "diff "
                      + dir
                      + " '"
                      + from
                      + "' -> '"
                      + to
                      + "': "
                      + fs.getSnapshotDiffReport(p(dir), from, to));
              out.add("  unpaged: " + fs.getClient().getSnapshotDiffReport(dir, from, to));
            }
          }
        }
      }
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }
}
