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
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Held directories (moved out of their snapshots' reach; docs/architecture.md, "Snapshots") deep
 * inside a big subtree that no snapshot covers, deleted by the subtree protocol (unlinked and
 * reclaimed in the background, or in place below a quota), against hops and Apache HDFS in the same
 * run: the snapshots that had them read their files byte for byte as HDFS's do, in every deletion
 * order, and the last one frees every kept block and row. Before, the delete's batches freed them.
 */
class SnapshotHeldInBigDeleteLikeHdfsTest {
  private static final int BOUND = 20;

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-held-big-delete", conf(), 1));

  private static Configuration conf() {
    Configuration conf = SnapshotKeptBlocks.roundsWhenAsked();
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, BOUND);
    return conf;
  }

  private static Path p(String path) {
    return new Path(path);
  }

  /**
   * {@code t} moved out of {@code a}'s snapshot into the plain {@code o}, a file below it deleted,
   * then {@code o} (past the bound) deleted, unlinked and reclaimed: the snapshot still reads both
   * files.
   */
  @Test
  void aHeldDirectoryInsideABigDeleteKeepsWhatItsSnapshotReads() throws Exception {
    heldInside("/one", false, "o/junk", BOUND + 5, "o");
  }

  /**
   * As above, deleted in place below a quota, which counts as HDFS's once the snapshot is gone.
   * While it remains the held directory's subtree stays charged there as it was when deleted, as a
   * big delete below a snapshot charges its subtree until reclaimed (docs/architecture.md, "The
   * flag"), where HDFS counts the snapshot's copy alone.
   */
  @Test
  void aHeldDirectoryInsideABigDeleteInPlaceKeepsWhatItsSnapshotReads() throws Exception {
    heldInside("/four", true, "o/junk", BOUND + 5, "o");
  }

  /**
   * As above, with {@code o} small enough for one transaction: the held directory's delete takes
   * what is kept below it for its hold off the quota above, where the snapshot's side counts it.
   */
  @Test
  void aHeldDirectoryInsideASmallDeleteIsChargedAsInHdfs() throws Exception {
    heldInside("/five", true, "o/junk", 2, "o");
  }

  /**
   * The held directory itself past the bound, deleted below a quota: the snapshot reads it, and the
   * quota counts it as HDFS's does while the snapshot remains and after.
   */
  @Test
  void aBigHeldDirectoryDeletedItselfIsChargedAsInHdfs() throws Exception {
    heldInside("/seven", true, "a/t/junk", BOUND + 5, "o/t");
  }

  /**
   * {@code t} moved out of {@code a}'s snapshot into {@code b/o}, below {@code b}'s snapshot, then
   * {@code o} (past the bound) deleted: detached and held for {@code b}'s snapshot, charged above
   * until reclaimed. {@code b}'s snapshot deleted: the reclaim of {@code o} meets {@code t}, still
   * held for {@code a}'s, and detaches it with its share of the charge. Reads are HDFS's after each
   * step, quota usage once both snapshots are gone (while they remain, hops counts what the subtree
   * and the held directory keep for {@code b}'s snapshot, which never had them:
   * docs/architecture.md, "The flag").
   */
  @Test
  void aHeldDirectoryInsideAReclaimedSubtreeOutlivesIt() throws Exception {
    String root = "/eight";
    List<LocatedBlock> kept = new ArrayList<>();
    for (boolean hops : new boolean[] {true, false}) {
      DistributedFileSystem fs = side(hops);
      fs.mkdirs(p(root + "/a/t"));
      fs.mkdirs(p(root + "/b/o"));
      fs.setQuota(p(root), 1000, 1L << 40);
      List<LocatedBlock> written =
          SnapshotTestFiles.writeTexts(fs, root + "/a/t", List.of("f", "g"));
      if (hops) {
        kept.addAll(written);
      }
      filler(fs, root + "/b/o/junk", BOUND + 5);
      fs.allowSnapshot(p(root + "/a"));
      fs.allowSnapshot(p(root + "/b"));
      fs.createSnapshot(p(root + "/a"), "s0");
      fs.createSnapshot(p(root + "/b"), "s1");
      fs.rename(p(root + "/a/t"), p(root + "/b/o/t"));
      fs.delete(p(root + "/b/o/t/f"), false);
      assertThat(fs.delete(p(root + "/b/o"), true)).isTrue();
    }
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    SnapshotSides.assertReadsAlike(
        both, root + "/a/.snapshot/s0/t/f", root + "/a/.snapshot/s0/t/g");
    System.out.println(
        "QUOTA1 hops " + quota(side(true), root) + " hdfs " + quota(side(false), root));

    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p(root + "/b"), "s1"));
    SnapshotKeptBlocks.leaderRounds(both.get());
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    SnapshotSides.assertReadsAlike(
        both, root + "/a/.snapshot/s0/t/f", root + "/a/.snapshot/s0/t/g");
    assertThat(digestOf(side(true), root + "/a/.snapshot/s0/t/f"))
        .isEqualTo(digest(text("f", 3000)));
    SnapshotKeptBlocks.assertKept(both.get(), kept);

    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p(root + "/a"), "s0"));
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    assertNoRowsLeft();
    assertQuotaAlike(root);
  }

  /**
   * The history on both sides: {@code fillers} more files in {@code fillerDir}, {@code t} moved out
   * of {@code a}'s snapshot into {@code o}, then {@code deleted} deleted; with {@code quota} one on
   * {@code root}, counted as HDFS's.
   */
  private static void heldInside(
      String root, boolean quota, String fillerDir, int fillers, String deleted) throws Exception {
    List<LocatedBlock> kept = new ArrayList<>();
    for (boolean hops : new boolean[] {true, false}) {
      DistributedFileSystem fs = side(hops);
      fs.mkdirs(p(root + "/a/t"));
      fs.mkdirs(p(root + "/o"));
      if (quota) {
        fs.setQuota(p(root), 1000, 1L << 40);
      }
      List<LocatedBlock> written =
          SnapshotTestFiles.writeTexts(fs, root + "/a/t", List.of("f", "g"));
      if (hops) {
        kept.addAll(written);
      }
      filler(fs, root + "/" + fillerDir, fillers);
      fs.allowSnapshot(p(root + "/a"));
      fs.createSnapshot(p(root + "/a"), "s0");
      fs.rename(p(root + "/a/t"), p(root + "/o/t"));
      fs.delete(p(root + "/o/t/f"), false);
      write(fs, root + "/o/t/k", "written while held");
      assertThat(fs.delete(p(root + "/" + deleted), true)).isTrue();
    }
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    SnapshotSides.assertReadsAlike(
        both, root + "/a/.snapshot/s0/t/f", root + "/a/.snapshot/s0/t/g");
    assertThat(digestOf(side(true), root + "/a/.snapshot/s0/t/g"))
        .isEqualTo(digest(text("g", 3000)));
    SnapshotKeptBlocks.assertKept(both.get(), kept);
    if (quota) {
      assertQuotaAlike(root);
    }
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p(root + "/a"), "s0"));
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    assertNoRowsLeft();
    if (quota) {
      assertQuotaAlike(root);
    }
  }

  /**
   * {@code u}, held by {@code b}'s snapshot {@code s1}, moved into {@code a/t}; then {@code a}'s
   * snapshot {@code s0}, {@code t} moved out of {@code a} into the plain {@code o}, files below
   * {@code u} deleted (kept for {@code s0}, past {@code u}'s own hold), and {@code o} deleted in
   * place. {@code s0} reads them while it remains, in either deletion order.
   */
  @Test
  void aHeldDirectoryInsideAnotherKeepsWhatTheOuterOnesSnapshotReads() throws Exception {
    nested("/two", "b", "a", BOUND + 5);
  }

  @Test
  void aHeldDirectoryInsideAnotherKeepsWhatTheOuterOnesSnapshotReadsInTheOtherOrder()
      throws Exception {
    nested("/three", "a", "b", BOUND + 5);
  }

  /** As above, with {@code o} small enough for one transaction. */
  @Test
  void aHeldDirectoryInsideAnotherInASmallDeleteIsChargedAsInHdfs() throws Exception {
    nested("/six", "b", "a", 2);
  }

  private static void nested(String root, String first, String second, int fillers)
      throws Exception {
    List<LocatedBlock> kept = new ArrayList<>();
    for (boolean hops : new boolean[] {true, false}) {
      DistributedFileSystem fs = side(hops);
      fs.mkdirs(p(root + "/a/t"));
      fs.mkdirs(p(root + "/b/u"));
      fs.setQuota(p(root), 1000, 1L << 40);
      write(fs, root + "/b/u/e", text("e", 3000));
      fs.allowSnapshot(p(root + "/a"));
      fs.allowSnapshot(p(root + "/b"));
      fs.createSnapshot(p(root + "/b"), "s1");
      fs.rename(p(root + "/b/u"), p(root + "/a/t/u"));
      for (String f : List.of("f", "g")) {
        write(fs, root + "/a/t/u/" + f, text(f, 3000));
      }
      if (hops) {
        for (String f : List.of("e", "f", "g")) {
          kept.addAll(SnapshotKeptBlocks.blocksOf(fs, root + "/a/t/u/" + f));
        }
      }
      fs.createSnapshot(p(root + "/a"), "s0");
      filler(fs, root + "/o/junk", fillers);
      fs.rename(p(root + "/a/t"), p(root + "/o/t"));
      fs.delete(p(root + "/o/t/u/f"), false);
      write(fs, root + "/o/t/u/g", "overwritten while held");
      assertThat(fs.delete(p(root + "/o"), true)).isTrue();
    }
    List<String> reads = new ArrayList<>();
    for (String f : List.of("e", "f", "g")) {
      reads.add(root + "/a/.snapshot/s0/t/u/" + f);
    }
    reads.add(root + "/b/.snapshot/s1/u/e");
    SnapshotSides.assertReadsAlike(both, reads.toArray(String[]::new));
    assertQuotaAlike(root);
    SnapshotKeptBlocks.assertKept(both.get(), kept);

    String firstSnapshot = first.equals("a") ? "s0" : "s1";
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p(root + "/" + first), firstSnapshot));
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    assertQuotaAlike(root);
    SnapshotKeptBlocks.assertKept(both.get(), first.equals("a") ? kept.subList(0, 1) : kept);
    if (first.equals("b")) {
      for (String f : List.of("e", "f", "g")) {
        String path = root + "/a/.snapshot/s0/t/u/" + f;
        SnapshotSides.assertReadsAlike(both, path);
        assertThat(digestOf(side(true), path)).isEqualTo(digest(text(f, 3000)));
      }
    } else {
      SnapshotSides.assertReadsAlike(both, root + "/b/.snapshot/s1/u/e");
      assertThat(digestOf(side(true), root + "/b/.snapshot/s1/u/e"))
          .isEqualTo(digest(text("e", 3000)));
    }
    String secondSnapshot = first.equals("a") ? "s1" : "s0";
    SnapshotSides.bothSides(both, fs -> fs.deleteSnapshot(p(root + "/" + second), secondSnapshot));
    SnapshotKeptBlocks.assertReleased(both.get(), kept);
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    assertQuotaAlike(root);
    assertNoRowsLeft();
  }

  private static DistributedFileSystem side(boolean hops) {
    return hops ? both.hopsSide().admin() : both.hdfsSide().admin();
  }

  private static void filler(DistributedFileSystem fs, String dir, int n) throws Exception {
    fs.mkdirs(p(dir));
    for (int i = 0; i < n; i++) {
      fs.create(p(dir + "/x" + i)).close();
    }
  }

  private static void assertQuotaAlike(String dir) throws Exception {
    assertThat(quota(side(true), dir))
        .as("quota usage of " + dir)
        .isEqualTo(quota(side(false), dir));
  }

  private static String quota(DistributedFileSystem fs, String dir) throws Exception {
    org.apache.hadoop.fs.QuotaUsage q = fs.getQuotaUsage(p(dir));
    return "ns " + q.getFileAndDirectoryCount() + ", space " + q.getSpaceConsumed();
  }

  /** No kept-file, kept-usage or version row is left once every snapshot is gone. */
  private static void assertNoRowsLeft() throws Exception {
    SnapshotKeptBlocks.leaderRounds(both.get());
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED))
          .as("kept-file rows")
          .isEmpty();
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED))
          .as("kept-usage rows")
          .isEmpty();
      assertThat(tx.scanAll(InodeVersionRow.TABLE, LockMode.READ_COMMITTED))
          .as("version rows")
          .isEmpty();
    }
  }
}
