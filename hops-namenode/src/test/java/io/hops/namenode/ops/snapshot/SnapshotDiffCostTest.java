package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.subtree.BulkTree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.junit.jupiter.api.Test;

/**
 * What a diff report reads when few things changed in a big tree (docs/architecture.md, "Diff
 * reports", which directories): the directories the snapshottable directory's version log names and
 * those above them, not every directory of the tree, for a report between two snapshots, with the
 * current tree, of a subtree, and in the listing form.
 */
class SnapshotDiffCostTest {
  private static final int DIRS = 200;
  private static final int FILES = 20;

  /** The rows and directory reads of one call. */
  private record Cost(long rows, long directories) {}

  @Test
  void aDiffOfOneChangeReadsOnlyTheDirectoriesOnItsPath() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(SnapshotTestFiles.snapshotsOn())) {
      DistributedFileSystem fs = cluster.client();
      BulkTree.build(cluster.namenode().namesystem().storage(), fs, new Path("/s/t"), DIRS, FILES);
      fs.allowSnapshot(new Path("/s"));
      fs.createSnapshot(new Path("/s"), "s1");
      fs.setPermission(new Path("/s/t/d7/f3"), new FsPermission((short) 0600));
      fs.setPermission(new Path("/s/t/d9"), new FsPermission((short) 0700));
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
      List<SnapshotDiffReport> reports = new ArrayList<>();
      Cost between =
          measure(
              seen, ops, () -> reports.add(fs.getSnapshotDiffReport(new Path("/s"), "s1", "s2")));
      Cost withCurrent =
          measure(seen, ops, () -> reports.add(fs.getSnapshotDiffReport(new Path("/s"), "s1", "")));
      Cost subtree =
          measure(
              seen, ops, () -> reports.add(fs.getSnapshotDiffReport(new Path("/s/t"), "s1", "s2")));
      List<SnapshotDiffReportListing> pages = new ArrayList<>();
      Cost listing =
          measure(
              seen,
              ops,
              () ->
                  pages.add(
                      fs.getClient()
                          .getSnapshotDiffReportListing(
                              "/s", "s1", "s2", DFSUtilClient.EMPTY_BYTES, -1)));
      System.out.println(
          "a diff of 2 changes in "
              + DIRS * FILES
              + " files: "
              + List.of(between, withCurrent, subtree, listing));

      List<String> below = List.of("M\t./t/d7/f3", "M\t./t/d9");
      assertThat(entries(reports.get(0))).containsExactlyInAnyOrderElementsOf(below);
      assertThat(entries(reports.get(1))).containsExactlyInAnyOrderElementsOf(below);
      assertThat(entries(reports.get(2))).containsExactlyInAnyOrder("M\t./d7/f3", "M\t./d9");
      assertThat(pages.get(0).getModifyList()).hasSize(2);
      // /s, /s/t and /s/t/d7 (d9 changed only its own mode, in /s/t's partition), not 202; a
      // handful of rows each, not the tree's 4,200.
      for (Cost c : List.of(between, withCurrent, subtree, listing)) {
        assertThat(c.directories()).as("directories read").isEqualTo(3);
        assertThat(c.rows()).as("rows read").isLessThan(40);
      }
    }
  }

  private static List<String> entries(SnapshotDiffReport r) {
    return r.getDiffList().stream().map(Object::toString).toList();
  }

  private static Cost measure(List<AccessCounts> seen, List<String> ops, Callable<?> call)
      throws Exception {
    seen.clear();
    ops.clear();
    call.call();
    synchronized (seen) {
      synchronized (ops) {
        return new Cost(
            seen.stream().mapToLong(AccessCounts::rowsRead).sum(),
            ops.stream().filter("snapshotDiffDirectory"::equals).count());
      }
    }
  }
}
