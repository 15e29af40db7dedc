package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digestOf;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.line;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.sorted;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.subtree.Reclaims;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A delete too big for one transaction (the subtree protocol's) below a snapshotted directory,
 * against hops and Apache HDFS in the same run (docs/architecture.md, "Snapshots", a big delete
 * below a snapshot): the live tree loses it at once; both snapshots list it and read every file as
 * HDFS's do, and content summaries and diff reports answer as HDFS's; its blocks stay on the
 * datanode and its rows are owned while a snapshot has them; deleting the last snapshot frees every
 * block (invalidated on the datanode) and every row. A big subtree holding a snapshottable
 * directory with snapshots is still refused, as HDFS refuses it.
 */
class SnapshotBigDeleteLikeHdfsTest {
  /** hops's bound of one transaction, well below the tree. */
  private static final int BOUND = 100;

  private static final int DIRS = 16;
  private static final int FILES = 25;

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-big-delete", conf(), 1));

  private static Configuration conf() {
    Configuration conf = SnapshotKeptBlocks.roundsWhenAsked();
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, BOUND);
    return conf;
  }

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void aBigTreeDeletedBelowASnapshotStaysInItUntilItsLastSnapshotGoes() throws Exception {
    Storage storage = both.hops().namenode().namesystem().storage();
    long inodesBefore = inodes(storage);
    List<LocatedBlock> blocks = new ArrayList<>();
    List<String> hops = history(both.hopsSide().admin(), "/w", blocks);
    List<String> hdfs = history(both.hdfsSide().admin(), "/w", new ArrayList<>());
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
    assertThat(hdfs).contains("deleted: true", "exists: false");
    assertThat(blocks).hasSizeGreaterThan(DIRS * FILES / 4);

    // The subtree is held: one detached root, kept for the snapshots, not reclaimed.
    SnapshotKeptBlocks.leaderRounds(both.get());
    assertThat(Reclaims.pending(storage))
        .singleElement()
        .satisfies(r -> assertThat(r.snapshotId()).as("its hold").isPositive())
        .satisfies(r -> assertThat(r.subtreeLocked()).as("marked").isFalse());
    assertThat(SnapshotKeptBlocks.stored(both.get(), blocks)).allMatch(s -> s);
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();

    // The first snapshot goes: the second still has the tree.
    for (SideBySide.Side s : List.of(both.hopsSide(), both.hdfsSide())) {
      s.admin().deleteSnapshot(p("/w"), "s1");
    }
    SnapshotKeptBlocks.leaderRounds(both.get());
    assertThat(Reclaims.pending(storage)).hasSize(1);
    assertThat(SnapshotKeptBlocks.stored(both.get(), blocks)).allMatch(s -> s);
    assertThat(readAll(both.hopsSide().admin(), "/w/.snapshot/s2/part"))
        .isEqualTo(readAll(both.hdfsSide().admin(), "/w/.snapshot/s2/part"));

    // The last one goes (through the other namenode): the hold ends, the leader reclaims the rows.
    try (DistributedFileSystem viaOther =
        (DistributedFileSystem)
            org.apache.hadoop.fs.FileSystem.newInstance(both.get().through(both.other()))) {
      viaOther.deleteSnapshot(p("/w"), "s2");
    }
    SnapshotKeptBlocks.leaderRounds(both.get());
    Reclaims.await(storage);
    SnapshotKeptBlocks.awaitInvalidated(both.get(), blocks);
    try (Transaction tx = storage.begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED))
          .as("kept files and holds")
          .isEmpty();
      assertThat(tx.scanAll(ReleasedFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    // What is left: /w and /w/keep/x.
    assertThat(inodes(storage)).isEqualTo(inodesBefore + 3);
  }

  @Test
  void aBigTreeHoldingADirectoryWithSnapshotsIsRefusedLikeHdfs() throws Exception {
    List<String> outcomes = new ArrayList<>();
    for (SideBySide.Side s : List.of(both.hopsSide(), both.hdfsSide())) {
      DistributedFileSystem fs = s.admin();
      fs.mkdirs(p("/r/big/snap"));
      for (int d = 0; d < 3; d++) {
        for (int f = 0; f < BOUND / 2; f++) {
          fs.create(p("/r/big/d" + d + "/f" + f)).close();
        }
      }
      fs.allowSnapshot(p("/r/big/snap"));
      fs.createSnapshot(p("/r/big/snap"), "s");
      String deleted;
      try {
        deleted = "deleted: " + fs.delete(p("/r/big"), true);
      } catch (Exception e) {
        deleted = SideBySide.failure(e);
      }
      outcomes.add(
          deleted
              + ", left: "
              + fs.getContentSummary(p("/r/big")).getFileCount()
              + " files, "
              + fs.exists(p("/r/big/snap/.snapshot/s")));
    }
    assertThat(outcomes.get(0))
        .isEqualTo(outcomes.get(1))
        .contains("is snapshottable and already has snapshots")
        .endsWith(3 * (BOUND / 2) + " files, true");
    assertThat(Reclaims.pending(both.hops().namenode().namesystem().storage())).isEmpty();
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  /**
   * Below a snapshot and directories with quotas (above and at the snapshottable directory), a big
   * delete goes as in HDFS: the usage stays charged while the snapshot has the tree (a create over
   * a namespace quota it fills is refused alike), and drops as the snapshot is deleted (through the
   * other namenode), before the reclaim frees the rows.
   */
  @Test
  void belowASnapshotAndAQuotaABigDeleteKeepsItsUsageChargedLikeHdfs() throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (SideBySide.Side s : List.of(both.hopsSide(), both.hdfsSide())) {
      DistributedFileSystem fs = s.admin();
      List<String> out = s == both.hopsSide() ? hops : hdfs;
      fs.mkdirs(p("/q/w"));
      for (int d = 0; d < 3; d++) {
        for (int f = 0; f < BOUND / 2; f++) {
          write(fs, "/q/w/t/d" + d + "/f" + f, f % 5 == 0 ? text("f" + f, 100 + f) : "");
        }
      }
      fs.setQuota(p("/q"), 10_000, 1L << 30);
      fs.setQuota(p("/q/w"), 10_000, 1L << 30);
      fs.allowSnapshot(p("/q/w"));
      fs.createSnapshot(p("/q/w"), "s");
      out.add("before " + quotaFigures(fs));
      out.add("deleted: " + fs.delete(p("/q/w/t"), true));
      out.add("after " + quotaFigures(fs));
      long count = fs.getQuotaUsage(p("/q")).getFileAndDirectoryCount();
      fs.setQuota(p("/q"), count, 1L << 30);
      out.add("create over it: " + SideBySide.outcome(x -> fs.create(p("/q/over")), null));
      fs.setQuota(p("/q"), 10_000, 1L << 30);
      if (s == both.hopsSide()) {
        SnapshotKeptBlocks.leaderRounds(both.get());
        assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
        try (DistributedFileSystem viaOther =
            (DistributedFileSystem)
                org.apache.hadoop.fs.FileSystem.newInstance(both.get().through(both.other()))) {
          viaOther.deleteSnapshot(p("/q/w"), "s");
        }
        out.add("snapshot deleted " + quotaFigures(fs));
        SnapshotKeptBlocks.leaderRounds(both.get());
        Reclaims.await(both.hops().namenode().namesystem().storage());
      } else {
        fs.deleteSnapshot(p("/q/w"), "s");
        out.add("snapshot deleted " + quotaFigures(fs));
      }
      out.add("reclaimed " + quotaFigures(fs));
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
    assertThat(hdfs.get(3)).contains("NSQuotaExceededException");
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  private static String quotaFigures(DistributedFileSystem fs) throws Exception {
    StringBuilder b = new StringBuilder();
    for (String q : List.of("/q", "/q/w")) {
      org.apache.hadoop.fs.QuotaUsage u = fs.getQuotaUsage(p(q));
      b.append(q)
          .append(" ns=")
          .append(u.getFileAndDirectoryCount())
          .append(" ds=")
          .append(u.getSpaceConsumed())
          .append(" summary ")
          .append(SnapshotTestFiles.figures(fs.getContentSummary(p(q))))
          .append("; ");
    }
    return b.toString();
  }

  /**
   * On one side: {@code root} snapshottable with a big tree {@code part} and a small {@code keep};
   * snapshot s1, changes inside {@code part}, snapshot s2, then {@code part} deleted. Answers what
   * both sides must agree on; {@code blocks} gets the blocks of the files the snapshots keep.
   */
  private static List<String> history(
      DistributedFileSystem fs, String root, List<LocatedBlock> blocks) throws Exception {
    String part = root + "/part";
    fs.mkdirs(p(root + "/keep"));
    write(fs, root + "/keep/x", "stays");
    create(fs, part);
    fs.allowSnapshot(p(root));
    fs.createSnapshot(p(root), "s1");
    write(fs, part + "/d0/after-s1", text("after", 700));
    fs.delete(p(part + "/d1/f0"), false);
    write(fs, part + "/d2/f1", text("overwritten", 900));
    fs.mkdirs(p(part + "/d3/sub"));
    write(fs, part + "/d3/sub/y", text("y", 300));
    fs.createSnapshot(p(root), "s2");
    for (FileStatus st : fs.listStatus(p(part))) {
      for (FileStatus f : fs.listStatus(st.getPath())) {
        if (f.isFile() && f.getLen() > 0) {
          blocks.addAll(
              fs.getClient().getLocatedBlocks(f.getPath().toUri().getPath(), 0).getLocatedBlocks());
        }
      }
    }
    List<String> out = new ArrayList<>();
    out.add("deleted: " + fs.delete(p(part), true));
    out.add("exists: " + fs.exists(p(part)));
    for (FileStatus st : sorted(fs.listStatus(p(root)))) {
      out.add("live " + line(st, st.getPath().getName()));
    }
    out.add("s2: " + readAll(fs, root + "/.snapshot/s2/part"));
    out.add("s1 listing: " + listAll(fs, root + "/.snapshot/s1/part"));
    for (String f : List.of("d0/after-s1", "d1/f0", "d2/f1", "d3/sub/y", "d4/f3")) {
      out.add("s1 " + f + ": " + digestOf(fs, root + "/.snapshot/s1/part/" + f));
    }
    for (String path : List.of(root, root + "/.snapshot/s2", root + "/.snapshot/s2/part")) {
      out.add(path + ": " + summary(fs, path));
    }
    for (String[] ends : new String[][] {{"s1", "s2"}, {"s2", ""}, {"s1", ""}, {"s2", "s1"}}) {
      out.add(
          "diff "
              + ends[0]
              + " "
              + ends[1]
              + ": "
              + fs.getSnapshotDiffReport(p(root), ends[0], ends[1]).getDiffList());
    }
    return out;
  }

  /** {@code DIRS} directories of {@code FILES} files, every fourth with data, the rest empty. */
  private static void create(DistributedFileSystem fs, String part) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int d = 0; d < DIRS; d++) {
        String dir = part + "/d" + d;
        done.add(
            pool.submit(
                () -> {
                  fs.mkdirs(p(dir));
                  for (int f = 0; f < FILES; f++) {
                    String file = dir + "/f" + f;
                    write(fs, file, f % 4 == 0 ? text(file, 100 + f) : "");
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Every file below {@code dir}, recursively in name order, with its status and what it reads. */
  private static String readAll(DistributedFileSystem fs, String dir) throws Exception {
    StringBuilder b = new StringBuilder();
    walk(fs, dir, "", b, true);
    return b.toString();
  }

  /** Every entry below {@code dir}, recursively in name order, with its status. */
  private static String listAll(DistributedFileSystem fs, String dir) throws Exception {
    StringBuilder b = new StringBuilder();
    walk(fs, dir, "", b, false);
    return b.toString();
  }

  private static void walk(
      DistributedFileSystem fs, String dir, String rel, StringBuilder b, boolean read)
      throws Exception {
    for (FileStatus st : sorted(fs.listStatus(p(dir)))) {
      String name = rel + "/" + st.getPath().getName();
      b.append(line(st, name));
      if (st.isDirectory()) {
        b.append('\n');
        walk(fs, dir + "/" + st.getPath().getName(), name, b, read);
      } else {
        b.append(read ? " " + digestOf(fs, dir + "/" + st.getPath().getName()) : "").append('\n');
      }
    }
  }

  private static String summary(DistributedFileSystem fs, String path) {
    try {
      return SnapshotTestFiles.figures(fs.getContentSummary(p(path)));
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }

  private static long inodes(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(InodeRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }
}
