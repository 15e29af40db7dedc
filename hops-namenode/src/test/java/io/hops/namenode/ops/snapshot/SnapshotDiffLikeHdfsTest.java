package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Snapshot diff reports against hops and Apache HDFS in the same run: a scripted history under a
 * snapshottable directory (create, mkdir, append, chmod, renames within, out of and into it,
 * deletes of a file and a directory, an overwrite, a renamed directory changed after its rename, a
 * rename into a new directory) with snapshots between the steps; then the report between every pair
 * of snapshots and between each snapshot and the current tree, both ways, must be HDFS's: through
 * the stock {@code DistributedFileSystem.getSnapshotDiffReport} (which pages the listing form,
 * {@code dfs.namenode.snapshotdiff.listing.limit} being 3 here, when both ends are snapshots) and
 * through the unpaged call; and the refusals must be HDFS's.
 */
class SnapshotDiffLikeHdfsTest {
  private static final String[] SNAPSHOTS = {"s0", "s1", "s2", "s3", "s4", ""};

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-diff", conf(), 1))
          .eachSide(s -> history(s.admin()));

  private static Configuration conf() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SNAPSHOT_DIFF_LISTING_LIMIT, 3);
    return conf;
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static void history(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p("/d/a"));
    fs.mkdirs(p("/d/b"));
    fs.mkdirs(p("/o/in"));
    write(fs, "/d/f1", "one");
    write(fs, "/d/a/f2", "two");
    write(fs, "/d/b/f3", "three");
    write(fs, "/d/g", "going out");
    fs.allowSnapshot(p("/d"));
    fs.createSnapshot(p("/d"), "s0");
    fs.createNewFile(p("/d/new1"));
    fs.mkdirs(p("/d/a/sub"));
    fs.createSnapshot(p("/d"), "s1");
    try (FSDataOutputStream out = fs.append(p("/d/f1"))) {
      out.writeBytes(" more");
    }
    fs.setPermission(p("/d/a/f2"), new FsPermission((short) 0600));
    fs.createSnapshot(p("/d"), "s2");
    fs.rename(p("/d/a/f2"), p("/d/b/f2r"));
    fs.rename(p("/d/g"), p("/o/g"));
    fs.rename(p("/o/in"), p("/d/in"));
    fs.createSnapshot(p("/d"), "s3");
    fs.delete(p("/d/b/f3"), false);
    fs.delete(p("/d/a/sub"), true);
    write(fs, "/d/new1", "overwritten");
    fs.createSnapshot(p("/d"), "s4");
    fs.rename(p("/d/b"), p("/d/b2"));
    fs.createNewFile(p("/d/b2/x"));
    fs.setPermission(p("/d"), new FsPermission((short) 0711));
    fs.mkdirs(p("/d/c"));
    fs.rename(p("/d/f1"), p("/d/c/f1"));
    fs.setOwner(p("/d/in"), "alice", "staff");
    // For the refusals: a snapshottable directory alice may not read.
    fs.mkdirs(p("/p/q"));
    fs.setPermission(p("/p"), new FsPermission((short) 0700));
    fs.allowSnapshot(p("/p"));
    fs.createSnapshot(p("/p"), "sp");
  }

  @Test
  void everyPairOfSnapshotsDiffsAsInHdfs() throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (String from : SNAPSHOTS) {
      for (String to : SNAPSHOTS) {
        for (String dir : new String[] {"/d", "/d/a"}) {
          hops.add(reports(both.hopsSide().admin(), dir, from, to));
          hdfs.add(reports(both.hdfsSide().admin(), dir, from, to));
        }
      }
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }

  /** The stock client's report (paged when both ends are snapshots), then the unpaged one. */
  private static String reports(DistributedFileSystem fs, String dir, String from, String to) {
    String call = dir + " " + from + " -> " + to + ":\n";
    return call
        + outcome(() -> fs.getSnapshotDiffReport(p(dir), from, to).toString())
        + "\n  unpaged: "
        + outcome(() -> fs.getClient().getSnapshotDiffReport(dir, from, to).toString());
  }

  @Test
  void theListingFormPagesAsInHdfs() throws Exception {
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      SnapshotDiffReportListing first =
          s.admin()
              .getClient()
              .getSnapshotDiffReportListing("/d", "s0", "s4", DFSUtilClient.EMPTY_BYTES, -1);
      int entries =
          first.getModifyList().size()
              + first.getCreateList().size()
              + first.getDeleteList().size();
      assertThat(entries).isEqualTo(3);
      assertThat(first.getLastPath().length > 0 || first.getLastIndex() != -1).isTrue();
    }
  }

  @Test
  void refusalsAreHdfs() throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      List<String> out = s == both.hopsSide() ? hops : hdfs;
      DistributedFileSystem admin = s.admin();
      DistributedFileSystem alice = s.alice();
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/d"), "nosuch", "s1").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/d"), "s1", "nosuch").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/d"), "nosuch", "").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/o"), "s1", "s2").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/o"), "", "").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/missing"), "s1", "").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/d/new1"), "s1", "").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/d"), "", "").toString()));
      out.add(outcome(() -> admin.getSnapshotDiffReport(p("/d"), "s2", "s2").toString()));
      out.add(outcome(() -> alice.getSnapshotDiffReport(p("/p"), "sp", "").toString()));
      out.add(outcome(() -> alice.getSnapshotDiffReport(p("/p"), "", "sp").toString()));
      out.add(outcome(() -> alice.getSnapshotDiffReport(p("/p"), "sp", "sp").toString()));
      out.add(outcome(() -> alice.getSnapshotDiffReport(p("/p/q"), "sp", "").toString()));
      out.add(outcome(() -> alice.getSnapshotDiffReport(p("/d"), "s0", "").toString()));
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }

  @FunctionalInterface
  private interface Call {
    String run() throws Exception;
  }

  private static String outcome(Call c) {
    try {
      return c.run();
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }
}
