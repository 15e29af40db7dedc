package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotKeptBlocks.blocksOf;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.read;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.truncate;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.faults.Faults;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Truncating below a snapshot's length (HDFS's copy-on-truncate), against hops and Apache HDFS in
 * the same run, read with the stock client from real DataNodes: inside a block and across several
 * blocks, on a block boundary, again after an append and a second snapshot, and down to a block a
 * snapshot already has a copy of; after every step the live file and each snapshot read byte for
 * byte as HDFS serves them (also through hops's second namenode). The snapshots' blocks stay on the
 * datanode until the snapshots are deleted (the last one through the second namenode), and then are
 * invalidated and gone, their tails' rows with them, with the namespace check clean and the live
 * file intact.
 */
class SnapshotTruncateLikeHdfsTest {
  private static final long BLOCK = 1024;

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () ->
              SideBySide.start(
                  "snapshot-truncate", SnapshotKeptBlocks.roundsWhenAskedWithBlocksOf(BLOCK), 1));

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void truncatesBelowSnapshotsReadAsInHdfsUntilTheSnapshotsGo() throws Exception {
    List<String> hdfsView = history(both.hdfsSide().admin(), new ArrayList<>(), false);
    List<LocatedBlock> hopsBlocks = new ArrayList<>();
    List<String> hopsView = history(both.hopsSide().admin(), hopsBlocks, true);
    assertThat(String.join("\n", hopsView)).isEqualTo(String.join("\n", hdfsView));

    // Through the other namenode, and after the leader's rounds, the snapshots still read whole.
    leaderRounds();
    assertThat(stored(hopsBlocks)).as("the snapshots' blocks on the datanode").allMatch(s -> s);
    try (DistributedFileSystem other = both.hops().client(both.other())) {
      assertThat(read(other, "/ct/.snapshot/s1/f")).isEqualTo(text("f", 3500));
      assertThat(read(other, "/ct/.snapshot/s1/g")).isEqualTo(text("g", 3000));
    }
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();

    DistributedFileSystem hops = both.hopsSide().admin();
    String live = read(hops, "/ct/f");
    hops.deleteSnapshot(p("/ct"), "s1");
    try (DistributedFileSystem other = both.hops().client(both.other())) {
      other.deleteSnapshot(p("/ct"), "s2");
    }
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(SnapshotFileTailRow.TABLE, LockMode.READ_COMMITTED))
          .as("tails, released with their kept files")
          .isEmpty();
    }
    List<LocatedBlock> gone = new ArrayList<>();
    List<Long> now = new ArrayList<>();
    for (String f : List.of("/ct/f", "/ct/g")) {
      for (LocatedBlock b : blocksOf(hops, f)) {
        now.add(b.getBlock().getBlockId());
      }
    }
    for (LocatedBlock b : hopsBlocks) {
      if (!now.contains(b.getBlock().getBlockId())) {
        gone.add(b);
      }
    }
    assertThat(gone).as("blocks only the snapshots had").isNotEmpty();
    long deadline = System.currentTimeMillis() + 30_000;
    while (stored(gone).contains(true) && System.currentTimeMillis() < deadline) {
      leaderRounds();
      Thread.sleep(300);
    }
    assertThat(stored(gone)).as("released blocks on the datanode").allMatch(s -> !s);
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(ReleasedFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    assertThat(read(hops, "/ct/f")).isEqualTo(live);
  }

  @Test
  void aTruncateThroughTheOtherNamenodeIsCopiedOnceTheLeaderSendsItsRecovery() throws Exception {
    DistributedFileSystem hdfs = both.hdfsSide().admin();
    List<String> hdfsView = throughOther(hdfs, hdfs, false);
    List<String> hopsView;
    try (DistributedFileSystem other = both.hops().client(both.other())) {
      hopsView = throughOther(both.hopsSide().admin(), other, true);
    }
    assertThat(String.join("\n", hopsView)).isEqualTo(String.join("\n", hdfsView));
  }

  @Test
  void aSnapshotDeletedBeforeTheCopyCommitsLeavesTheFileCutAsInHdfs() throws Exception {
    DistributedFileSystem hdfs = both.hdfsSide().admin();
    List<String> hdfsView = snapshotGoneBeforeTheCopy(hdfs, hdfs, null);
    List<String> hopsView;
    AtomicBoolean deletedFirst = new AtomicBoolean();
    try (DistributedFileSystem other = both.hops().client(both.other())) {
      hopsView = snapshotGoneBeforeTheCopy(both.hopsSide().admin(), other, deletedFirst);
    } finally {
      for (HopsNameNode nn : List.of(both.hops().namenode(), both.other())) {
        nn.namesystem().faults().arm(Faults.Point.COMMIT_BLOCK_SYNCHRONIZATION, null);
      }
    }
    assertThat(deletedFirst).as("the snapshot deleted before the copy's commit").isTrue();
    assertThat(String.join("\n", hopsView)).isEqualTo(String.join("\n", hdfsView));
    assertThat(hopsView).contains("closed: true", "f, length: 1700");
    long deadline = System.currentTimeMillis() + 30_000;
    while (!tails().isEmpty() && System.currentTimeMillis() < deadline) {
      leaderRounds();
      Thread.sleep(200);
    }
    assertThat(tails()).as("tails once the copy committed").isEmpty();
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  @Test
  void aFileDeletedBeforeItsCopyCommitsTakesTheReleasedTailWithIt() throws Exception {
    DistributedFileSystem hdfs = both.hdfsSide().admin();
    List<String> hdfsView = deletedBeforeTheCopy(hdfs, hdfs);
    List<String> hopsView;
    try (DistributedFileSystem other = both.hops().client(both.other())) {
      hopsView = deletedBeforeTheCopy(both.hopsSide().admin(), other);
    }
    assertThat(String.join("\n", hopsView)).isEqualTo(String.join("\n", hdfsView));
    long deadline = System.currentTimeMillis() + 30_000;
    while (!(tails().isEmpty() && releasedFiles().isEmpty())
        && System.currentTimeMillis() < deadline) {
      leaderRounds();
      Thread.sleep(200);
    }
    assertThat(tails()).as("tails of the deleted file").isEmpty();
    assertThat(releasedFiles()).as("files left to release").isEmpty();
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  /**
   * A truncate inside a block below the snapshot's length sent to {@code truncating} (on hops the
   * other namenode, so that its recovery waits for the leader's rounds, which the test runs only
   * after), then the snapshot and the file deleted.
   */
  private static List<String> deletedBeforeTheCopy(
      DistributedFileSystem fs, DistributedFileSystem truncating) throws Exception {
    String dir = "/dropped";
    fs.mkdirs(p(dir));
    write(fs, dir + "/f", text("dropped", 2500));
    fs.allowSnapshot(p(dir));
    fs.createSnapshot(p(dir), "s1");
    List<String> out = new ArrayList<>();
    out.add("truncate: " + truncating.truncate(p(dir + "/f"), 1700));
    fs.deleteSnapshot(p(dir), "s1");
    out.add("delete: " + fs.delete(p(dir + "/f"), false));
    out.add("listing: " + fs.listStatus(p(dir)).length);
    return out;
  }

  private static List<ReleasedFileRow> releasedFiles() throws IOException {
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      return tx.scanAll(ReleasedFileRow.TABLE, LockMode.READ_COMMITTED);
    }
  }

  private static List<SnapshotFileTailRow> tails() throws IOException {
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      return tx.scanAll(SnapshotFileTailRow.TABLE, LockMode.READ_COMMITTED);
    }
  }

  @Test
  void aRetriedCommitOfACopyChangesNothingAsInHdfs() throws Exception {
    List<String> hdfsView =
        retriedCommit(both.hdfsSide().admin(), both.hdfs().getNameNode().getServiceRpcAddress());
    List<String> hopsView =
        retriedCommit(both.hopsSide().admin(), both.hops().namenode().address());
    assertThat(String.join("\n", hopsView)).isEqualTo(String.join("\n", hdfsView));
    assertThat(hopsView).contains("retried commit: returned");
  }

  /**
   * A copy-on-truncate whose recovery committed, then its {@code commitBlockSynchronization} sent
   * again as the primary datanode would retry it (same old block, stamp, length and targets) over
   * the namenode {@code nn}'s DatanodeProtocol.
   */
  private static List<String> retriedCommit(DistributedFileSystem fs, InetSocketAddress nn)
      throws Exception {
    String dir = "/retry";
    fs.mkdirs(p(dir));
    write(fs, dir + "/f", text("retry", 2500));
    fs.allowSnapshot(p(dir));
    fs.createSnapshot(p(dir), "s1");
    List<LocatedBlock> before = blocksOf(fs, dir + "/f");
    ExtendedBlock old = before.get(before.size() - 1).getBlock();
    List<String> out = new ArrayList<>();
    out.add("truncate: " + truncate(fs, dir + "/f", 2100));
    List<LocatedBlock> after = blocksOf(fs, dir + "/f");
    LocatedBlock copy = after.get(after.size() - 1);
    out.add("copied: " + (copy.getBlock().getBlockId() != old.getBlockId()));
    DatanodeProtocolClientSideTranslatorPB namenode =
        new DatanodeProtocolClientSideTranslatorPB(nn, new Configuration());
    try {
      namenode.commitBlockSynchronization(
          old,
          copy.getBlock().getGenerationStamp(),
          copy.getBlock().getNumBytes(),
          true,
          false,
          copy.getLocations(),
          copy.getStorageIDs());
      out.add("retried commit: returned");
    } catch (IOException e) {
      out.add("retried commit: " + SideBySide.failure(e));
    } finally {
      namenode.close();
    }
    out.add("closed: " + fs.isFileClosed(p(dir + "/f")));
    out.add("s1: " + read(fs, dir + "/.snapshot/s1/f"));
    out.add("f: " + read(fs, dir + "/f"));
    out.add("f, length: " + length(fs, dir + "/f"));
    fs.deleteSnapshot(p(dir), "s1");
    out.add("f after: " + read(fs, dir + "/f"));
    return out;
  }

  /**
   * A truncate inside a block below the snapshot's length, sent to {@code truncating}, then the
   * snapshot deleted before the copy's recovery commits: on hops ({@code deletedFirst} not null)
   * the truncate goes to the other namenode, whose recovery waits for the leader's rounds, and the
   * snapshot is deleted when the primary datanode's {@code commitBlockSynchronization} arrives,
   * before its transaction (on HDFS it is deleted right after the truncate: its recovery may have
   * committed already, with the same outcome). The file ends cut and closed, and reads and appends
   * as HDFS's.
   */
  private static List<String> snapshotGoneBeforeTheCopy(
      DistributedFileSystem fs, DistributedFileSystem truncating, AtomicBoolean deletedFirst)
      throws Exception {
    String dir = "/gone";
    fs.mkdirs(p(dir));
    write(fs, dir + "/f", text("gone", 2500));
    fs.allowSnapshot(p(dir));
    fs.createSnapshot(p(dir), "s1");
    List<String> out = new ArrayList<>();
    out.add("truncate: " + truncating.truncate(p(dir + "/f"), 1700));
    if (deletedFirst == null) {
      fs.deleteSnapshot(p(dir), "s1");
    } else {
      for (HopsNameNode nn : List.of(both.hops().namenode(), both.other())) {
        nn.namesystem()
            .faults()
            .arm(
                Faults.Point.COMMIT_BLOCK_SYNCHRONIZATION,
                () -> {
                  if (deletedFirst.compareAndSet(false, true)) {
                    fs.deleteSnapshot(p(dir), "s1");
                  }
                });
      }
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (!fs.isFileClosed(p(dir + "/f")) && System.currentTimeMillis() < deadline) {
      if (deletedFirst != null) {
        leaderRounds();
      }
      Thread.sleep(200);
    }
    out.add("closed: " + fs.isFileClosed(p(dir + "/f")));
    out.add("snapshots: " + fs.getSnapshotListing(p(dir)).length);
    out.add("f: " + read(fs, dir + "/f"));
    out.add("f, length: " + length(fs, dir + "/f"));
    try (FSDataOutputStream o = fs.append(p(dir + "/f"))) {
      o.writeBytes(text("after", 100));
    }
    out.add("f appended: " + read(fs, dir + "/f"));
    return out;
  }

  /**
   * A truncate inside a block below a snapshot's length sent to {@code truncating}; on hops the
   * other namenode, which leaves the recovery to the leader ({@code rounds}: run its rounds until
   * the file closes).
   */
  private static List<String> throughOther(
      DistributedFileSystem fs, DistributedFileSystem truncating, boolean rounds) throws Exception {
    String dir = "/two";
    fs.mkdirs(p(dir));
    write(fs, dir + "/f", text("two", 2500));
    fs.allowSnapshot(p(dir));
    fs.createSnapshot(p(dir), "s1");
    List<String> out = new ArrayList<>();
    out.add("truncate: " + truncating.truncate(p(dir + "/f"), 1700));
    long deadline = System.currentTimeMillis() + 30_000;
    while (!fs.isFileClosed(p(dir + "/f")) && System.currentTimeMillis() < deadline) {
      if (rounds) {
        leaderRounds();
      }
      Thread.sleep(200);
    }
    out.add("closed: " + fs.isFileClosed(p(dir + "/f")));
    out.add("s1: " + read(fs, dir + "/.snapshot/s1/f"));
    out.add("f: " + read(fs, dir + "/f"));
    out.add("f, length: " + length(fs, dir + "/f"));
    fs.deleteSnapshot(p(dir), "s1"); // its kept block is released as the other test checks
    out.add("f after: " + read(fs, dir + "/f"));
    return out;
  }

  /**
   * The history on one side; notes in {@code blocks} every block the files had at some point;
   * answers what every step returned and what the files and snapshots read after each.
   */
  private static List<String> history(
      DistributedFileSystem fs, List<LocatedBlock> blocks, boolean note) throws Exception {
    String dir = "/ct";
    fs.mkdirs(p(dir));
    write(fs, dir + "/f", text("f", 3500)); // blocks of 1024, 1024, 1024 and 428 bytes
    write(fs, dir + "/g", text("g", 3000));
    fs.allowSnapshot(p(dir));
    fs.createSnapshot(p(dir), "s1");
    List<String> out = new ArrayList<>();
    List<String> snapshots = new ArrayList<>(List.of("s1"));
    Runnable view =
        () -> {
          for (String f : List.of("f", "g")) {
            for (String s : snapshots) {
              out.add(f + " at " + s + ": " + read(fs, dir + "/.snapshot/" + s + "/" + f));
              out.add(
                  f + " at " + s + ", length: " + length(fs, dir + "/.snapshot/" + s + "/" + f));
            }
            out.add(f + ": " + read(fs, dir + "/" + f));
            out.add(f + ", length: " + length(fs, dir + "/" + f));
          }
        };
    noteBlocks(fs, blocks, note);
    out.add("inside a block, across blocks: " + truncate(fs, dir + "/f", 1500));
    view.run();
    out.add("on a block boundary: " + truncate(fs, dir + "/g", 2048));
    view.run();
    noteBlocks(fs, blocks, note);
    try (FSDataOutputStream o = fs.append(p(dir + "/f"))) {
      o.writeBytes(text("more", 1200));
    }
    view.run();
    fs.createSnapshot(p(dir), "s2");
    snapshots.add("s2");
    noteBlocks(fs, blocks, note);
    out.add("inside the first block: " + truncate(fs, dir + "/f", 300));
    view.run();
    out.add("again, no snapshot since: " + truncate(fs, dir + "/f", 100));
    view.run();
    out.add("below a boundary: " + truncate(fs, dir + "/g", 1000));
    view.run();
    noteBlocks(fs, blocks, note);
    try (FSDataOutputStream o = fs.append(p(dir + "/g"))) {
      o.writeBytes(text("tail", 1500));
    }
    view.run();
    return out;
  }

  private static void write(DistributedFileSystem fs, String path, String data) throws IOException {
    try (FSDataOutputStream out = fs.create(p(path), true, 4096, (short) 1, BLOCK)) {
      out.writeBytes(data);
    }
  }

  private static void noteBlocks(DistributedFileSystem fs, List<LocatedBlock> blocks, boolean note)
      throws IOException {
    if (note) {
      blocks.addAll(blocksOf(fs, "/ct/f"));
      blocks.addAll(blocksOf(fs, "/ct/g"));
    }
  }

  private static String length(DistributedFileSystem fs, String path) {
    try {
      return String.valueOf(fs.getFileStatus(p(path)).getLen());
    } catch (IOException e) {
      return SideBySide.failure(e);
    }
  }

  private static List<Boolean> stored(List<LocatedBlock> blocks) throws IOException {
    return SnapshotKeptBlocks.stored(both.get(), blocks);
  }

  private static void leaderRounds() throws Exception {
    SnapshotKeptBlocks.leaderRounds(both.get());
  }
}
