package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digest;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digestOf;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Files deleted or overwritten below a directory moved out of its snapshottable directory (a held
 * directory; docs/architecture.md, "Snapshots"), against hops and Apache HDFS in the same run: the
 * snapshots read them byte for byte as HDFS's do, their blocks stay on the datanode while a
 * snapshot that had them remains, and deleting the last one (from either namenode) invalidates
 * them, clears the hold (so a change below the directory writes no more versions) and leaves the
 * namespace check clean. Files kept for the snapshots of the directory it was moved into, past its
 * hold, go to that directory at the hold's end, or are released if its snapshot is gone.
 */
class SnapshotHeldDirectoryLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-held-dir", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void aFileDeletedBelowAHeldDirectoryIsReleasedWithItsSnapshot() throws Exception {
    List<LocatedBlock> kept = heldHistoryAlike("/one", List.of("s0"));
    DistributedFileSystem hops = both.hopsSide().admin();
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    long written = versionsWrittenBy(() -> write(hops, "/one/o/t/before", "while held"));
    assertThat(written).as("versions below the held directory").isPositive();

    hops.deleteSnapshot(p("/one/d"), "s0");
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    assertThat(versionsWrittenBy(() -> changeBelow(hops, "/one/o/t")))
        .as("versions below the directory once its hold is cleared")
        .isZero();
  }

  @Test
  void withTwoSnapshotsTheBlocksGoWithTheSecond() throws Exception {
    List<LocatedBlock> kept = heldHistoryAlike("/two", List.of("s0", "s1"));
    DistributedFileSystem hops = both.hopsSide().admin();
    hops.deleteSnapshot(p("/two/d"), "s0");
    both.hdfsSide().admin().deleteSnapshot(p("/two/d"), "s0");
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    assertThat(digestOf(hops, "/two/d/.snapshot/s1/t/f"))
        .isEqualTo(digestOf(both.hdfsSide().admin(), "/two/d/.snapshot/s1/t/f"))
        .isEqualTo(digest(text("f", 3000)));
    assertThat(versionsWrittenBy(() -> changeBelow(hops, "/two/o/t"))).isPositive();

    hops.deleteSnapshot(p("/two/d"), "s1");
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    assertThat(versionsWrittenBy(() -> changeBelow(hops, "/two/o/t"))).isZero();
  }

  @Test
  void theLastSnapshotDeletedThroughTheOtherNamenodeReleasesThem() throws Exception {
    List<LocatedBlock> kept = heldHistoryAlike("/other", List.of("s0"));
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    try (FileSystem viaOther = FileSystem.newInstance(both.get().through(both.other()))) {
      ((DistributedFileSystem) viaOther).deleteSnapshot(p("/other/d"), "s0");
    }
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    assertThat(versionsWrittenBy(() -> changeBelow(both.hopsSide().admin(), "/other/o/t")))
        .isZero();
  }

  /**
   * A held directory made snapshottable, without snapshots of its own, is deleted as HDFS deletes
   * it; the snapshot it was moved away from still reads its files, and deleting that snapshot
   * releases them.
   */
  @Test
  void aHeldDirectoryMadeSnapshottableWithoutSnapshotsIsDeletedAsInHdfs() throws Exception {
    List<LocatedBlock> kept = heldHistoryAlike("/allowed", List.of("s0"));
    List<String> outcomes = new ArrayList<>();
    for (SideBySide.Side s : List.of(both.hopsSide(), both.hdfsSide())) {
      DistributedFileSystem fs = s.admin();
      fs.allowSnapshot(p("/allowed/o/t"));
      String deleted;
      try {
        deleted = "deleted: " + fs.delete(p("/allowed/o/t"), true);
      } catch (Exception e) {
        deleted = SideBySide.failure(e);
      }
      outcomes.add(
          deleted
              + ", listed: "
              + java.util.Arrays.toString(fs.getSnapshottableDirListing()).contains("/allowed/o/t")
              + ", s0 reads t/g: "
              + digestOf(fs, "/allowed/d/.snapshot/s0/t/g"));
    }
    assertThat(outcomes.get(0)).isEqualTo(outcomes.get(1)).startsWith("deleted: true");
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    both.hopsSide().admin().deleteSnapshot(p("/allowed/d"), "s0");
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
  }

  /**
   * A directory moved out of {@code a}'s snapshot into {@code b}, which then takes one: files
   * deleted and overwritten below it are kept for {@code b}'s snapshot in the held directory's
   * partition. The hold's end hands them to {@code b} (still read from its snapshot, blocks kept),
   * and {@code b}'s deletion of its snapshot releases them.
   */
  @Test
  void filesKeptPastTheHoldGoToTheSnapshotsOfTheDirectoryItSitsInNow() throws Exception {
    List<LocatedBlock> kept = keptPastTheHoldAlike("/heir");
    long held = idOf("/heir/b/t");
    long heir = idOf("/heir/b");
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p("/heir/a"), "s0"));
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    assertThat(keptRowsOf(held)).as("kept in the held directory's partition").isZero();
    assertThat(keptRowsOf(heir)).as("kept for b's snapshot").isEqualTo(2);
    SnapshotSides.assertReadsAlike(both, "/heir/b/.snapshot/s1/t/f", "/heir/b/.snapshot/s1/t/g");
    assertThat(digestOf(both.hopsSide().admin(), "/heir/b/.snapshot/s1/t/f"))
        .isEqualTo(digest(text("f", 3000)));
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p("/heir/b"), "s1"));
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
  }

  /**
   * As above, with {@code b}'s snapshot deleted before the hold ends: no snapshot reads what was
   * kept for it any more, and the hold's end releases it.
   */
  @Test
  void filesKeptPastTheHoldForASnapshotGoneAreReleasedAtItsEnd() throws Exception {
    List<LocatedBlock> kept = keptPastTheHoldAlike("/gone");
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p("/gone/b"), "s1"));
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    SnapshotSides.assertReadsAlike(both, "/gone/a/.snapshot/s0/t/f", "/gone/a/.snapshot/s0/t/g");
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p("/gone/a"), "s0"));
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
  }

  /**
   * A directory {@code t} moved out of {@code a}'s snapshot, with a directory {@code s} below it
   * made snapshottable and given a snapshot of its own: files deleted and overwritten below {@code
   * s} (one created after the move) are kept in the held directory's partition, past its hold. The
   * hold's end hands them to {@code s} (its snapshot still reads them byte for byte as HDFS's, the
   * blocks stay), and {@code s}'s deletion of its snapshot releases them: before, they were kept
   * for good.
   */
  @Test
  void filesKeptBelowASnapshottableDirectoryInsideAHeldOneGoWithItsSnapshots() throws Exception {
    List<LocatedBlock> kept = keptBelowAnInnerSnapshottableAlike("/inner");
    long held = idOf("/inner/o/t");
    long inner = idOf("/inner/o/t/s");
    assertThat(keptRowsOf(held)).as("kept in the held directory's partition").isEqualTo(3);
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p("/inner/a"), "s0"));
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    assertThat(keptRowsOf(held)).as("left in the held directory's partition").isZero();
    assertThat(keptRowsOf(inner)).as("kept for s's snapshot").isEqualTo(3);
    SnapshotSides.assertReadsAlike(
        both,
        "/inner/o/t/s/.snapshot/t1/f",
        "/inner/o/t/s/.snapshot/t1/g",
        "/inner/o/t/s/.snapshot/t1/k");
    assertThat(digestOf(both.hopsSide().admin(), "/inner/o/t/s/.snapshot/t1/k"))
        .isEqualTo(digest(text("k", 3000)));
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p("/inner/o/t/s"), "t1"));
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    assertThat(usageRows()).as("quota usage kept charged").isZero();
  }

  /**
   * A directory {@code t} moved out of {@code a}'s snapshot into {@code b}, which takes one, then a
   * file below it deleted and {@code t} deleted with the other: both are kept in the deleted
   * directory's partition, past its hold, for {@code b}'s snapshot. Each snapshot reads them as
   * HDFS's does while it remains, whichever goes first, and the second deletion releases them, with
   * every version below {@code t}: before, a deleted directory kept its files past its holds for
   * good.
   */
  @Test
  void aDeletedHeldDirectoryGoesWithTheLastSnapshotThatHadIt() throws Exception {
    deletedHeldDirectory("/deleted", "a", "b");
  }

  /** As above, with {@code b}'s snapshot deleted first. */
  @Test
  void aDeletedHeldDirectoryGoesWithTheLastSnapshotThatHadItInTheOtherOrder() throws Exception {
    deletedHeldDirectory("/deleted2", "b", "a");
  }

  private static void deletedHeldDirectory(String root, String first, String second)
      throws Exception {
    List<LocatedBlock> kept = new ArrayList<>();
    long held = 0;
    for (boolean hops : new boolean[] {true, false}) {
      DistributedFileSystem fs = hops ? both.hopsSide().admin() : both.hdfsSide().admin();
      List<LocatedBlock> written = movedIntoASnapshot(fs, root);
      if (hops) {
        kept.addAll(written);
      }
      if (hops) {
        held = idOf(root + "/b/t");
      }
      fs.delete(p(root + "/b/t/f"), false);
      fs.delete(p(root + "/b/t"), true);
    }
    List<String> all = new ArrayList<>();
    for (String f : List.of("f", "g")) {
      all.add(root + "/a/.snapshot/s0/t/" + f);
      all.add(root + "/b/.snapshot/s1/t/" + f);
    }
    SnapshotSides.assertReadsAlike(both, all.toArray(String[]::new));
    SnapshotKeptBlocks.assertKept(both.get(), kept);

    String firstSnapshot = first.equals("a") ? "s0" : "s1";
    String secondSnapshot = first.equals("a") ? "s1" : "s0";
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p(root + "/" + first), firstSnapshot));
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    for (String f : List.of("f", "g")) {
      String path = root + "/" + second + "/.snapshot/" + secondSnapshot + "/t/" + f;
      SnapshotSides.assertReadsAlike(both, path);
      assertThat(digestOf(both.hopsSide().admin(), path)).isEqualTo(digest(text(f, 3000)));
    }
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p(root + "/" + second), secondSnapshot));
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    long heldId = held;
    SnapshotKeptBlocks.leaderRounds(both.get());
    SnapshotKeptBlocks.leaderRounds(both.get());
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(
              tx.scanAll(InodeVersionRow.TABLE, LockMode.READ_COMMITTED).stream()
                  .filter(v -> v.parentId() == heldId))
          .as("versions below the deleted directory")
          .isEmpty();
    }
  }

  /**
   * On both sides: {@code root/a/t/s} with two files, snapshot {@code s0} of {@code a}, {@code t}
   * moved to the plain {@code root/o}, {@code s} made snapshottable, a third file written and
   * snapshot {@code t1} of {@code s}, then two files deleted and one overwritten. Answers the
   * blocks of the three files as they were, on hops's side.
   */
  private static List<LocatedBlock> keptBelowAnInnerSnapshottableAlike(String root)
      throws Exception {
    List<LocatedBlock> kept = new ArrayList<>();
    for (boolean hops : new boolean[] {true, false}) {
      DistributedFileSystem fs = hops ? both.hopsSide().admin() : both.hdfsSide().admin();
      fs.mkdirs(p(root + "/a/t/s"));
      fs.mkdirs(p(root + "/o"));
      for (String f : List.of("f", "g")) {
        write(fs, root + "/a/t/s/" + f, text(f, 3000));
      }
      fs.allowSnapshot(p(root + "/a"));
      fs.createSnapshot(p(root + "/a"), "s0");
      fs.rename(p(root + "/a/t"), p(root + "/o/t"));
      String s = root + "/o/t/s";
      fs.allowSnapshot(p(s));
      write(fs, s + "/k", text("k", 3000));
      if (hops) {
        for (String f : List.of("f", "g", "k")) {
          kept.addAll(SnapshotKeptBlocks.blocksOf(fs, s + "/" + f));
        }
      }
      fs.createSnapshot(p(s), "t1");
      fs.delete(p(s + "/f"), false);
      fs.delete(p(s + "/k"), false);
      write(fs, s + "/g", "overwritten in s");
    }
    assertThat(kept).hasSize(3);
    SnapshotSides.assertReadsAlike(
        both,
        root + "/a/.snapshot/s0/t/s/f",
        root + "/a/.snapshot/s0/t/s/g",
        root + "/o/t/s/.snapshot/t1/f",
        root + "/o/t/s/.snapshot/t1/g",
        root + "/o/t/s/.snapshot/t1/k",
        root + "/o/t/s/g");
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    return kept;
  }

  /** The {@code snapshot_kept_usage} rows left. */
  private static long usageRows() throws Exception {
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      return tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }

  /**
   * {@code root/a/t} with two files {@code f} and {@code g}, snapshot {@code s0} of {@code a},
   * {@code t} moved into {@code root/b}, snapshot {@code s1} of {@code b}; answers the files'
   * blocks.
   */
  private static List<LocatedBlock> movedIntoASnapshot(DistributedFileSystem fs, String root)
      throws Exception {
    fs.mkdirs(p(root + "/a/t"));
    fs.mkdirs(p(root + "/b"));
    List<LocatedBlock> written = SnapshotTestFiles.writeTexts(fs, root + "/a/t", List.of("f", "g"));
    fs.allowSnapshot(p(root + "/a"));
    fs.allowSnapshot(p(root + "/b"));
    fs.createSnapshot(p(root + "/a"), "s0");
    fs.rename(p(root + "/a/t"), p(root + "/b/t"));
    fs.createSnapshot(p(root + "/b"), "s1");
    return written;
  }

  /**
   * On both sides: {@code root/a/t} with two files, snapshot {@code s0} of {@code a}, {@code t}
   * moved into {@code root/b}, snapshot {@code s1} of {@code b}, then one file deleted and the
   * other overwritten. Answers the blocks of the two files as they were, on hops's side.
   */
  private static List<LocatedBlock> keptPastTheHoldAlike(String root) throws Exception {
    List<LocatedBlock> kept = new ArrayList<>();
    for (boolean hops : new boolean[] {true, false}) {
      DistributedFileSystem fs = hops ? both.hopsSide().admin() : both.hdfsSide().admin();
      List<LocatedBlock> written = movedIntoASnapshot(fs, root);
      if (hops) {
        kept.addAll(written);
      }
      fs.delete(p(root + "/b/t/f"), false);
      write(fs, root + "/b/t/g", "overwritten in b");
    }
    assertThat(kept).hasSize(2);
    SnapshotSides.assertReadsAlike(
        both,
        root + "/a/.snapshot/s0/t/f",
        root + "/a/.snapshot/s0/t/g",
        root + "/b/.snapshot/s1/t/f",
        root + "/b/.snapshot/s1/t/g",
        root + "/b/t/g");
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    return kept;
  }

  private static long idOf(String path) throws Exception {
    return ((org.apache.hadoop.hdfs.protocol.HdfsFileStatus)
            both.hopsSide().admin().getFileStatus(p(path)))
        .getFileId();
  }

  /** The {@code snapshot_kept_files} rows in directory {@code dirId}'s partition. */
  private static long keptRowsOf(long dirId) throws Exception {
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      return tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED).stream()
          .filter(r -> r.dirId() == dirId)
          .count();
    }
  }

  private static boolean listed(DistributedFileSystem fs, String dir) throws Exception {
    SnapshottableDirectoryStatus[] all = fs.getSnapshottableDirListing();
    return all != null
        && java.util.Arrays.stream(all).anyMatch(d -> d.getFullPath().toString().equals(dir));
  }

  /**
   * On both sides: {@code root/d/t} with files and a subdirectory, snapshots of {@code root/d},
   * then {@code t} moved to {@code root/o} and files below it deleted, overwritten and deleted with
   * their directory. Asserts both sides read the same from the snapshots (what the files had) and
   * answers the blocks of the files gone on hops's side.
   */
  private static List<LocatedBlock> heldHistoryAlike(String root, List<String> snapshots)
      throws Exception {
    List<LocatedBlock> kept = new ArrayList<>();
    List<String> hops = heldHistory(both.hopsSide().admin(), root, snapshots, kept);
    List<String> hdfs = heldHistory(both.hdfsSide().admin(), root, snapshots, new ArrayList<>());
    assertThat(hops).isEqualTo(hdfs);
    assertThat(kept).hasSize(3);
    return kept;
  }

  private static List<String> heldHistory(
      DistributedFileSystem fs, String root, List<String> snapshots, List<LocatedBlock> kept)
      throws Exception {
    String d = root + "/d";
    fs.mkdirs(p(d + "/t/sub"));
    fs.mkdirs(p(root + "/o"));
    for (String f : List.of("t/f", "t/g", "t/sub/h")) {
      write(fs, d + "/" + f, text(name(f), 3000));
      kept.addAll(fs.getClient().getLocatedBlocks(d + "/" + f, 0).getLocatedBlocks());
    }
    fs.allowSnapshot(p(d));
    for (String s : snapshots) {
      fs.createSnapshot(p(d), s);
    }
    fs.rename(p(d + "/t"), p(root + "/o/t"));
    List<String> out = new ArrayList<>();
    out.add("delete f: " + fs.delete(p(root + "/o/t/f"), false));
    write(fs, root + "/o/t/g", "overwritten while held");
    out.add("delete sub: " + fs.delete(p(root + "/o/t/sub"), true));
    for (String s : snapshots) {
      for (String f : List.of("t/f", "t/g", "t/sub/h")) {
        out.add(f + " at " + s + ": " + digestOf(fs, d + "/.snapshot/" + s + "/" + f));
      }
    }
    out.add("g now: " + digestOf(fs, root + "/o/t/g"));
    return out;
  }

  private static String name(String file) {
    return file.substring(file.lastIndexOf('/') + 1);
  }

  private static void changeBelow(DistributedFileSystem fs, String dir) throws Exception {
    String name = "c" + System.nanoTime();
    fs.mkdirs(p(dir + "/" + name));
    write(fs, dir + "/" + name + "/file", "after");
    fs.delete(p(dir + "/g"), false);
  }

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  /** The {@code inode_versions} rows a step leaves behind. */
  private static long versionsWrittenBy(Step step) throws Exception {
    long before = versions();
    step.run();
    return versions() - before;
  }

  private static long versions() throws Exception {
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      return tx.scanAll(InodeVersionRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }
}
