package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.ops.snapshot.QuotaSteps.Step;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The quota usage of what snapshots keep, against hops and Apache HDFS in the same run
 * (docs/architecture.md, "Snapshots", quota usage of what snapshots keep): directories with
 * namespace and space quotas above, at and below a snapshottable directory; files the snapshot has
 * deleted, overwritten, replaced by a rename and deleted with their directory stay charged to every
 * quota directory above them, a file created after the snapshot is freed at once, a create is
 * refused because the kept files still count exactly when HDFS refuses it, and deleting the
 * snapshots (the last through the second namenode) frees the usage as HDFS's does; blocks a
 * truncate keeps for a snapshot stay charged likewise. After every step the usage and the content
 * summary of every quota directory are HDFS's.
 */
class SnapshotQuotaLikeHdfsTest {
  private static final long BLOCK = 128L << 20;

  private static final String[] QUOTA_DIRS = {"/qa", "/qa/snap", "/qa/snap/qb"};

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-quota", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  private final QuotaSteps steps = new QuotaSteps(both);

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void keptFilesStayChargedUntilTheirLastSnapshotGoesLikeHdfs() throws Exception {
    step(
        "setup",
        fs -> {
          fs.mkdirs(p("/qa/snap/qb/d"));
          write(fs, "/qa/snap/f1", text("f1", 1_000));
          write(fs, "/qa/snap/f5", text("f5", 500));
          write(fs, "/qa/snap/qb/f2", text("f2", 2_000));
          write(fs, "/qa/snap/qb/f6", text("f6", 600));
          write(fs, "/qa/snap/qb/d/f3", text("f3", 3_000));
          write(fs, "/qa/snap/qb/d/f4", "");
          fs.mkdirs(p("/qa/snap/qb/d/e"));
          for (String q : QUOTA_DIRS) {
            fs.setQuota(p(q), 1_000, 1L << 40);
          }
          fs.allowSnapshot(p("/qa/snap"));
          return fs.createSnapshot(p("/qa/snap"), "s1");
        });
    step("a file created after the snapshot", fs -> written(fs, "/qa/snap/qb/late", 700));
    step("delete a kept file", fs -> fs.delete(p("/qa/snap/qb/f2"), false));
    step("overwrite a kept file", fs -> written(fs, "/qa/snap/f1", 100));
    step("delete a file no snapshot has", fs -> fs.delete(p("/qa/snap/qb/late"), false));
    step("delete a kept directory", fs -> fs.delete(p("/qa/snap/qb/d"), true));
    step(
        "a rename replacing a kept file",
        fs -> {
          fs.rename(p("/qa/snap/f5"), p("/qa/snap/qb/f6"), Options.Rename.OVERWRITE);
          return true;
        });
    step("second snapshot", fs -> fs.createSnapshot(p("/qa/snap"), "s2"));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();

    // A namespace quota the kept files fill: HDFS refuses the next create, and so must hops.
    long count = usage(both.hdfsSide().admin(), "/qa/snap/qb").getFileAndDirectoryCount();
    step(
        "a create over a namespace quota the kept files fill",
        fs -> {
          fs.setQuota(p("/qa/snap/qb"), count, HdfsConstants.QUOTA_DONT_SET);
          try {
            return SideBySide.outcome(
                s -> {
                  fs.create(p("/qa/snap/qb/over")).close();
                  return "created";
                },
                null);
          } finally {
            fs.setQuota(p("/qa/snap/qb"), 1_000, HdfsConstants.QUOTA_DONT_SET);
            fs.delete(p("/qa/snap/qb/over"), false);
          }
        });
    // A space quota with room for one more block only if the kept bytes (1,000 + 2,000 + 3,000 +
    // 600) did not count.
    long space = usage(both.hdfsSide().admin(), "/qa").getSpaceConsumed();
    step(
        "a write over a space quota the kept files fill",
        fs -> {
          fs.setQuota(p("/qa"), HdfsConstants.QUOTA_DONT_SET, space + BLOCK - 3_000);
          try {
            return SideBySide.outcome(
                s -> {
                  write(fs, "/qa/snap/big", "x");
                  return "written";
                },
                null);
          } finally {
            fs.setQuota(p("/qa"), HdfsConstants.QUOTA_DONT_SET, 1L << 40);
            fs.delete(p("/qa/snap/big"), false);
          }
        });
    step(
        "delete the first snapshot",
        fs -> {
          fs.deleteSnapshot(p("/qa/snap"), "s1");
          return null;
        });
    step("delete a file the second snapshot has", fs -> fs.delete(p("/qa/snap/qb/f6"), false));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    step(
        "delete the last snapshot through the other namenode",
        fs -> {
          if (fs != both.hopsSide().admin()) {
            fs.deleteSnapshot(p("/qa/snap"), "s2");
            return null;
          }
          try (DistributedFileSystem viaOther =
              (DistributedFileSystem) FileSystem.newInstance(both.get().through(both.other()))) {
            viaOther.deleteSnapshot(p("/qa/snap"), "s2");
          }
          return null;
        });
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }

  /**
   * Truncates below the snapshot's length (copy-on-truncate: a block cut inside and a whole block
   * past the end, then again after the same snapshot, and on a block boundary): the blocks kept for
   * the snapshot stay charged to the quota directories above, as HDFS counts its file diffs'
   * blocks, until the snapshot goes (deleted through the other namenode); their content summaries
   * count them in the files' space, as HDFS's do.
   */
  @Test
  void blocksATruncateKeepsForASnapshotStayChargedLikeHdfs() throws Exception {
    String[] dirs = {"/qt", "/qt/snap"};
    int mb = 1 << 20;
    step(
        "truncate setup",
        dirs,
        true,
        fs -> {
          fs.mkdirs(p("/qt/snap"));
          written(fs, "/qt/snap/t", 5 * mb / 2, mb);
          written(fs, "/qt/snap/b", 2 * mb, mb);
          for (String q : dirs) {
            fs.setQuota(p(q), 1_000, 1L << 40);
          }
          fs.allowSnapshot(p("/qt/snap"));
          return fs.createSnapshot(p("/qt/snap"), "s1");
        });
    step(
        "truncate inside a block, a whole block past it",
        dirs,
        true,
        fs -> SnapshotTestFiles.truncate(fs, "/qt/snap/t", 3 * mb / 2));
    step(
        "truncate again after the same snapshot",
        dirs,
        true,
        fs -> SnapshotTestFiles.truncate(fs, "/qt/snap/t", mb / 2));
    step(
        "truncate on a block boundary",
        dirs,
        true,
        fs -> SnapshotTestFiles.truncate(fs, "/qt/snap/b", mb));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    step(
        "delete the snapshot through the other namenode",
        dirs,
        true,
        fs -> {
          if (fs != both.hopsSide().admin()) {
            fs.deleteSnapshot(p("/qt/snap"), "s1");
            return null;
          }
          try (DistributedFileSystem viaOther =
              (DistributedFileSystem) FileSystem.newInstance(both.get().through(both.other()))) {
            viaOther.deleteSnapshot(p("/qt/snap"), "s1");
          }
          return null;
        });
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  /**
   * A quota directory holding a directory moved out of a snapshot, with files the snapshot keeps
   * below it, renamed under another quota directory and back (HDFS refuses to rename a directory
   * holding a snapshottable one with snapshots): HDFS's usage of a directory counts what the
   * snapshots keep below it, so the rename takes the kept files' charge from the source's quota
   * directories to the destination's, and the snapshot's deletion takes it off where it is now.
   */
  @Test
  void aRenamedQuotaDirectoryTakesWhatSnapshotsKeepBelowItAlongLikeHdfs() throws Exception {
    String[] before = {"/ra", "/ra/q", "/rb"};
    String[] after = {"/ra", "/rb", "/rb/q"};
    step(
        "renamed quota setup",
        before,
        true,
        fs -> {
          fs.mkdirs(p("/rsnap/x/d"));
          fs.mkdirs(p("/ra/q"));
          fs.mkdirs(p("/rb"));
          written(fs, "/rsnap/x/f1", 1_000);
          written(fs, "/rsnap/x/d/f2", 2_000);
          written(fs, "/rsnap/x/f3", 300);
          for (String q : before) {
            fs.setQuota(p(q), 1_000, 1L << 40);
          }
          fs.allowSnapshot(p("/rsnap"));
          fs.createSnapshot(p("/rsnap"), "s1");
          return renamed(fs, "/rsnap/x", "/ra/q/x");
        });
    step("delete kept files", before, true, fs -> fs.delete(p("/ra/q/x/d"), true));
    step("overwrite a kept file", before, true, fs -> written(fs, "/ra/q/x/f1", 100));
    step("rename the quota directory", after, true, fs -> renamed(fs, "/ra/q", "/rb/q"));
    step("delete another kept file", after, true, fs -> fs.delete(p("/rb/q/x/f3"), false));
    step("rename it back", before, true, fs -> renamed(fs, "/rb/q", "/ra/q"));
    step("and away again", after, true, fs -> renamed(fs, "/ra/q", "/rb/q"));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    step(
        "delete the snapshot",
        after,
        true,
        fs -> {
          fs.deleteSnapshot(p("/rsnap"), "s1");
          return null;
        });
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }

  /**
   * A quota directory below a snapshottable one, with files the snapshot keeps below it, renamed
   * under another quota directory inside the snapshottable one and then out of it: compared with
   * HDFS's usage and summaries at each step, and after the snapshot's deletion.
   */
  @Test
  void aQuotaDirectoryRenamedBelowASnapshotTakesItsKeptUsageLikeHdfs() throws Exception {
    String[] before = {"/rs", "/rs/q", "/rs/t", "/ro"};
    String[] within = {"/rs", "/rs/t", "/rs/t/q", "/ro"};
    String[] out = {"/rs", "/rs/t", "/ro", "/ro/q"};
    step(
        "below setup",
        before,
        true,
        fs -> {
          fs.mkdirs(p("/rs/q/d"));
          fs.mkdirs(p("/rs/t"));
          fs.mkdirs(p("/ro"));
          written(fs, "/rs/q/f1", 1_000);
          written(fs, "/rs/q/d/f2", 2_000);
          for (String q : before) {
            fs.setQuota(p(q), 1_000, 1L << 40);
          }
          fs.allowSnapshot(p("/rs"));
          return fs.createSnapshot(p("/rs"), "s1");
        });
    step("delete a kept file below it", before, true, fs -> fs.delete(p("/rs/q/d/f2"), false));
    step("rename it within", within, true, fs -> renamed(fs, "/rs/q", "/rs/t/q"));
    step("rename it out", out, true, fs -> renamed(fs, "/rs/t/q", "/ro/q"));
    // HDFS 3.5.0 leaves the renamed quota directory's own count charged with the file its
    // snapshot kept (4 and 3,000 where its content summary counts 3 and 1,000): hops takes it off.
    step(
        "delete the snapshot",
        new String[] {"/rs", "/rs/t", "/ro"},
        true,
        fs -> {
          fs.deleteSnapshot(p("/rs"), "s1");
          return null;
        });
    assertThat(QuotaSteps.figures(usage(both.hopsSide().admin(), "/ro/q")))
        .isEqualTo("ns=3/1000 ds=1000/1099511627776");
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  /**
   * Directories without a quota, with files the snapshot keeps below them, renamed between quota
   * directories: a plain directory holding a directory moved out of a snapshot, that moved
   * directory itself, and a directory inside the snapshottable one (which the snapshot has at its
   * old entry). HDFS's rename moves the directory's {@code computeQuotaUsage}, which counts the
   * snapshot data below it, so the destination's quota directories gain the kept files and a write
   * they then leave no room for is refused there; the snapshot's deletion takes them off where they
   * are now.
   */
  @Test
  void aRenamedDirectoryWithoutAQuotaTakesWhatSnapshotsKeepBelowItAlongLikeHdfs() throws Exception {
    String[] dirs = {"/na", "/nb", "/ns", "/ns/qa", "/ns/qb"};
    step(
        "plain setup",
        dirs,
        true,
        fs -> {
          fs.mkdirs(p("/nsnap/x/d"));
          fs.mkdirs(p("/na/n"));
          fs.mkdirs(p("/nb"));
          fs.mkdirs(p("/ns/qa/m/e"));
          fs.mkdirs(p("/ns/qb"));
          written(fs, "/nsnap/x/f1", 1_000);
          written(fs, "/nsnap/x/d/f2", 2_000);
          written(fs, "/nsnap/x/f3", 300);
          written(fs, "/ns/qa/m/e/g1", 4_000);
          written(fs, "/ns/qa/m/g2", 500);
          for (String q : dirs) {
            fs.setQuota(p(q), 1_000, 1L << 40);
          }
          fs.allowSnapshot(p("/nsnap"));
          fs.createSnapshot(p("/nsnap"), "s1");
          fs.allowSnapshot(p("/ns"));
          fs.createSnapshot(p("/ns"), "s1");
          return renamed(fs, "/nsnap/x", "/na/n/x");
        });
    step("delete kept files", dirs, true, fs -> fs.delete(p("/na/n/x/d"), true));
    step("delete kept files inside", dirs, true, fs -> fs.delete(p("/ns/qa/m/e"), true));
    step("rename the plain directory", dirs, true, fs -> renamed(fs, "/na/n", "/nb/n"));
    step("rename the one inside", dirs, true, fs -> renamed(fs, "/ns/qa/m", "/ns/qb/m"));
    step("delete another kept file", dirs, true, fs -> fs.delete(p("/nb/n/x/f3"), false));
    step("rename the moved directory", dirs, true, fs -> renamed(fs, "/nb/n/x", "/na/x"));
    step(
        "and the plain one back through the other namenode",
        dirs,
        true,
        fs -> {
          if (fs != both.hopsSide().admin()) {
            return renamed(fs, "/nb/n", "/na/n");
          }
          try (DistributedFileSystem viaOther =
              (DistributedFileSystem) FileSystem.newInstance(both.get().through(both.other()))) {
            return renamed(viaOther, "/nb/n", "/na/n");
          }
        });
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    // Quotas the carried kept files fill: the next create (namespace) and block (space) are
    // refused exactly where HDFS refuses them.
    QuotaUsage na = usage(both.hdfsSide().admin(), "/na");
    step(
        "a create and a write over quotas the carried files fill",
        dirs,
        false,
        fs -> {
          String outcome;
          fs.setQuota(p("/na"), na.getFileAndDirectoryCount(), HdfsConstants.QUOTA_DONT_SET);
          try {
            outcome = SideBySide.outcome(s -> written(fs, "/na/n/over", 10), null);
          } finally {
            fs.setQuota(p("/na"), 1_000, HdfsConstants.QUOTA_DONT_SET);
            fs.delete(p("/na/n/over"), false);
          }
          fs.setQuota(
              p("/na"), HdfsConstants.QUOTA_DONT_SET, na.getSpaceConsumed() + BLOCK - 2_000);
          try {
            return outcome + "; " + SideBySide.outcome(s -> written(fs, "/na/n/big", 10), null);
          } finally {
            fs.setQuota(p("/na"), HdfsConstants.QUOTA_DONT_SET, 1L << 40);
            fs.delete(p("/na/n/big"), false);
          }
        });
    assertThat(steps.hopsHistory().get(steps.hopsHistory().size() - dirs.length - 1))
        .contains("NSQuotaExceededException")
        .contains("DSQuotaExceededException");
    step(
        "delete the snapshots",
        dirs,
        true,
        fs -> {
          fs.deleteSnapshot(p("/nsnap"), "s1");
          fs.deleteSnapshot(p("/ns"), "s1");
          return null;
        });
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }

  /**
   * Quotas set after deletes below a snapshot (on the directory the files were deleted from, on one
   * above it, on the snapshottable directory and on one above that), cleared and set again: HDFS's
   * setQuota counts the usage with {@code computeQuotaUsage}, snapshot data included, so the kept
   * files count from the start, a create and a write they leave no room for are refused, and the
   * snapshot's deletion takes them off.
   */
  @Test
  void aQuotaSetAfterADeleteCountsWhatSnapshotsKeepLikeHdfs() throws Exception {
    String[] dirs = {"/cq", "/cq/snap", "/cq/snap/a", "/cq/snap/a/b"};
    step(
        "late quota setup",
        new String[0],
        true,
        fs -> {
          fs.mkdirs(p("/cq/snap/a/b/c"));
          written(fs, "/cq/snap/a/b/c/f1", 1_000);
          written(fs, "/cq/snap/a/b/f2", 2_000);
          written(fs, "/cq/snap/a/f3", 300);
          written(fs, "/cq/snap/a/b/f4", 400);
          written(fs, "/cq/snap/a/f5", 500);
          fs.allowSnapshot(p("/cq/snap"));
          return fs.createSnapshot(p("/cq/snap"), "s1");
        });
    step(
        "delete a kept directory", new String[0], true, fs -> fs.delete(p("/cq/snap/a/b/c"), true));
    step("delete a kept file", new String[0], true, fs -> fs.delete(p("/cq/snap/a/b/f2"), false));
    step("overwrite a kept file", new String[0], true, fs -> written(fs, "/cq/snap/a/f3", 30));
    step(
        "rename a kept file away",
        new String[0],
        true,
        fs -> renamed(fs, "/cq/snap/a/b/f4", "/cq/snap/f4"));
    step(
        "set the quotas",
        dirs,
        true,
        fs -> {
          for (String q : dirs) {
            fs.setQuota(p(q), 1_000, 1L << 40);
          }
          return null;
        });
    step("delete a kept file under them", dirs, true, fs -> fs.delete(p("/cq/snap/a/f5"), false));
    step(
        "clear a quota and set it again",
        dirs,
        true,
        fs -> {
          fs.setQuota(p("/cq/snap/a"), HdfsConstants.QUOTA_RESET, HdfsConstants.QUOTA_RESET);
          fs.setQuota(p("/cq/snap/a"), 1_000, 1L << 40);
          return null;
        });
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    QuotaUsage b = usage(both.hdfsSide().admin(), "/cq/snap/a/b");
    step(
        "a create and a write over quotas the kept files fill",
        dirs,
        false,
        fs -> {
          String outcome;
          fs.setQuota(
              p("/cq/snap/a/b"), b.getFileAndDirectoryCount(), HdfsConstants.QUOTA_DONT_SET);
          try {
            outcome = SideBySide.outcome(s -> written(fs, "/cq/snap/a/b/over", 10), null);
          } finally {
            fs.setQuota(p("/cq/snap/a/b"), 1_000, HdfsConstants.QUOTA_DONT_SET);
            fs.delete(p("/cq/snap/a/b/over"), false);
          }
          fs.setQuota(
              p("/cq/snap/a/b"),
              HdfsConstants.QUOTA_DONT_SET,
              b.getSpaceConsumed() + BLOCK - 1_000);
          try {
            return outcome
                + "; "
                + SideBySide.outcome(s -> written(fs, "/cq/snap/a/b/big", 10), null);
          } finally {
            fs.setQuota(p("/cq/snap/a/b"), HdfsConstants.QUOTA_DONT_SET, 1L << 40);
            fs.delete(p("/cq/snap/a/b/big"), false);
          }
        });
    assertThat(steps.hopsHistory().get(steps.hopsHistory().size() - dirs.length - 1))
        .contains("NSQuotaExceededException")
        .contains("DSQuotaExceededException");
    step(
        "delete the snapshot through the other namenode",
        dirs,
        true,
        fs -> {
          if (fs != both.hopsSide().admin()) {
            fs.deleteSnapshot(p("/cq/snap"), "s1");
            return null;
          }
          try (DistributedFileSystem viaOther =
              (DistributedFileSystem) FileSystem.newInstance(both.get().through(both.other()))) {
            viaOther.deleteSnapshot(p("/cq/snap"), "s1");
          }
          return null;
        });
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }

  private static String renamed(DistributedFileSystem fs, String from, String to) throws Exception {
    fs.rename(p(from), p(to), Options.Rename.NONE);
    return "renamed";
  }

  private static String written(DistributedFileSystem fs, String path, int bytes, long blockSize)
      throws Exception {
    try (org.apache.hadoop.fs.FSDataOutputStream out =
        fs.create(p(path), true, 4096, (short) 1, blockSize)) {
      out.write(text(path, bytes).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return "written";
  }

  /** Runs {@code s} on both sides, then compares the usage of every quota directory. */
  private void step(String name, Step s) throws Exception {
    step(name, QUOTA_DIRS, true, s);
  }

  /**
   * Runs {@code s} on both sides, then compares the usage of the quota directories {@code dirs},
   * and with {@code summaries} their content summaries.
   */
  private void step(String name, String[] dirs, boolean summaries, Step s) throws Exception {
    steps.run(name, dirs, summaries, s);
  }

  private static String written(DistributedFileSystem fs, String path, int bytes) throws Exception {
    write(fs, path, text(path, bytes));
    return "written";
  }

  private static QuotaUsage usage(DistributedFileSystem fs, String path) throws Exception {
    return fs.getQuotaUsage(p(path));
  }
}
