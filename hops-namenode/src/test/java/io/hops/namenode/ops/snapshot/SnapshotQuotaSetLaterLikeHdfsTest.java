package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.ops.snapshot.QuotaSteps.Step;
import io.hops.namenode.subtree.Reclaims;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What snapshots keep below a directory that had no quota when they came to keep it, counted by a
 * quota set on it later or carried by a rename of it, against hops and Apache HDFS in the same run
 * (docs/architecture.md, "Snapshots", quota usage of what snapshots keep): a subtree deleted below
 * a snapshot past the bound of one transaction (detached and held), and a directory renamed within
 * a snapshot with no quota on either path (HDFS's {@code WithName} reference). HDFS's {@code
 * setQuota} counts both ({@code computeQuotaUsage}); after every step the usage and the content
 * summary of every quota directory are HDFS's, and a later create or write is refused (or not) as
 * HDFS's.
 */
class SnapshotQuotaSetLaterLikeHdfsTest {
  private static final long BLOCK = 128L << 20;

  /** hops's bound of one transaction, below the deleted tree. */
  private static final int BOUND = 100;

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-quota-later", conf(), 1));

  private static Configuration conf() {
    Configuration conf = SnapshotKeptBlocks.roundsWhenAsked();
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, BOUND);
    return conf;
  }

  private final QuotaSteps steps = new QuotaSteps(both);

  private static Path p(String path) {
    return new Path(path);
  }

  /**
   * A tree of 3 directories of 45 files deleted below a snapshot with no quota anywhere (hops
   * detaches it and holds it for the snapshot): quotas set afterwards on a directory above it and
   * above the snapshottable directory count it, full namespace and space quotas refuse a create and
   * a block as HDFS's do, a rename of the plain directory it was deleted from into a quota
   * directory carries it, and the snapshot's deletion (through the other namenode) frees it once
   * reclaimed.
   */
  @Test
  void aBigDeleteBelowASnapshotCountsInAQuotaSetLaterLikeHdfs() throws Exception {
    Storage storage = both.hops().namenode().namesystem().storage();
    String[] dirs = {"/bd", "/bd/snap/m", "/bq"};
    step(
        "big tree setup",
        new String[] {"/bq"},
        fs -> {
          fs.mkdirs(p("/bq"));
          fs.setQuota(p("/bq"), 1_000, 1L << 40);
          for (int d = 0; d < 3; d++) {
            for (int f = 0; f < 45; f++) {
              write(fs, "/bd/snap/m/n/big/d" + d + "/f" + f, text("f" + d + f, 10 + f));
            }
          }
          fs.allowSnapshot(p("/bd/snap"));
          return fs.createSnapshot(p("/bd/snap"), "s1");
        });
    step("delete the big tree", new String[] {"/bq"}, fs -> fs.delete(p("/bd/snap/m/n/big"), true));
    assertThat(Reclaims.pending(storage)).as("detached and held").hasSize(1);
    step(
        "quotas set after it",
        dirs,
        fs -> {
          fs.setQuota(p("/bd/snap/m"), 1_000, 1L << 40);
          fs.setQuota(p("/bd"), 1_000, 1L << 40);
          return "set";
        });
    step("quotas that it fills", dirs, fs -> overQuotas(fs, "/bd/snap/m", "/bd/snap/m/x"));
    assertThat(steps.hopsHistory().get(steps.hopsHistory().size() - 2 * dirs.length - 1))
        .contains("NSQuotaExceededException")
        .contains("DSQuotaExceededException");
    step(
        "rename the plain directory it was deleted from into a quota directory",
        dirs,
        fs -> renamed(fs, "/bd/snap/m/n", "/bq/n"));
    step("a quota set on the moved directory", dirs, fs -> quota(fs, "/bq/n"));
    step("quotas that it fills there", dirs, fs -> overQuotas(fs, "/bq/n", "/bq/n/x"));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    // The directories it was deleted below are freed at once; those its charge was carried to, as
    // the reclaim frees it (HDFS frees it all at once).
    step(
        "delete the snapshot through the other namenode",
        new String[] {"/bd", "/bd/snap/m"},
        fs -> deleteS1(fs, "/bd/snap"));
    SnapshotKeptBlocks.leaderRounds(both.get());
    Reclaims.await(storage);
    step("reclaimed", dirs, fs -> "-");
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    // HDFS 3.5.0 leaves /bq/n, the renamed directory given a quota, charged with what the snapshot
    // kept below it (its count disagrees with its own content summary): hops takes it off.
    liveTreeOnly(new String[] {"/bd", "/bd/snap/m", "/bq", "/bq/n"});
    try (Transaction tx = storage.begin()) {
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }

  /**
   * Directories renamed within a snapshot with no quota on either path, which HDFS keeps at their
   * old entries by {@code WithName} references: a quota set later above an old entry (and on the
   * snapshottable directory, which counts such a directory twice) counts it as it was at the
   * snapshot, full quotas refuse as HDFS's, a plain directory holding an old entry (of a directory
   * past the bound of one transaction) renamed into a quota directory carries its charge, and the
   * snapshot's deletion takes it off.
   */
  @Test
  void aDirectoryRenamedWithNoQuotaCountsInAQuotaSetLaterLikeHdfs() throws Exception {
    String[] dirs = {"/rn", "/rn/snap", "/rn/snap/a", "/rq"};
    step(
        "renamed setup",
        new String[] {"/rq"},
        fs -> {
          fs.mkdirs(p("/rq"));
          fs.setQuota(p("/rq"), 1_000, 1L << 40);
          fs.mkdirs(p("/rn/snap/b"));
          written(fs, "/rn/snap/a/d/f1", 1_000);
          written(fs, "/rn/snap/a/d/f2", 200);
          written(fs, "/rn/snap/a/d/e/f3", 3_000);
          written(fs, "/rn/snap/c/g/f4", 400);
          for (int d = 0; d < 2; d++) {
            for (int f = 0; f < 55; f++) {
              write(fs, "/rn/snap/c/g/h" + d + "/f" + f, text("g" + d + f, 20 + f));
            }
          }
          fs.allowSnapshot(p("/rn/snap"));
          return fs.createSnapshot(p("/rn/snap"), "s1");
        });
    step(
        "a change after the snapshot",
        new String[] {"/rq"},
        fs -> written(fs, "/rn/snap/a/d/f5", 50));
    step(
        "rename directories within it",
        new String[] {"/rq"},
        fs ->
            renamed(fs, "/rn/snap/a/d", "/rn/snap/b/d")
                + renamed(fs, "/rn/snap/c/g", "/rn/snap/b/g"));
    step(
        "changes below the renamed directory",
        new String[] {"/rq"},
        fs -> fs.delete(p("/rn/snap/b/d/f2"), false) + written(fs, "/rn/snap/b/d/f6", 60));
    // The plain directory g was renamed away from is empty now, and g's charge, which the rename
    // counts, is past the bound: counted under the subtree protocol's mark.
    step(
        "rename a plain directory holding an old entry into a quota directory",
        new String[] {"/rq"},
        fs -> renamed(fs, "/rn/snap/c", "/rq/c"));
    step(
        "quotas set above the old entry",
        dirs,
        fs -> quota(fs, "/rn/snap/a") + quota(fs, "/rn/snap") + quota(fs, "/rn"));
    step("quotas that it fills", dirs, fs -> overQuotas(fs, "/rn/snap/a", "/rn/snap/a/x"));
    assertThat(steps.hopsHistory().get(steps.hopsHistory().size() - 2 * dirs.length - 1))
        .contains("NSQuotaExceededException")
        .contains("DSQuotaExceededException");
    step("a quota set on it there", dirs, fs -> quota(fs, "/rq/c"));
    step("quotas that it fills there", dirs, fs -> overQuotas(fs, "/rq/c", "/rq/c/x"));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    step("delete the snapshot through the other namenode", dirs, fs -> deleteS1(fs, "/rn/snap"));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    liveTreeOnly(dirs);
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }

  /** With the snapshot gone, each quota directory's usage on hops is its live tree's. */
  private static void liveTreeOnly(String[] dirs) throws Exception {
    DistributedFileSystem fs = both.hopsSide().admin();
    for (String q : dirs) {
      org.apache.hadoop.fs.ContentSummary cs = fs.getContentSummary(p(q));
      QuotaUsage u = fs.getQuotaUsage(p(q));
      assertThat(u.getFileAndDirectoryCount())
          .as(q)
          .isEqualTo(cs.getFileCount() + cs.getDirectoryCount());
      assertThat(u.getSpaceConsumed()).as(q).isEqualTo(cs.getSpaceConsumed());
    }
  }

  private static String quota(DistributedFileSystem fs, String dir) throws Exception {
    fs.setQuota(p(dir), 1_000, 1L << 40);
    return "set " + dir + "; ";
  }

  /**
   * A namespace quota of {@code dir} at its usage refuses a create, and a space quota with room for
   * one block only if what the snapshots keep did not count refuses the block; both then reset.
   */
  private static String overQuotas(DistributedFileSystem fs, String dir, String file)
      throws Exception {
    QuotaUsage u = fs.getQuotaUsage(p(dir));
    String outcome;
    fs.setQuota(p(dir), u.getFileAndDirectoryCount(), HdfsConstants.QUOTA_DONT_SET);
    try {
      outcome = SideBySide.outcome(s -> written(fs, file, 10), null);
    } finally {
      fs.setQuota(p(dir), 1_000, HdfsConstants.QUOTA_DONT_SET);
      fs.delete(p(file), false);
    }
    fs.setQuota(p(dir), HdfsConstants.QUOTA_DONT_SET, u.getSpaceConsumed() + BLOCK - 50);
    try {
      return outcome + "; " + SideBySide.outcome(s -> written(fs, file, 10), null);
    } finally {
      fs.setQuota(p(dir), HdfsConstants.QUOTA_DONT_SET, 1L << 40);
      fs.delete(p(file), false);
    }
  }

  private static String deleteS1(DistributedFileSystem fs, String dir) throws Exception {
    if (fs != both.hopsSide().admin()) {
      fs.deleteSnapshot(p(dir), "s1");
      return "deleted";
    }
    try (DistributedFileSystem viaOther =
        (DistributedFileSystem) FileSystem.newInstance(both.get().through(both.other()))) {
      viaOther.deleteSnapshot(p(dir), "s1");
    }
    return "deleted";
  }

  private static String renamed(DistributedFileSystem fs, String from, String to) throws Exception {
    fs.rename(p(from), p(to), Options.Rename.NONE);
    return "renamed; ";
  }

  private static String written(DistributedFileSystem fs, String path, int bytes) throws Exception {
    write(fs, path, text(path, bytes));
    return "written; ";
  }

  /**
   * Runs {@code s} on both sides, then compares the usage and the content summary of the quota
   * directories {@code dirs}.
   */
  private void step(String name, String[] dirs, Step s) throws Exception {
    steps.run(name, dirs, true, s);
  }
}
