package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Content summaries with snapshots against hops and Apache HDFS in the same run: after files and a
 * directory are deleted, a file renamed and one created and deleted again under a snapshotted
 * directory, {@code getContentSummary} (with its snapshot figures), {@code getQuotaUsage} of a
 * directory without a quota, {@code dfs -count -q}, {@code dfs -du} and {@code dfs -du -x} of the
 * directory, of directories below it and of a file answer as HDFS's; before the changes, and in a
 * directory no snapshot covers, nothing is counted twice. Blocks truncates keep for the snapshots
 * count in their files' space, as HDFS counts its file diffs' blocks.
 */
class SnapshotContentLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-content", smallBlocks(), 1));

  private static final int BLOCK = 1024;

  private static Configuration smallBlocks() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong(org.apache.hadoop.hdfs.DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, BLOCK);
    return conf;
  }

  @Test
  void contentSummariesCountWhatOnlySnapshotsHoldAsHdfsDoes() throws Exception {
    List<String> hdfs = history(both.hdfsSide().admin());
    List<String> hops = history(both.hopsSide().admin());
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
    assertThat(hdfs).anyMatch(l -> l.contains("snapshotLength=1550"));
  }

  /**
   * A truncate below a snapshot's length keeps the cut-off blocks for the snapshot (HDFS's file
   * diff, hops's tail): HDFS counts them in the file's space consumed, not in the snapshot figures,
   * in the summaries of the file and of every directory above it, until the snapshots that keep
   * them are deleted. Truncates inside a block (its copy) and on a boundary, a second one after a
   * second snapshot, then each snapshot deleted.
   */
  @Test
  void blocksTruncatesKeepForSnapshotsCountInTheFilesSpaceAsHdfsDoes() throws Exception {
    List<String> hdfs = truncates(both.hdfsSide().admin());
    List<String> hops = truncates(both.hopsSide().admin());
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
    assertThat(hdfs)
        .anyMatch(l -> l.startsWith("/ct/sub/t: length=500 files=1 dirs=0 space=4476 "));
  }

  /**
   * The same counts past the bound of one transaction: a third namenode over the same database,
   * whose bound ({@code hops.namenode.subtree.max-inodes-in-one-tx}) is 3, counts every directory
   * viewed here but the empty one with the subtree protocol, the cluster's in one transaction; both
   * answer as HDFS, snapshot figures included. Deletes of files, of a directory and of a
   * directory's only child, a rename within, truncates, a file truncated and then renamed out of
   * the snapshotted directory (its tails count where it is now), one truncated and then deleted
   * (its length then and its tails count with it), one renamed and then deleted (counted at both
   * entries), one appended and one truncated after the latest snapshot and then deleted (at their
   * lengths as HDFS's delete leaves their blocks), under a snapshottable directory below one no
   * snapshot covers.
   */
  @Test
  void summariesPastTheSubtreeBoundCountWhatOnlySnapshotsHoldAsHdfsDoes() throws Exception {
    Configuration small = new Configuration(false);
    small.setInt(io.hops.namenode.config.NamenodeConfig.MAX_SUBTREE_INODES, 3);
    try (io.hops.namenode.HopsNameNode forced = both.hops().startAnotherNamenode(small);
        DistributedFileSystem walked =
            (DistributedFileSystem)
                org.apache.hadoop.fs.FileSystem.newInstance(both.get().through(forced))) {
      List<List<String>> hdfs = bigHistory(both.hdfsSide().admin(), List.of());
      List<List<String>> hops = bigHistory(both.hopsSide().admin(), List.of(walked));
      assertThat(String.join("\n", hops.get(1)))
          .as("counted with the subtree protocol")
          .isEqualTo(String.join("\n", hdfs.get(0)));
      assertThat(String.join("\n", hops.get(0)))
          .as("counted in one transaction")
          .isEqualTo(String.join("\n", hdfs.get(0)));
      assertThat(hdfs.get(0))
          .anyMatch(l -> l.startsWith("/top/b: ") && !l.contains(" snapshotLength=0 "));
    }
  }

  /**
   * A directory moved out of its snapshottable directory (a hold) keeps its snapshot data with it:
   * HDFS counts what changed below it since (files and a directory deleted, a file overwritten),
   * through its reference, in the summaries of the directory it is in now and of everything above,
   * one transaction and the subtree protocol's walk alike.
   */
  @Test
  void directoriesMovedOutOfTheirSnapshotsCountWhatChangedBelowThemAsHdfsDoes() throws Exception {
    Configuration small = new Configuration(false);
    small.setInt(io.hops.namenode.config.NamenodeConfig.MAX_SUBTREE_INODES, 3);
    try (io.hops.namenode.HopsNameNode forced = both.hops().startAnotherNamenode(small);
        DistributedFileSystem walked =
            (DistributedFileSystem)
                org.apache.hadoop.fs.FileSystem.newInstance(both.get().through(forced))) {
      List<List<String>> hdfs = heldHistory(both.hdfsSide().admin(), List.of());
      List<List<String>> hops = heldHistory(both.hopsSide().admin(), List.of(walked));
      assertThat(String.join("\n", hops.get(1)))
          .as("counted with the subtree protocol")
          .isEqualTo(String.join("\n", hdfs.get(0)));
      assertThat(String.join("\n", hops.get(0)))
          .as("counted in one transaction")
          .isEqualTo(String.join("\n", hdfs.get(0)));
      assertThat(hdfs.get(0))
          .anyMatch(l -> l.startsWith("/hd/out: ") && !l.contains(" snapshotLength=0 "));
    }
  }

  /**
   * A directory renamed after a snapshot and deleted after the next is reached through two entries
   * (HDFS's {@code WithName} at the first, its deleted {@code DstReference} at the second): HDFS
   * counts its contents through each, one transaction and the subtree protocol's walk alike.
   */
  @Test
  void aDirectoryRenamedThenDeletedCountsItsContentsAtBothEntriesAsHdfsDoes() throws Exception {
    Configuration small = new Configuration(false);
    small.setInt(io.hops.namenode.config.NamenodeConfig.MAX_SUBTREE_INODES, 3);
    try (io.hops.namenode.HopsNameNode forced = both.hops().startAnotherNamenode(small);
        DistributedFileSystem walked =
            (DistributedFileSystem)
                org.apache.hadoop.fs.FileSystem.newInstance(both.get().through(forced))) {
      List<List<String>> hdfs = twiceHistory(both.hdfsSide().admin(), List.of());
      List<List<String>> hops = twiceHistory(both.hopsSide().admin(), List.of(walked));
      assertThat(String.join("\n", hops.get(1)))
          .as("counted with the subtree protocol")
          .isEqualTo(String.join("\n", hdfs.get(0)));
      assertThat(String.join("\n", hops.get(0)))
          .as("counted in one transaction")
          .isEqualTo(String.join("\n", hdfs.get(0)));
    }
  }

  /**
   * A directory renamed after a snapshot and still live, within its snapshottable directory and out
   * of it (a hold), leaves HDFS's {@code WithName} reference at its entry, which counts its whole
   * subtree as it was at the snapshot, whatever changed below it since (appends, deletes, creates,
   * a subdirectory renamed away after a second snapshot), until the snapshot is deleted; one
   * transaction and the subtree protocol's walk alike, also where the renamed subtree alone is past
   * the bound of one transaction, below an empty snapshottable directory.
   */
  @Test
  void aDirectoryRenamedAwayAndStillLiveCountsItsSubtreeAsItWasAsHdfsDoes() throws Exception {
    assertLikeHdfsBothWays(SnapshotContentLikeHdfsTest::renamedHistory);
  }

  /**
   * A file changed between two snapshots below a directory renamed after the first and deleted
   * after the second: HDFS counts it at the first snapshot through the {@code WithName} reference
   * and as the delete left it through the deleted entry; one transaction and the subtree protocol
   * alike.
   */
  @Test
  void aFileBelowADirectoryRenamedThenDeletedCountsAtEachEntryAsHdfsDoes() throws Exception {
    assertLikeHdfsBothWays(SnapshotContentLikeHdfsTest::changedTwiceHistory);
  }

  /**
   * Below a directory moved out of its snapshots, what only a deleted one of its holder's snapshots
   * read stops counting at that deletion, while an older snapshot keeps the hold: HDFS merges the
   * deleted snapshot's diffs into the older one's (a file created between the two and deleted since
   * goes, a file appended between them counts as the older one has it); one transaction and the
   * subtree protocol alike.
   */
  @Test
  void belowAHeldDirectoryOnlyTheHoldersRemainingSnapshotsCountAsHdfsDoes() throws Exception {
    assertLikeHdfsBothWays(SnapshotContentLikeHdfsTest::heldAfterDeleteHistory);
  }

  /** A history done on each side, viewed through its own client and through {@code others}. */
  private interface History {
    List<List<String>> run(DistributedFileSystem fs, List<DistributedFileSystem> others)
        throws Exception;
  }

  /**
   * Runs {@code history} on both sides, hops's viewed also through a namenode whose bound makes
   * every directory viewed a subtree-protocol count, and compares both views with HDFS's.
   */
  private static void assertLikeHdfsBothWays(History history) throws Exception {
    Configuration small = new Configuration(false);
    small.setInt(io.hops.namenode.config.NamenodeConfig.MAX_SUBTREE_INODES, 3);
    try (io.hops.namenode.HopsNameNode forced = both.hops().startAnotherNamenode(small);
        DistributedFileSystem walked =
            (DistributedFileSystem)
                org.apache.hadoop.fs.FileSystem.newInstance(both.get().through(forced))) {
      List<List<String>> hdfs = history.run(both.hdfsSide().admin(), List.of());
      List<List<String>> hops = history.run(both.hopsSide().admin(), List.of(walked));
      assertThat(String.join("\n", hops.get(1)))
          .as("counted with the subtree protocol")
          .isEqualTo(String.join("\n", hdfs.get(0)));
      assertThat(String.join("\n", hops.get(0)))
          .as("counted in one transaction")
          .isEqualTo(String.join("\n", hdfs.get(0)));
    }
  }

  private static List<List<String>> readers(List<DistributedFileSystem> readers) {
    List<List<String>> out = new ArrayList<>();
    readers.forEach(r -> out.add(new ArrayList<>()));
    return out;
  }

  private static List<List<String>> renamedHistory(
      DistributedFileSystem fs, List<DistributedFileSystem> others) throws Exception {
    List<DistributedFileSystem> readers = new ArrayList<>();
    readers.add(fs);
    readers.addAll(others);
    List<List<String>> out = readers(readers);
    List<String> paths = List.of("/rw", "/rw/s", "/rw/s/b", "/rw/plain", "/rw/plain/m", "/rw/t");
    fs.mkdirs(p("/rw/s/a/in/deep"));
    fs.mkdirs(p("/rw/s/m/sub"));
    fs.mkdirs(p("/rw/plain"));
    write(fs, "/rw/s/a/x", 100);
    write(fs, "/rw/s/a/in/y", 20);
    write(fs, "/rw/s/a/in/deep/z", 7);
    write(fs, "/rw/s/m/f", 30);
    write(fs, "/rw/s/m/sub/g", 4);
    // /rw/t is left empty, its renamed directory bigger than the bound of the walking namenode
    fs.mkdirs(p("/rw/t/big/sub"));
    write(fs, "/rw/t/big/f1", 1);
    write(fs, "/rw/t/big/f2", 2);
    write(fs, "/rw/t/big/f3", 3);
    write(fs, "/rw/t/big/sub/f4", 4);
    fs.allowSnapshot(p("/rw/t"));
    fs.createSnapshot(p("/rw/t"), "t1");
    fs.rename(p("/rw/t/big"), p("/rw/plain/big2"));
    fs.allowSnapshot(p("/rw/s"));
    fs.createSnapshot(p("/rw/s"), "s1");
    fs.rename(p("/rw/s/a"), p("/rw/s/b"));
    fs.rename(p("/rw/s/m"), p("/rw/plain/m"));
    bigViews(readers, out, paths, "renamed within and out");
    try (FSDataOutputStream more = fs.append(p("/rw/s/b/x"))) {
      more.write(new byte[50]);
    }
    fs.delete(p("/rw/s/b/in/y"), false);
    write(fs, "/rw/s/b/new", 9);
    fs.mkdirs(p("/rw/s/b/in/more"));
    write(fs, "/rw/plain/m/f2", 5);
    fs.delete(p("/rw/plain/m/sub"), true);
    bigViews(readers, out, paths, "changed below the renamed directories");
    fs.createSnapshot(p("/rw/s"), "s2");
    fs.rename(p("/rw/s/b/in"), p("/rw/s/in2"));
    write(fs, "/rw/s/in2/deep/z2", 3);
    bigViews(readers, out, paths, "a subdirectory renamed away after s2");
    fs.deleteSnapshot(p("/rw/s"), "s1");
    bigViews(readers, out, paths, "s1 deleted");
    return out;
  }

  private static List<List<String>> heldAfterDeleteHistory(
      DistributedFileSystem fs, List<DistributedFileSystem> others) throws Exception {
    List<DistributedFileSystem> readers = new ArrayList<>();
    readers.add(fs);
    readers.addAll(others);
    List<List<String>> out = readers(readers);
    List<String> paths = List.of("/h3", "/h3/out", "/h3/out/d");
    fs.mkdirs(p("/h3/s/d/sub"));
    fs.mkdirs(p("/h3/out"));
    write(fs, "/h3/s/d/f", 100);
    write(fs, "/h3/s/d/g", 30);
    write(fs, "/h3/s/d/sub/h", 8);
    fs.allowSnapshot(p("/h3/s"));
    fs.createSnapshot(p("/h3/s"), "s1");
    write(fs, "/h3/s/d/new", 12);
    fs.mkdirs(p("/h3/s/d/newdir"));
    write(fs, "/h3/s/d/newdir/n", 6);
    try (FSDataOutputStream more = fs.append(p("/h3/s/d/f"))) {
      more.write(new byte[20]);
    }
    fs.createSnapshot(p("/h3/s"), "s2");
    fs.rename(p("/h3/s/d"), p("/h3/out/d"));
    fs.delete(p("/h3/out/d/new"), false);
    fs.delete(p("/h3/out/d/newdir"), true);
    fs.delete(p("/h3/out/d/g"), false);
    fs.delete(p("/h3/out/d/sub/h"), false);
    bigViews(readers, out, paths, "moved out after s2, then deleted below");
    fs.deleteSnapshot(p("/h3/s"), "s2");
    bigViews(readers, out, paths, "s2 deleted, s1 keeps the hold");
    return out;
  }

  private static List<List<String>> changedTwiceHistory(
      DistributedFileSystem fs, List<DistributedFileSystem> others) throws Exception {
    List<DistributedFileSystem> readers = new ArrayList<>();
    readers.add(fs);
    readers.addAll(others);
    List<List<String>> out = readers(readers);
    List<String> paths = List.of("/tf", "/tf/s");
    fs.mkdirs(p("/tf/s/a/in"));
    write(fs, "/tf/s/a/x", 100);
    write(fs, "/tf/s/a/in/y", 20);
    fs.allowSnapshot(p("/tf/s"));
    fs.createSnapshot(p("/tf/s"), "s1");
    fs.rename(p("/tf/s/a"), p("/tf/s/b"));
    try (FSDataOutputStream more = fs.append(p("/tf/s/b/x"))) {
      more.write(new byte[30]);
    }
    write(fs, "/tf/s/b/in/y", 60);
    fs.createSnapshot(p("/tf/s"), "s2");
    try (FSDataOutputStream more = fs.append(p("/tf/s/b/x"))) {
      more.write(new byte[40]);
    }
    fs.delete(p("/tf/s/b"), true);
    bigViews(readers, out, paths, "renamed, changed, deleted");
    fs.deleteSnapshot(p("/tf/s"), "s2");
    bigViews(readers, out, paths, "s2 deleted");
    return out;
  }

  private static List<List<String>> twiceHistory(
      DistributedFileSystem fs, List<DistributedFileSystem> others) throws Exception {
    List<DistributedFileSystem> readers = new ArrayList<>();
    readers.add(fs);
    readers.addAll(others);
    List<List<String>> out = new ArrayList<>();
    readers.forEach(r -> out.add(new ArrayList<>()));
    List<String> paths = List.of("/tw", "/tw/s");
    fs.mkdirs(p("/tw/s/a/in"));
    fs.mkdirs(p("/tw/s/keep"));
    write(fs, "/tw/s/a/x", 100);
    write(fs, "/tw/s/a/in/y", 20);
    write(fs, "/tw/s/keep/k", 3);
    fs.allowSnapshot(p("/tw/s"));
    fs.createSnapshot(p("/tw/s"), "s1");
    fs.rename(p("/tw/s/a"), p("/tw/s/b"));
    fs.createSnapshot(p("/tw/s"), "s2");
    fs.delete(p("/tw/s/b"), true);
    bigViews(readers, out, paths, "renamed, then deleted");
    return out;
  }

  private static List<List<String>> heldHistory(
      DistributedFileSystem fs, List<DistributedFileSystem> others) throws Exception {
    List<DistributedFileSystem> readers = new ArrayList<>();
    readers.add(fs);
    readers.addAll(others);
    List<List<String>> out = new ArrayList<>();
    readers.forEach(r -> out.add(new ArrayList<>()));
    List<String> paths = List.of("/hd/out", "/hd/out/d", "/hd/out/d/keep");
    fs.mkdirs(p("/hd/s/d/sub/in"));
    fs.mkdirs(p("/hd/s/d/keep"));
    fs.mkdirs(p("/hd/out"));
    write(fs, "/hd/s/d/f", 400);
    write(fs, "/hd/s/d/g", 30);
    write(fs, "/hd/s/d/sub/h", 60);
    write(fs, "/hd/s/d/sub/in/i", 7);
    write(fs, "/hd/s/d/keep/k", 9);
    write(fs, "/hd/s/d/keep/k2", 11);
    fs.allowSnapshot(p("/hd/s"));
    fs.createSnapshot(p("/hd/s"), "s1");
    fs.rename(p("/hd/s/d"), p("/hd/out/d"));
    bigViews(readers, out, paths, "moved out");
    fs.delete(p("/hd/out/d/f"), false);
    fs.delete(p("/hd/out/d/sub"), true);
    fs.delete(p("/hd/out/d/keep/k"), false);
    write(fs, "/hd/out/d/g", 5);
    bigViews(readers, out, paths, "deleted and overwritten below the moved directory");
    return out;
  }

  /**
   * The history of {@link #summariesPastTheSubtreeBoundCountWhatOnlySnapshotsHoldAsHdfsDoes}, done
   * through {@code fs}, viewed through it and through each of {@code others}: one list of lines
   * each.
   */
  private static List<List<String>> bigHistory(
      DistributedFileSystem fs, List<DistributedFileSystem> others) throws Exception {
    List<DistributedFileSystem> readers = new ArrayList<>();
    readers.add(fs);
    readers.addAll(others);
    List<List<String>> out = new ArrayList<>();
    readers.forEach(r -> out.add(new ArrayList<>()));
    List<String> paths =
        List.of("/top", "/top/b", "/top/b/sub", "/top/b/empty", "/top/out", "/top/b/sub/deep");
    fs.mkdirs(p("/top/b/sub/deep"));
    fs.mkdirs(p("/top/b/gone/in"));
    fs.mkdirs(p("/top/b/empty/e1"));
    fs.mkdirs(p("/top/out/o"));
    write(fs, "/top/b/a", 1000);
    write(fs, "/top/b/sub/x", 300);
    write(fs, "/top/b/sub/deep/y", 200);
    write(fs, "/top/b/sub/deep/y2", 20);
    write(fs, "/top/b/gone/z", 100);
    write(fs, "/top/b/gone/in/w", 100);
    write(fs, "/top/b/empty/e1/q", 10);
    write(fs, "/top/b/t", 3500, BLOCK);
    write(fs, "/top/b/r", 2500, BLOCK);
    write(fs, "/top/b/u", 3500, BLOCK);
    write(fs, "/top/b/mv", 40);
    write(fs, "/top/out/o/p", 5);
    write(fs, "/top/out/o/p2", 6);
    fs.allowSnapshot(p("/top/b"));
    fs.createSnapshot(p("/top/b"), "s1");
    bigViews(readers, out, paths, "s1");
    fs.delete(p("/top/b/a"), false);
    fs.delete(p("/top/b/gone"), true);
    fs.delete(p("/top/b/empty/e1"), true);
    fs.delete(p("/top/b/sub/deep/y2"), false);
    String cut = "cut t inside a block: " + SnapshotTestFiles.truncate(fs, "/top/b/t", 1500);
    out.forEach(o -> o.add(cut));
    fs.rename(p("/top/b/mv"), p("/top/b/sub/mv2"));
    bigViews(readers, out, paths, "deleted, cut, renamed");
    fs.createSnapshot(p("/top/b"), "s2");
    String boundary = "cut r on a boundary: " + SnapshotTestFiles.truncate(fs, "/top/b/r", BLOCK);
    out.forEach(o -> o.add(boundary));
    fs.rename(p("/top/b/r"), p("/top/out/r"));
    fs.delete(p("/top/b/t"), false);
    fs.delete(p("/top/b/sub/mv2"), false);
    try (FSDataOutputStream more = fs.append(p("/top/b/sub/x"))) {
      more.write(new byte[50]);
    }
    fs.delete(p("/top/b/sub/x"), false);
    String cutU = "cut u after s2: " + SnapshotTestFiles.truncate(fs, "/top/b/u", 1500);
    out.forEach(o -> o.add(cutU));
    fs.delete(p("/top/b/u"), false);
    bigViews(readers, out, paths, "r out; t, mv2, x (appended) and u (cut) deleted");
    fs.deleteSnapshot(p("/top/b"), "s1");
    bigViews(readers, out, paths, "s1 deleted");
    return out;
  }

  private static void bigViews(
      List<DistributedFileSystem> readers, List<List<String>> out, List<String> paths, String step)
      throws Exception {
    for (int i = 0; i < readers.size(); i++) {
      out.get(i).add("after " + step);
      views(readers.get(i), out.get(i), paths);
    }
  }

  private static List<String> truncates(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p("/ct/sub"));
    write(fs, "/ct/sub/t", 3500, BLOCK);
    write(fs, "/ct/b", 2 * BLOCK, BLOCK);
    write(fs, "/ct/other", 100, BLOCK);
    fs.allowSnapshot(p("/ct"));
    fs.createSnapshot(p("/ct"), "s1");
    List<String> out = new ArrayList<>();
    List<String> paths = List.of("/ct", "/ct/sub", "/ct/sub/t", "/ct/b");
    views(fs, out, paths);
    out.add("cut inside a block: " + SnapshotTestFiles.truncate(fs, "/ct/sub/t", 1500));
    views(fs, out, paths);
    out.add("cut on a boundary: " + SnapshotTestFiles.truncate(fs, "/ct/b", BLOCK));
    views(fs, out, paths);
    fs.createSnapshot(p("/ct"), "s2");
    out.add("cut after s2: " + SnapshotTestFiles.truncate(fs, "/ct/sub/t", 500));
    views(fs, out, paths);
    fs.deleteSnapshot(p("/ct"), "s1");
    views(fs, out, paths);
    fs.deleteSnapshot(p("/ct"), "s2");
    views(fs, out, paths);
    return out;
  }

  private static List<String> history(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p("/c/sub/deep"));
    fs.mkdirs(p("/c/gone/in"));
    fs.mkdirs(p("/plain"));
    write(fs, "/c/a", 1000);
    write(fs, "/c/b", 500);
    write(fs, "/c/ren", 50);
    write(fs, "/c/sub/x", 300);
    write(fs, "/c/sub/deep/y", 200);
    write(fs, "/c/gone/z", 100);
    write(fs, "/c/gone/in/w", 100);
    write(fs, "/plain/p", 10);
    fs.setQuota(p("/c/sub"), 1000, 1L << 30);
    fs.allowSnapshot(p("/c"));
    fs.createSnapshot(p("/c"), "s1");
    List<String> out = new ArrayList<>();
    views(fs, out);
    fs.delete(p("/c/a"), false);
    fs.delete(p("/c/gone"), true);
    fs.delete(p("/c/sub/x"), false);
    fs.rename(p("/c/ren"), p("/c/sub/ren2"));
    write(fs, "/c/new", 70);
    fs.delete(p("/c/new"), false);
    fs.delete(p("/plain/p"), false);
    views(fs, out);
    fs.createSnapshot(p("/c"), "s2");
    fs.delete(p("/c/b"), false);
    views(fs, out);
    return out;
  }

  private static void views(DistributedFileSystem fs, List<String> out) throws Exception {
    views(fs, out, List.of("/c", "/c/sub", "/c/sub/deep", "/plain", "/c/sub/deep/y"));
  }

  private static void views(DistributedFileSystem fs, List<String> out, List<String> paths)
      throws Exception {
    for (String path : paths) {
      ContentSummary cs = fs.getContentSummary(p(path));
      out.add(path + ": " + SnapshotTestFiles.figures(cs));
      out.add(path + " count -q: " + shell(fs, "-count", "-q", path));
      out.add(path + " du -s: " + shell(fs, "-du", "-s", path));
      out.add(path + " du -s -x: " + shell(fs, "-du", "-s", "-x", path));
      if (fs.getFileStatus(p(path)).isDirectory()) {
        QuotaUsage q = fs.getQuotaUsage(p(path));
        out.add(
            path + " quota usage: " + q.getFileAndDirectoryCount() + " " + q.getSpaceConsumed());
      }
    }
  }

  /** What {@code hdfs dfs args} prints against {@code fs}. */
  private static synchronized String shell(DistributedFileSystem fs, String... args)
      throws Exception {
    Configuration conf = new Configuration(fs.getConf());
    conf.set("fs.defaultFS", fs.getUri().toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream was = System.out;
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    int rc;
    try {
      rc = ToolRunner.run(new FsShell(conf), args);
    } finally {
      System.setOut(was);
    }
    return rc + " " + bytes.toString(StandardCharsets.UTF_8).trim().replaceAll("\\s+", " ");
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static void write(DistributedFileSystem fs, String path, int n) throws Exception {
    write(fs, path, n, 128L << 20);
  }

  private static void write(DistributedFileSystem fs, String path, int n, long blockSize)
      throws Exception {
    try (FSDataOutputStream out = fs.create(p(path), true, 4096, (short) 1, blockSize)) {
      out.write(new byte[n]);
    }
    assertThat(fs.getFileStatus(p(path)).getReplication()).isEqualTo((short) 1);
  }
}
