package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.subtree.BulkTree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing.DiffReportListingEntry;
import org.junit.jupiter.api.Test;

/**
 * The pages of {@code getSnapshotDiffReportListing} (what DistCp's {@code -diff} asks) of a
 * 10,000-file tree with 1,000 files changed between the snapshots (docs/architecture.md, "Diff
 * reports", pages): the first page walks the directories the version log names (and those above
 * them), each page after it goes on from the walk the page before kept, reading no directory again,
 * and the pages together are the whole report.
 */
class SnapshotDiffPagesTest {
  private static final int DIRS = 100;
  private static final int FILES = 100;
  private static final int CHANGED_DIRS = 10;
  private static final int LIMIT = 300;

  @Test
  void aPageAfterTheFirstWalksNoDirectoryAgain() throws Exception {
    List<Integer> directories = pageThrough(SnapshotTestFiles.snapshotsOn());
    assertThat(directories.get(0))
        .as("the first page walks the changed directories and those above them")
        .isEqualTo(CHANGED_DIRS + 2);
    assertThat(directories.subList(1, directories.size()))
        .as("a page after the first walks none")
        .containsOnly(0);
  }

  @Test
  void aWalkBiggerThanTheCursorsBoundIsNotKept() throws Exception {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setInt(NamenodeConfig.SNAPSHOT_DIFF_CURSOR_ENTRIES, CHANGED_DIRS * FILES / 2);
    List<Integer> directories = pageThrough(conf);
    assertThat(directories)
        .as("every page walks the changed directories again")
        .containsOnly(CHANGED_DIRS + 2);
  }

  /**
   * Builds the tree, changes {@code CHANGED_DIRS * FILES} files between s1 and s2, pages through
   * the listing, checks the pages make the whole report, and answers the directories each page
   * walked.
   */
  private static List<Integer> pageThrough(Configuration conf) throws Exception {
    conf.setInt("dfs.namenode.snapshotdiff.listing.limit", LIMIT);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      DistributedFileSystem fs = cluster.client();
      BulkTree.build(cluster.namenode().namesystem().storage(), fs, new Path("/s/t"), DIRS, FILES);
      fs.allowSnapshot(new Path("/s"));
      fs.createSnapshot(new Path("/s"), "s1");
      for (int d = 0; d < CHANGED_DIRS; d++) {
        for (int f = 0; f < FILES; f++) {
          fs.setPermission(new Path("/s/t/d" + d + "/f" + f), new FsPermission((short) 0600));
        }
      }
      fs.createSnapshot(new Path("/s"), "s2");

      List<AccessCounts> seen = Collections.synchronizedList(new ArrayList<>());
      List<String> ops = Collections.synchronizedList(new ArrayList<>());
      cluster
          .namenode()
          .namesystem()
          .runner()
          .observe(
              (op, counts) -> {
                seen.add(counts);
                ops.add(op);
              });
      byte[] start = DFSUtilClient.EMPTY_BYTES;
      int index = -1;
      Set<String> listed = new HashSet<>();
      List<String> pages = new ArrayList<>();
      List<Integer> directories = new ArrayList<>();
      do {
        seen.clear();
        ops.clear();
        long t0 = System.nanoTime();
        SnapshotDiffReportListing page =
            fs.getClient().getSnapshotDiffReportListing("/s", "s1", "s2", start, index);
        long micros = (System.nanoTime() - t0) / 1000;
        long rows;
        int n;
        synchronized (seen) {
          rows = seen.stream().mapToLong(AccessCounts::rowsRead).sum();
          n = seen.size();
        }
        synchronized (ops) {
          directories.add((int) ops.stream().filter("snapshotDiffDirectory"::equals).count());
        }
        for (DiffReportListingEntry e : page.getModifyList()) {
          listed.add(DFSUtilClient.byteArray2String(e.getSourcePath()));
        }
        pages.add(
            page.getModifyList().size()
                + " entries, "
                + n
                + " transactions, "
                + rows
                + " rows read, "
                + micros / 1000
                + " ms");
        start = page.getLastPath();
        index = page.getLastIndex();
      } while (start.length > 0 || index >= 0);
      System.out.println("pages of the listing: " + pages);

      SnapshotDiffReport whole = fs.getSnapshotDiffReport(new Path("/s"), "s1", "s2");
      Set<String> reported = new HashSet<>();
      for (SnapshotDiffReport.DiffReportEntry e : whole.getDiffList()) {
        reported.add(DFSUtilClient.bytes2String(e.getSourcePath()));
      }
      assertThat(listed).isEqualTo(reported).hasSize(CHANGED_DIRS * FILES);
      assertThat(pages).hasSize((CHANGED_DIRS * FILES + LIMIT - 1) / LIMIT);
      return directories;
    }
  }
}
