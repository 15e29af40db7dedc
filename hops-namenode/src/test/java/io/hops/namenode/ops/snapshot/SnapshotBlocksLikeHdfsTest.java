package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotKeptBlocks.blocksOf;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.read;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.truncate;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a snapshot keeps of files changed after it, against hops and Apache HDFS in the same run,
 * read with the stock client from real DataNodes: a file deleted, one overwritten by create, one
 * replaced by a rename, and one appended to after a snapshot read from {@code .snapshot} byte for
 * byte as HDFS serves them (also through hops's second namenode); the kept blocks stay on the
 * datanode through the leader's rounds, and deleting the snapshot has them invalidated and gone,
 * with the namespace check clean. Appends and truncates down to a snapshot's length (inside a
 * block) leave the snapshot's bytes as HDFS does; below it, {@link SnapshotTruncateLikeHdfsTest}.
 */
class SnapshotBlocksLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-blocks", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  private static Path p(String path) {
    return new Path(path);
  }

  private static final List<String> FILES = List.of("del", "over", "moved", "app", "same");

  @Test
  void filesChangedAfterASnapshotReadAsInHdfsUntilItIsDeleted() throws Exception {
    DistributedFileSystem hops = both.hopsSide().admin();
    String dir = "/k";
    List<String> hdfsView = history(both.hdfsSide().admin(), dir, new ArrayList<>());
    // The blocks of the files about to be deleted and replaced on hops.
    List<LocatedBlock> kept = new ArrayList<>();
    List<String> hopsView = history(hops, dir, kept);
    assertThat(String.join("\n", hopsView)).isEqualTo(String.join("\n", hdfsView));

    // Through the other namenode.
    try (DistributedFileSystem other = both.hops().client(both.other())) {
      assertThat(read(other, "/k/.snapshot/s1/del")).isEqualTo(text("del", 3000));
      assertThat(read(other, "/k/.snapshot/s1/app")).isEqualTo(text("app", 3000));
    }

    // The leader's rounds neither free nor re-replicate them away.
    leaderRounds();
    assertThat(stored(kept)).as("kept blocks on the datanode").allMatch(s -> s);
    assertThat(read(hops, "/k/.snapshot/s1/over")).isEqualTo(text("over", 3000));
    assertThat(namespaceProblems()).isEmpty();

    hops.deleteSnapshot(p(dir), "s1");
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED))
          .isEmpty();
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (stored(kept).contains(true) && System.currentTimeMillis() < deadline) {
      leaderRounds();
      Thread.sleep(300);
    }
    assertThat(stored(kept)).as("released blocks on the datanode").allMatch(s -> !s);
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(ReleasedFileRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED)).isEmpty();
    }
    assertThat(namespaceProblems()).isEmpty();
    assertThat(read(hops, "/k/app")).isEqualTo(text("app", 3000) + text("appended", 2000));
  }

  /**
   * The history on one side, noting in {@code kept} the blocks of the files it deletes or replaces;
   * answers what every path reads afterwards.
   */
  private static List<String> history(DistributedFileSystem fs, String dir, List<LocatedBlock> kept)
      throws Exception {
    fs.mkdirs(p(dir));
    for (String f : FILES) {
      write(fs, dir + "/" + f, text(f, 3000));
    }
    write(fs, dir + "/newer", text("newer", 1500));
    for (String f : List.of("del", "over", "moved")) {
      kept.addAll(blocksOf(fs, dir + "/" + f));
    }
    fs.allowSnapshot(p(dir));
    fs.createSnapshot(p(dir), "s1");
    fs.delete(p(dir + "/del"), false);
    write(fs, dir + "/over", text("over2", 700));
    fs.rename(p(dir + "/newer"), p(dir + "/moved"), org.apache.hadoop.fs.Options.Rename.OVERWRITE);
    try (FSDataOutputStream out = fs.append(p(dir + "/app"))) {
      out.writeBytes(text("appended", 2000));
    }
    List<String> out = new ArrayList<>();
    for (String f : FILES) {
      out.add(f + " at s1: " + read(fs, dir + "/.snapshot/s1/" + f));
      out.add(f + " now: " + read(fs, dir + "/" + f));
      out.add(f + " at s1, length: " + fs.getFileStatus(p(dir + "/.snapshot/s1/" + f)).getLen());
    }
    out.add("missing at s1: " + read(fs, dir + "/.snapshot/s1/nope"));
    out.add("a directory at s1: " + read(fs, dir + "/.snapshot/s1"));
    return out;
  }

  @Test
  void truncatesAndAppendsAfterASnapshotReadAsInHdfs() throws Exception {
    List<String> hdfsView = truncations(both.hdfsSide().admin(), "/tr", new ArrayList<>());
    List<LocatedBlock> kept = new ArrayList<>();
    List<String> hopsView = truncations(both.hopsSide().admin(), "/tr", kept);
    assertThat(String.join("\n", hopsView)).isEqualTo(String.join("\n", hdfsView));
    // The block the snapshot reads stays on the datanode through the leader's rounds.
    leaderRounds();
    assertThat(stored(kept)).as("the snapshot's block on the datanode").allMatch(s -> s);
    assertThat(read(both.hopsSide().admin(), "/tr/.snapshot/s1/f")).isEqualTo(text("f", 3000));
    assertThat(namespaceProblems()).isEmpty();
  }

  /**
   * Appends and truncates (inside the block, down to the snapshot's length and above it) of a file
   * a snapshot has, and a truncate of a file created after it; answers what every step returned and
   * what the snapshot and the live tree read after each.
   */
  private static List<String> truncations(
      DistributedFileSystem fs, String dir, List<LocatedBlock> kept) throws Exception {
    fs.mkdirs(p(dir));
    write(fs, dir + "/f", text("f", 3000));
    fs.allowSnapshot(p(dir));
    fs.createSnapshot(p(dir), "s1");
    kept.addAll(blocksOf(fs, dir + "/f"));
    write(fs, dir + "/g", text("g", 2500));
    List<String> out = new ArrayList<>();
    Runnable view =
        () -> {
          try {
            out.add("s1: " + read(fs, dir + "/.snapshot/s1/f"));
            out.add("s1 length: " + fs.getFileStatus(p(dir + "/.snapshot/s1/f")).getLen());
            out.add("s1 g: " + read(fs, dir + "/.snapshot/s1/g"));
            out.add("f: " + read(fs, dir + "/f"));
            out.add("g: " + read(fs, dir + "/g"));
          } catch (IOException e) {
            out.add(SideBySide.failure(e));
          }
        };
    try (FSDataOutputStream o = fs.append(p(dir + "/f"))) {
      o.writeBytes(text("more", 2000));
    }
    view.run();
    out.add("truncate to the snapshot's length: " + truncate(fs, dir + "/f", 3000));
    view.run();
    try (FSDataOutputStream o = fs.append(p(dir + "/f"))) {
      o.writeBytes(text("again", 700));
    }
    out.add("truncate above it: " + truncate(fs, dir + "/f", 3300));
    view.run();
    out.add("truncate a newer file: " + truncate(fs, dir + "/g", 1000));
    view.run();
    out.add("truncate on a boundary: " + truncate(fs, dir + "/g", 0));
    view.run();
    return out;
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
