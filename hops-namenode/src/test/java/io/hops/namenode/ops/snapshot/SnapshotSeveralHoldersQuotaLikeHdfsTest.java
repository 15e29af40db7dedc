package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.ops.snapshot.QuotaSteps.Step;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The quota usage of what the snapshots of two directories keep (docs/architecture.md, "Snapshots",
 * several holders), against hops and Apache HDFS in the same run: a file in snapshot s0 of {@code
 * a}, renamed into {@code b}, in snapshot b0 of {@code b}, then truncated inside its block (its cut
 * block kept for both snapshots) or deleted; quotas on the root and on both directories. The
 * snapshots are deleted in both orders, one through the second namenode; after every step the usage
 * and content summary of every quota directory are HDFS's, and after the last no usage or kept row
 * is left and the namespace check is clean.
 */
class SnapshotSeveralHoldersQuotaLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () ->
              SideBySide.start(
                  "snapshot-several-holders-quota", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  private final QuotaSteps steps = new QuotaSteps(both);

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void aTailBothDirectoriesKeepStaysChargedUntilTheFirstHolderGoesLast() throws Exception {
    renamedThen("/t1", "truncate", fs -> SnapshotTestFiles.truncate(fs, "/t1/b/f", 1000), true);
  }

  @Test
  void aTailBothDirectoriesKeepStaysChargedUntilTheSecondHolderGoesLast() throws Exception {
    renamedThen("/t2", "truncate", fs -> SnapshotTestFiles.truncate(fs, "/t2/b/f", 1000), false);
  }

  @Test
  void aDeletedFileStaysChargedOnEachSideUntilThatSidesSnapshotGoesFirstHolderLast()
      throws Exception {
    renamedThen("/d1", "delete", fs -> fs.delete(p("/d1/b/f"), false), true);
  }

  @Test
  void aDeletedFileStaysChargedOnEachSideUntilThatSidesSnapshotGoesSecondHolderLast()
      throws Exception {
    renamedThen("/d2", "delete", fs -> fs.delete(p("/d2/b/f"), false), false);
  }

  /**
   * {@code r/a/f} in snapshot s0 of {@code a}, renamed to {@code r/b/f}, snapshot b0 of {@code b},
   * then {@code change}; the snapshots deleted, b0 first with {@code secondFirst}.
   */
  private void renamedThen(String r, String name, Step change, boolean secondFirst)
      throws Exception {
    String[] q = {r, r + "/a", r + "/b"};
    step(
        "setup",
        q,
        fs -> {
          fs.mkdirs(p(r + "/a"));
          fs.mkdirs(p(r + "/b"));
          for (String d : q) {
            fs.setQuota(p(d), 1_000, 1L << 40);
          }
          fs.allowSnapshot(p(r + "/a"));
          fs.allowSnapshot(p(r + "/b"));
          write(fs, r + "/a/f", text("f", 3000));
          return fs.createSnapshot(p(r + "/a"), "s0");
        });
    step("rename into b", q, fs -> fs.rename(p(r + "/a/f"), p(r + "/b/f")));
    step("b0", q, fs -> fs.createSnapshot(p(r + "/b"), "b0"));
    step(name, q, change);
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    List<String[]> order =
        secondFirst
            ? List.of(new String[] {r + "/b", "b0"}, new String[] {r + "/a", "s0"})
            : List.of(new String[] {r + "/a", "s0"}, new String[] {r + "/b", "b0"});
    boolean throughOther = true;
    for (String[] d : order) {
      boolean other = throughOther;
      step(
          "deleteSnapshot " + d[1] + (other ? " through the other namenode" : ""),
          q,
          fs -> {
            if (other && fs == both.hopsSide().admin()) {
              try (DistributedFileSystem viaOther =
                  (DistributedFileSystem)
                      FileSystem.newInstance(both.get().through(both.other()))) {
                viaOther.deleteSnapshot(p(d[0]), d[1]);
              }
            } else {
              fs.deleteSnapshot(p(d[0]), d[1]);
            }
            return null;
          });
      throughOther = false;
      assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    }
    try (Transaction tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }

  /** Runs {@code s} on both sides, then compares the usage and summary of every quota directory. */
  private void step(String name, String[] dirs, Step s) throws Exception {
    steps.run(name, dirs, true, s);
  }
}
