package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digest;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digestOf;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Files a snapshot has, renamed after it and then deleted or replaced under their new names (inside
 * the snapshottable directory, and out of it to a plain one), against hops and Apache HDFS in the
 * same run: the snapshot goes on reading them byte for byte as HDFS's does (HDFS keeps them through
 * its {@code INodeReference}, hops through the file's reference mark; docs/architecture.md,
 * "Snapshots"), their blocks stay on the datanode through the leader's rounds, and deleting the
 * snapshot releases them, with the namespace check clean.
 */
class SnapshotRenamedFileLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-renamed-file", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  private static Path p(String path) {
    return new Path(path);
  }

  private static final List<String> FILES = List.of("del", "over", "replaced", "out", "twice");

  @Test
  void aFileRenamedAfterASnapshotThenDeletedKeepsItsBytesInTheSnapshot() throws Exception {
    List<String> hdfsView = history(both.hdfsSide().admin(), "/r", new ArrayList<>());
    List<LocatedBlock> kept = new ArrayList<>();
    DistributedFileSystem hops = both.hopsSide().admin();
    List<String> hopsView = history(hops, "/r", kept);
    for (int i = 0; i < Math.min(hopsView.size(), hdfsView.size()); i++) {
      assertThat(hopsView.get(i)).as("line " + i + " of the history").isEqualTo(hdfsView.get(i));
    }
    assertThat(hopsView).hasSameSizeAs(hdfsView);

    leaderRounds();
    assertThat(stored(kept)).as("kept blocks on the datanode").allMatch(s -> s);
    for (String f : FILES) {
      assertThat(digestOf(hops, "/r/d/.snapshot/s1/" + f)).isEqualTo(digest(text(f, 3000)));
    }
    assertThat(namespaceProblems()).isEmpty();

    hops.deleteSnapshot(p("/r/d"), "s1");
    assertThat(digestOf(hops, "/r/d/.snapshot/s2/twice2")).isEqualTo(digest(text("twice", 3000)));
    hops.deleteSnapshot(p("/r/d"), "s2");
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (stored(kept).contains(true) && System.currentTimeMillis() < deadline) {
      leaderRounds();
      Thread.sleep(300);
    }
    assertThat(stored(kept)).as("released blocks on the datanode").allMatch(s -> !s);
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(ReleasedFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
    assertThat(namespaceProblems()).isEmpty();
  }

  /**
   * The history on one side, noting in {@code kept} the blocks of the files it deletes or replaces;
   * answers what each step returned, what every path reads afterwards and the diff reports.
   */
  private static List<String> history(
      DistributedFileSystem fs, String root, List<LocatedBlock> kept) throws Exception {
    String d = root + "/d";
    fs.mkdirs(p(d + "/sub"));
    fs.mkdirs(p(root + "/o"));
    for (String f : FILES) {
      write(fs, d + "/" + f, text(f, 3000));
      kept.addAll(blocksOf(fs, d + "/" + f));
    }
    write(fs, d + "/newer", text("newer", 700));
    write(fs, d + "/source", text("source", 500));
    write(fs, d + "/cat", text("cat", 500));
    fs.allowSnapshot(p(d));
    fs.createSnapshot(p(d), "s1");
    List<String> out = new ArrayList<>();
    out.add("rename del: " + fs.rename(p(d + "/del"), p(d + "/sub/del2")));
    out.add("delete del2: " + fs.delete(p(d + "/sub/del2"), false));
    out.add("rename over: " + fs.rename(p(d + "/over"), p(d + "/over2")));
    write(fs, d + "/over2", text("over2", 900));
    out.add("rename replaced: " + fs.rename(p(d + "/replaced"), p(d + "/replaced2")));
    fs.rename(p(d + "/newer"), p(d + "/replaced2"), Options.Rename.OVERWRITE);
    out.add("rename out: " + fs.rename(p(d + "/out"), p(root + "/o/out")));
    out.add("delete out: " + fs.delete(p(root + "/o/out"), false));
    out.add("rename twice: " + fs.rename(p(d + "/twice"), p(d + "/twice2")));
    fs.createSnapshot(p(d), "s2");
    out.add("rename twice2: " + fs.rename(p(d + "/twice2"), p(d + "/twice3")));
    out.add(
        "concat onto a renamed one: "
            + outcome(
                () -> {
                  fs.concat(p(d + "/twice3"), new Path[] {p(d + "/source")});
                  return "concatenated";
                }));
    out.add("rename cat: " + fs.rename(p(d + "/cat"), p(d + "/cat2")));
    out.add(
        "concat of a renamed source: "
            + outcome(
                () -> {
                  fs.concat(p(d + "/twice3"), new Path[] {p(d + "/cat2")});
                  return "concatenated";
                }));
    out.add("delete twice3: " + fs.delete(p(d + "/twice3"), false));
    for (String f : FILES) {
      out.add(f + " at s1: " + digestOf(fs, d + "/.snapshot/s1/" + f));
    }
    out.add("twice2 at s2: " + digestOf(fs, d + "/.snapshot/s2/twice2"));
    out.add("over2 now: " + digestOf(fs, d + "/over2"));
    out.add("replaced2 now: " + digestOf(fs, d + "/replaced2"));
    for (String[] pair : new String[][] {{"s1", ""}, {"s1", "s2"}, {"s2", ""}, {"", "s1"}}) {
      out.add(
          "diff '"
              + pair[0]
              + "' -> '"
              + pair[1]
              + "': "
              + fs.getSnapshotDiffReport(p(d), pair[0], pair[1]));
    }
    return out;
  }

  @FunctionalInterface
  private interface Call {
    Object run() throws Exception;
  }

  private static String outcome(Call c) {
    try {
      return String.valueOf(c.run());
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }

  private static List<LocatedBlock> blocksOf(DistributedFileSystem fs, String path)
      throws IOException {
    return fs.getClient().getLocatedBlocks(path, 0).getLocatedBlocks();
  }

  private static List<Boolean> stored(List<LocatedBlock> blocks) throws IOException {
    return SnapshotKeptBlocks.stored(both.get(), blocks);
  }

  private static void leaderRounds() throws Exception {
    SnapshotKeptBlocks.leaderRounds(both.get());
  }

  private static List<?> namespaceProblems() throws Exception {
    return SnapshotKeptBlocks.namespaceProblems(both.get());
  }
}
