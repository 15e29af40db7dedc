package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digestOf;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.line;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.sorted;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Holds that nest (issue 60; docs/architecture.md, "Snapshots": "A hold's end", "Several holders"),
 * against hops and Apache HDFS in the same run. {@code h} leaves {@code a}'s snapshot {@code sa}
 * for {@code b}, which takes {@code sb}; then {@code g} leaves {@code h} for a plain directory, so
 * it is held below what held {@code h}; then {@code g/s} is made snapshottable and takes {@code
 * t1}. Files are deleted and overwritten below at every stage, so each of the three snapshots reads
 * files the others do not. The snapshots are then deleted in an order that ends the holds one way
 * or another; after every deletion every remaining snapshot lists and reads as HDFS's, byte for
 * byte, and no block a remaining snapshot reads is invalidated on the datanode. After the last,
 * every block no live file has is invalidated and no kept row is left.
 *
 * <p>HDFS refuses to move a directory whose subtree holds a snapshottable directory with snapshots,
 * so an inner snapshottable directory's snapshots are all younger than the holds of the directories
 * above it: {@code t1} is the youngest of the three.
 */
class SnapshotNestedHoldsLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-nested-holds", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  /** Each kept version of a file: its blocks on hops's side and the snapshots that read it. */
  private record Version(String name, List<LocatedBlock> blocks, Set<String> readers) {}

  @ParameterizedTest(name = "deleted in the order {0}")
  @ValueSource(strings = {"sa,sb,t1", "sb,sa,t1", "t1,sb,sa", "sb,t1,sa", "sa,t1,sb", "t1,sa,sb"})
  void nestedHoldsKeepWhatTheRemainingSnapshotsRead(String order) throws Exception {
    String root = "/n" + order.replace(",", "");
    Map<String, String> dirOf = new LinkedHashMap<>();
    dirOf.put("sa", root + "/a");
    dirOf.put("sb", root + "/b");
    dirOf.put("t1", root + "/o/g/s");
    List<Version> versions = new ArrayList<>();
    history(both.hopsSide().admin(), root, versions);
    history(both.hdfsSide().admin(), root, null);
    deleteInOrder(order, dirOf, versions);
    assertThat(digestOf(both.hopsSide().admin(), root + "/o/g/s/f3"))
        .isEqualTo(digestOf(both.hdfsSide().admin(), root + "/o/g/s/f3"))
        .isEqualTo(SnapshotTestFiles.digest("f3 in g/s, after t1"));
  }

  /**
   * The other nesting: {@code h} leaves {@code a}'s snapshot {@code sa} for a plain directory, its
   * {@code s} is made snapshottable and takes {@code t0} and {@code t1}, and then {@code g} leaves
   * {@code s} (held at {@code t1}, below {@code h}'s hold): {@code s} has a snapshot older than
   * {@code g}'s hold, and {@code h}'s partition keeps files for {@code s}'s snapshots too. Orders
   * that delete {@code t0} before {@code sa}.
   */
  @ParameterizedTest(name = "deleted in the order {0}")
  @ValueSource(strings = {"t0,sa,t1", "t0,t1,sa", "t1,t0,sa"})
  void aDirectoryHeldOutOfAnInnerSnapshottableOneKeepsWhatItsSnapshotsRead(String order)
      throws Exception {
    heldOutOfAnInner("/i" + order.replace(",", ""), order);
  }

  /**
   * As above, {@code sa} deleted while {@code t0} remains: {@code h}'s hold ends while {@code s}'s
   * older snapshot still reads {@code g} as it was at {@code t0}.
   */
  @ParameterizedTest(name = "deleted in the order {0}")
  @ValueSource(strings = {"sa,t0,t1", "sa,t1,t0", "t1,sa,t0"})
  void aDirectoryHeldOutOfAnInnerSnapshottableOneKeepsWhatItsOlderSnapshotReads(String order)
      throws Exception {
    heldOutOfAnInner("/j" + order.replace(",", ""), order);
  }

  private static void heldOutOfAnInner(String root, String order) throws Exception {
    Map<String, String> dirOf = new LinkedHashMap<>();
    dirOf.put("sa", root + "/a");
    dirOf.put("t0", root + "/o/h/s");
    dirOf.put("t1", root + "/o/h/s");
    List<Version> versions = new ArrayList<>();
    heldOutOfAnInnerHistory(both.hopsSide().admin(), root, versions);
    heldOutOfAnInnerHistory(both.hdfsSide().admin(), root, null);
    deleteInOrder(order, dirOf, versions);
    assertThat(digestOf(both.hopsSide().admin(), root + "/o/g/y3"))
        .isEqualTo(digestOf(both.hdfsSide().admin(), root + "/o/g/y3"))
        .isEqualTo(SnapshotTestFiles.digest("y3 in g, after t1"));
  }

  /**
   * Deletes the snapshots in {@code order} on both sides, checking after each deletion that the
   * remaining ones list and read alike and that no block they read is gone; then that every kept
   * block is invalidated with no kept row left.
   */
  private static void deleteInOrder(String order, Map<String, String> dirOf, List<Version> versions)
      throws Exception {
    List<String> remaining = new ArrayList<>(dirOf.keySet());
    assertSnapshotsAlike(dirOf, remaining, "none");
    assertNothingReadIsReleased(versions, remaining);
    List<String> deleted = new ArrayList<>();
    for (String snapshot : order.split(",")) {
      for (DistributedFileSystem fs : List.of(both.hopsSide().admin(), both.hdfsSide().admin())) {
        fs.deleteSnapshot(new Path(dirOf.get(snapshot)), snapshot);
      }
      remaining.remove(snapshot);
      deleted.add(snapshot);
      SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
      assertSnapshotsAlike(dirOf, remaining, String.join(",", deleted));
      assertNothingReadIsReleased(versions, remaining);
    }
    List<LocatedBlock> all = new ArrayList<>();
    versions.forEach(v -> all.addAll(v.blocks()));
    SnapshotKeptBlocks.assertReleased(both.get(), all);
  }

  private static void heldOutOfAnInnerHistory(
      DistributedFileSystem fs, String root, List<Version> versions) throws Exception {
    String a = root + "/a";
    fs.mkdirs(new Path(a + "/h/s/g"));
    fs.mkdirs(new Path(root + "/o"));
    for (String f : List.of("h/w", "h/s/f1", "h/s/g/y1", "h/s/g/y2", "h/s/g/y3")) {
      write(fs, a + "/" + f, text(f, 3000));
    }
    fs.allowSnapshot(new Path(a));
    fs.createSnapshot(new Path(a), "sa");

    fs.rename(new Path(a + "/h"), new Path(root + "/o/h"));
    String h = root + "/o/h";
    keep(fs, versions, h + "/w", "w", "sa");
    fs.delete(new Path(h + "/w"), false);
    keep(fs, versions, h + "/s/g/y1", "y1", "sa");
    write(fs, h + "/s/g/y1", text("y1 in o", 2000));

    String s = h + "/s";
    fs.allowSnapshot(new Path(s));
    fs.createSnapshot(new Path(s), "t0");
    keep(fs, versions, s + "/f1", "f1", "sa", "t0");
    write(fs, s + "/f1", text("f1 after t0", 2500));
    keep(fs, versions, s + "/g/y2", "y2", "sa", "t0");
    fs.delete(new Path(s + "/g/y2"), false);
    write(fs, s + "/g/y4", text("y4 after t0", 1500));
    fs.createSnapshot(new Path(s), "t1");

    fs.rename(new Path(s + "/g"), new Path(root + "/o/g"));
    String g = root + "/o/g";
    keep(fs, versions, g + "/y1", "y1 in o", "t0", "t1");
    fs.delete(new Path(g + "/y1"), false);
    keep(fs, versions, g + "/y3", "y3", "sa", "t0", "t1");
    write(fs, g + "/y3", "y3 in g, after t1");
    keep(fs, versions, g + "/y4", "y4", "t1");
    fs.delete(new Path(g + "/y4"), false);
    write(fs, g + "/y5", text("y5 in g", 1000));
    keep(fs, versions, g + "/y5", "y5");
    fs.delete(new Path(g + "/y5"), false);
    keep(fs, versions, s + "/f1", "f1 after t0", "t1");
    fs.delete(new Path(s + "/f1"), false);
  }

  /**
   * The history on one side; {@code versions} (null on HDFS's side) gets each version gone from the
   * live tree, its blocks and the snapshots that read it.
   */
  private static void history(DistributedFileSystem fs, String root, List<Version> versions)
      throws Exception {
    String a = root + "/a";
    String b = root + "/b";
    fs.mkdirs(new Path(a + "/h/g/s"));
    fs.mkdirs(new Path(b));
    fs.mkdirs(new Path(root + "/o"));
    for (String f : List.of("h/x", "h/g/y", "h/g/s/f1", "h/g/s/f2", "h/g/s/f3")) {
      write(fs, a + "/" + f, text(f, 3000));
    }
    fs.allowSnapshot(new Path(a));
    fs.allowSnapshot(new Path(b));
    fs.createSnapshot(new Path(a), "sa");

    fs.rename(new Path(a + "/h"), new Path(b + "/h"));
    fs.createSnapshot(new Path(b), "sb");
    String h = b + "/h";
    keep(fs, versions, h + "/x", "x", "sa", "sb");
    fs.delete(new Path(h + "/x"), false);
    keep(fs, versions, h + "/g/s/f1", "f1", "sa", "sb");
    write(fs, h + "/g/s/f1", text("f1 in b", 2000));
    write(fs, h + "/g/z", text("z in b", 1000));

    fs.rename(new Path(h + "/g"), new Path(root + "/o/g"));
    String g = root + "/o/g";
    keep(fs, versions, g + "/y", "y", "sa", "sb");
    fs.delete(new Path(g + "/y"), false);
    keep(fs, versions, g + "/s/f2", "f2", "sa", "sb");
    write(fs, g + "/s/f2", text("f2 in o", 2500));
    keep(fs, versions, g + "/z", "z");
    fs.delete(new Path(g + "/z"), false);

    String s = g + "/s";
    fs.allowSnapshot(new Path(s));
    write(fs, s + "/f4", text("f4 in s", 1500));
    fs.createSnapshot(new Path(s), "t1");
    keep(fs, versions, s + "/f1", "f1 in b", "t1");
    fs.delete(new Path(s + "/f1"), false);
    keep(fs, versions, s + "/f2", "f2 in o", "t1");
    fs.delete(new Path(s + "/f2"), false);
    keep(fs, versions, s + "/f3", "f3", "sa", "sb", "t1");
    write(fs, s + "/f3", "f3 in g/s, after t1");
    keep(fs, versions, s + "/f4", "f4", "t1");
    fs.delete(new Path(s + "/f4"), false);
  }

  private static void keep(
      DistributedFileSystem fs, List<Version> versions, String path, String name, String... readers)
      throws Exception {
    if (versions != null) {
      versions.add(new Version(name, SnapshotKeptBlocks.blocksOf(fs, path), Set.of(readers)));
    }
  }

  /** Every remaining snapshot lists the same tree and reads the same bytes on both sides. */
  private static void assertSnapshotsAlike(
      Map<String, String> dirOf, List<String> remaining, String deleted) throws Exception {
    for (String snapshot : remaining) {
      String at = dirOf.get(snapshot) + "/.snapshot/" + snapshot;
      assertThat(tree(both.hopsSide().admin(), at))
          .as("%s with %s deleted", at, deleted)
          .isEqualTo(tree(both.hdfsSide().admin(), at))
          .isNotEmpty();
    }
  }

  /** Each entry below {@code dir}, its status and, for a file, what it reads. */
  private static List<String> tree(DistributedFileSystem fs, String dir) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus st : sorted(fs.listStatus(new Path(dir)))) {
      String path = dir + "/" + st.getPath().getName();
      out.add(line(st, path.substring(path.indexOf("/.snapshot/"))));
      if (st.isDirectory()) {
        out.addAll(tree(fs, path));
      } else {
        out.add("  reads " + digestOf(fs, path));
      }
    }
    return out;
  }

  /** Every block a remaining snapshot reads is still on the datanode after the leader's rounds. */
  private static void assertNothingReadIsReleased(List<Version> versions, List<String> remaining)
      throws Exception {
    SnapshotKeptBlocks.leaderRounds(both.get());
    SnapshotKeptBlocks.leaderRounds(both.get());
    for (Version v : versions) {
      if (v.readers().stream().anyMatch(remaining::contains)) {
        assertThat(SnapshotKeptBlocks.stored(both.get(), v.blocks()))
            .as("blocks of %s, read by %s of %s", v.name(), v.readers(), remaining)
            .allMatch(stored -> stored);
      }
    }
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }
}
