package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digest;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digestOf;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Inodes that the snapshots of two holders read (docs/architecture.md, "Snapshots": a directory
 * held twice, a file marked by two directories), against hops and Apache HDFS in the same run: a
 * directory moved out of snapshottable directory {@code a} into {@code b} and then out of {@code
 * b}, or out of {@code a} twice, and a file renamed away from an entry of {@code a} and then of
 * {@code b}, with files deleted below or the file deleted; the snapshots are deleted one by one, in
 * either order and some through the second namenode. While any snapshot that has the files remains,
 * they read byte for byte as in HDFS and their blocks stay on the datanode; after the last, the
 * blocks are invalidated and no kept row is left (none held for good under directory 0), with the
 * namespace check clean.
 */
class SnapshotSeveralHoldersLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () ->
              SideBySide.start(
                  "snapshot-several-holders", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  private static final List<String> BELOW = List.of("t/f", "t/g", "t/sub/h");

  private static Path p(String path) {
    return new Path(path);
  }

  /** A snapshot to delete: the directory, the snapshot's name, and whether through the other nn. */
  private record Doomed(String dir, String name, boolean throughOther) {}

  @Test
  void aDirectoryMovedOutOfTwoSnapshottableDirectoriesIsReleasedByTheLastFirstHolderLast()
      throws Exception {
    List<LocatedBlock> kept = alike(fs -> heldByTwo(fs, "/ab1"));
    deleteInTurn(
        kept,
        List.of(new Doomed("/ab1/a", "s0", false), new Doomed("/ab1/b", "b0", true)),
        below("/ab1/b/.snapshot/b0/", BELOW));
  }

  @Test
  void aDirectoryMovedOutOfTwoSnapshottableDirectoriesIsReleasedByTheLastSecondHolderLast()
      throws Exception {
    List<LocatedBlock> kept = alike(fs -> heldByTwo(fs, "/ab2"));
    deleteInTurn(
        kept,
        List.of(new Doomed("/ab2/b", "b0", true), new Doomed("/ab2/a", "s0", false)),
        below("/ab2/a/.snapshot/s0/", BELOW));
  }

  /**
   * As above, and the directory deleted after its second move: it has no row that says its larger
   * hold (b0's, where f, g and sub/h are kept), which ends first; the smaller one ending last must
   * release them all the same.
   */
  @Test
  void aDeletedDirectoryHeldByTwoIsReleasedWhenItsSmallerHoldEndsLast() throws Exception {
    List<LocatedBlock> kept =
        alike(
            fs -> {
              List<String> out = heldByTwo(fs, "/abd");
              out.add("delete t: " + fs.fs().delete(p("/abd/o/t"), true));
              return out;
            });
    deleteInTurn(
        kept,
        List.of(new Doomed("/abd/b", "b0", true), new Doomed("/abd/a", "s0", false)),
        below("/abd/a/.snapshot/s0/", BELOW));
  }

  @Test
  void aDirectoryMovedOutOfOneSnapshottableDirectoryTwiceIsReleasedWithItsLastSnapshot()
      throws Exception {
    List<LocatedBlock> kept = alike(fs -> heldTwiceByOne(fs, "/aa"));
    deleteInTurn(
        kept,
        List.of(new Doomed("/aa/a", "s0", false), new Doomed("/aa/a", "s1", true)),
        below("/aa/a/.snapshot/s1/", List.of("t/g", "t/sub/h")));
  }

  @Test
  void aFileRenamedAwayFromEntriesOfTwoDirectoriesIsReleasedByTheLastFirstHolderLast()
      throws Exception {
    List<LocatedBlock> kept = alike(fs -> markedByTwo(fs, "/m1"));
    deleteInTurn(
        kept,
        List.of(new Doomed("/m1/b", "b0", false), new Doomed("/m1/a", "s0", true)),
        List.of("/m1/a/.snapshot/s0/f"));
  }

  @Test
  void aFileRenamedAwayFromEntriesOfTwoDirectoriesIsReleasedByTheLastSecondHolderLast()
      throws Exception {
    List<LocatedBlock> kept = alike(fs -> markedByTwo(fs, "/m2"));
    deleteInTurn(
        kept,
        List.of(new Doomed("/m2/a", "s0", true), new Doomed("/m2/b", "b0", false)),
        List.of("/m2/b/.snapshot/b0/f"));
  }

  /**
   * A file renamed from {@code a} into {@code b} and then within {@code b}, after a snapshot of
   * each had it, truncated inside its block: both snapshots read it whole, the tail is kept under
   * both directories, and deleting both snapshots releases it. Checked on hops's side against the
   * bytes written: HDFS 3.5.0 fails to read a file renamed out of its snapshottable directory and
   * then truncated (docs/architecture.md, "Truncate and append").
   */
  @Test
  void theTailATruncateKeepsOfAFileMarkedByTwoDirectoriesIsReleasedWithTheLastHolder()
      throws Exception {
    DistributedFileSystem fs = both.hopsSide().admin();
    String a = "/tr/a";
    String b = "/tr/b";
    fs.mkdirs(p(a));
    fs.mkdirs(p(b));
    write(fs, a + "/f", text("f", 3000));
    List<LocatedBlock> kept = SnapshotKeptBlocks.blocksOf(fs, a + "/f");
    fs.allowSnapshot(p(a));
    fs.allowSnapshot(p(b));
    fs.createSnapshot(p(a), "s0");
    fs.rename(p(a + "/f"), p(b + "/f"));
    fs.createSnapshot(p(b), "b0");
    fs.rename(p(b + "/f"), p(b + "/f2"));
    SnapshotTestFiles.truncate(fs, b + "/f2", 1000);
    String whole = digest(text("f", 3000));
    assertThat(digestOf(fs, a + "/.snapshot/s0/f")).isEqualTo(whole);
    assertThat(digestOf(fs, b + "/.snapshot/b0/f")).isEqualTo(whole);
    assertThat(digestOf(fs, b + "/f2")).isEqualTo(digest(text("f", 3000).substring(0, 1000)));
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED))
          .as("one kept row of the tail per directory")
          .hasSize(2)
          .allMatch(r -> r.dirId() != 0);
    }
    try (FileSystem viaOther = FileSystem.newInstance(both.get().through(both.other()))) {
      ((DistributedFileSystem) viaOther).deleteSnapshot(p(a), "s0");
    }
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    assertThat(digestOf(fs, b + "/.snapshot/b0/f")).isEqualTo(whole);
    fs.deleteSnapshot(p(b), "b0");
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    assertThat(digestOf(fs, b + "/f2")).isEqualTo(digest(text("f", 3000).substring(0, 1000)));
  }

  @FunctionalInterface
  private interface History {
    List<String> run(Side fs) throws Exception;
  }

  /** One side's file system, and the blocks its history deleted (noted on hops's side). */
  private record Side(DistributedFileSystem fs, List<LocatedBlock> kept) {}

  /** Runs {@code history} on both sides; asserts they read alike; answers hops's kept blocks. */
  private static List<LocatedBlock> alike(History history) throws Exception {
    Side hops = new Side(both.hopsSide().admin(), new ArrayList<>());
    List<String> hopsView = history.run(hops);
    List<String> hdfsView = history.run(new Side(both.hdfsSide().admin(), new ArrayList<>()));
    assertThat(hopsView).isEqualTo(hdfsView);
    assertThat(hops.kept()).isNotEmpty();
    return hops.kept();
  }

  /**
   * {@code root/a/t} (files f, g and sub/h) in snapshot s0 of {@code a}, moved into {@code b},
   * snapshot b0 of {@code b}, moved out of {@code b} to {@code root/o}; f deleted in {@code b}, g
   * overwritten and sub deleted in {@code o}.
   */
  private static List<String> heldByTwo(Side s, String root) throws Exception {
    DistributedFileSystem fs = s.fs();
    String a = root + "/a";
    String b = root + "/b";
    filesBelowT(s, a, root);
    fs.mkdirs(p(b));
    fs.allowSnapshot(p(a));
    fs.allowSnapshot(p(b));
    fs.createSnapshot(p(a), "s0");
    List<String> out = new ArrayList<>();
    out.add("into b: " + fs.rename(p(a + "/t"), p(b + "/t")));
    fs.createSnapshot(p(b), "b0");
    out.add("delete f in b: " + fs.delete(p(b + "/t/f"), false));
    out.add("out of b: " + fs.rename(p(b + "/t"), p(root + "/o/t")));
    changeBelow(fs, root + "/o/t", out);
    readAll(fs, List.of(a + "/.snapshot/s0/", b + "/.snapshot/b0/"), out);
    return out;
  }

  /**
   * {@code root/a/t} in snapshot s0, moved out to {@code root/o} (f deleted there), back into
   * {@code a}, snapshot s1, and out again (g overwritten and sub deleted).
   */
  private static List<String> heldTwiceByOne(Side s, String root) throws Exception {
    DistributedFileSystem fs = s.fs();
    String a = root + "/a";
    filesBelowT(s, a, root);
    fs.allowSnapshot(p(a));
    fs.createSnapshot(p(a), "s0");
    List<String> out = new ArrayList<>();
    out.add("out: " + fs.rename(p(a + "/t"), p(root + "/o/t")));
    out.add("delete f: " + fs.delete(p(root + "/o/t/f"), false));
    out.add("back: " + fs.rename(p(root + "/o/t"), p(a + "/t")));
    fs.createSnapshot(p(a), "s1");
    out.add("out again: " + fs.rename(p(a + "/t"), p(root + "/o/t")));
    changeBelow(fs, root + "/o/t", out);
    readAll(fs, List.of(a + "/.snapshot/s0/", a + "/.snapshot/s1/"), out);
    return out;
  }

  /**
   * {@code root/a/f} in snapshot s0 of {@code a}, renamed to {@code root/b/f}, in snapshot b0 of
   * {@code b}, renamed to {@code root/o/f} and deleted there.
   */
  private static List<String> markedByTwo(Side s, String root) throws Exception {
    DistributedFileSystem fs = s.fs();
    String a = root + "/a";
    String b = root + "/b";
    fs.mkdirs(p(a));
    fs.mkdirs(p(b));
    fs.mkdirs(p(root + "/o"));
    write(fs, a + "/f", text("f", 3000));
    s.kept().addAll(SnapshotKeptBlocks.blocksOf(fs, a + "/f"));
    fs.allowSnapshot(p(a));
    fs.allowSnapshot(p(b));
    fs.createSnapshot(p(a), "s0");
    List<String> out = new ArrayList<>();
    out.add("to b: " + fs.rename(p(a + "/f"), p(b + "/f")));
    fs.createSnapshot(p(b), "b0");
    out.add("out of b: " + fs.rename(p(b + "/f"), p(root + "/o/f")));
    out.add("delete: " + fs.delete(p(root + "/o/f"), false));
    for (String at : List.of(a + "/.snapshot/s0/f", b + "/.snapshot/b0/f")) {
      out.add(at + ": " + digestOf(fs, at));
    }
    return out;
  }

  private static void filesBelowT(Side s, String a, String root) throws Exception {
    DistributedFileSystem fs = s.fs();
    fs.mkdirs(p(a + "/t/sub"));
    fs.mkdirs(p(root + "/o"));
    for (String f : BELOW) {
      write(fs, a + "/" + f, text(name(f), 3000));
      s.kept().addAll(SnapshotKeptBlocks.blocksOf(fs, a + "/" + f));
    }
  }

  private static void changeBelow(DistributedFileSystem fs, String t, List<String> out)
      throws Exception {
    write(fs, t + "/g", "overwritten while held");
    out.add("delete sub: " + fs.delete(p(t + "/sub"), true));
  }

  private static void readAll(DistributedFileSystem fs, List<String> snapshots, List<String> out)
      throws Exception {
    for (String at : snapshots) {
      for (String f : BELOW) {
        out.add(at + f + ": " + digestOf(fs, at + f));
      }
    }
  }

  private static List<String> below(String snapshot, List<String> files) {
    return files.stream().map(f -> snapshot + f).toList();
  }

  private static String name(String file) {
    return file.substring(file.lastIndexOf('/') + 1);
  }

  /**
   * Deletes {@code doomed} in turn on both sides; after each but the last, the blocks stay and the
   * remaining snapshot reads each of {@code reads} as HDFS's does and as written; after the last,
   * they are released.
   */
  private static void deleteInTurn(List<LocatedBlock> kept, List<Doomed> doomed, List<String> reads)
      throws Exception {
    for (int i = 0; i < doomed.size(); i++) {
      Doomed d = doomed.get(i);
      if (d.throughOther()) {
        try (FileSystem viaOther = FileSystem.newInstance(both.get().through(both.other()))) {
          ((DistributedFileSystem) viaOther).deleteSnapshot(p(d.dir()), d.name());
        }
      } else {
        both.hopsSide().admin().deleteSnapshot(p(d.dir()), d.name());
      }
      both.hdfsSide().admin().deleteSnapshot(p(d.dir()), d.name());
      if (i < doomed.size() - 1) {
        SnapshotKeptBlocks.assertKept(both.get(), kept);
        for (String at : reads) {
          assertThat(digestOf(both.hopsSide().admin(), at))
              .as(at + " after deleting " + d.name())
              .isEqualTo(digestOf(both.hdfsSide().admin(), at))
              .isEqualTo(digest(text(name(at), 3000)));
        }
      }
    }
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
  }
}
