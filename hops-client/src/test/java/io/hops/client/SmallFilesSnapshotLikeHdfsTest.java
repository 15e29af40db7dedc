package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.OnDiskLargeFileDataRow;
import io.hops.dal.rows.OnDiskMediumFileDataRow;
import io.hops.dal.rows.OnDiskSmallFileDataRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.SideBySide;
import io.hops.namenode.ThreadConsole;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Snapshots of files stored in the database (docs/architecture.md, "Snapshots"), side by side with
 * a MiniDFSCluster: on hops the files are written with hops-client into a {@code DB} directory
 * (each tier: up to 1 KB, 2 KB, 4 KB, and 8 KB pieces past it), on HDFS with the stock client to
 * datanodes. After two snapshots and deletes, overwrites, appends in the database and past its
 * bound, truncates, a concat and renames, every file at every snapshot reads the same bytes as on
 * HDFS through the stock client (hops's data-transfer endpoint) and through hops-client's one-call
 * read, listings show the same lengths, and the quota usage and counts are HDFS's. Deleting the
 * snapshots (the last through the second namenode) releases every data row only they read.
 *
 * <p>The storage space of a content summary ({@code du}, {@code count -q}'s space left) is not
 * compared: it does not count the bytes a truncate below a snapshot's length keeps for the
 * snapshots (docs/architecture.md, "Quota usage of what snapshots keep", not yet, as for blocks);
 * the quota usage ({@code count -q -u}, {@code getQuotaUsage}) is compared and counts them.
 */
class SmallFilesSnapshotLikeHdfsTest {
  private static final int MB = 1024 * 1024;
  private static final String[] TREES = {"/s", "/s/.snapshot/s1", "/s/.snapshot/s2"};

  private static SideBySide both;
  private static FileSystem hopsClient;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, true);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    both =
        SideBySide.named("smallfiles-snapshots")
            .conf(conf)
            .datanodes(1)
            .client(
                c -> {
                  c.setInt("dfs.replication", 1);
                  c.setLong("dfs.blocksize", MB);
                  c.setBoolean("fs.hdfs.impl.disable.cache", true);
                })
            .start();
    hopsClient = FileSystem.get(both.hopsSide.uri(), withHopsClient(both.hopsSide.conf()));
    assertThat(hopsClient).isInstanceOf(HopsDistributedFileSystem.class);
    both.hopsSide.admin().mkdirs(new Path("/s"));
    both.hopsSide.admin().setStoragePolicy(new Path("/s"), "DB");
    for (SideBySide.Side s : sides()) {
      DistributedFileSystem fs = s.admin();
      fs.mkdirs(new Path("/s"));
      fs.mkdirs(new Path("/out"));
      fs.setQuota(new Path("/s"), 1000, 64L * MB);
      fs.allowSnapshot(new Path("/s"));
    }
  }

  private static Configuration withHopsClient(Configuration c) {
    Configuration w = new Configuration(c);
    w.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    return w;
  }

  @AfterAll
  static void stop() throws Exception {
    if (hopsClient != null) {
      hopsClient.close();
    }
    if (both != null) {
      both.close();
    }
  }

  private static SideBySide.Side[] sides() {
    return new SideBySide.Side[] {both.hopsSide, both.hdfsSide};
  }

  /** The client that writes: hops-client on hops, the stock client on HDFS. */
  private static FileSystem writer(SideBySide.Side s) {
    return s == both.hopsSide ? hopsClient : s.admin();
  }

  private static byte[] bytes(int n, long seed) {
    return SmallFilesTest.bytes(n, seed);
  }

  private static void write(FileSystem fs, String path, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), true)) {
      out.write(data);
    }
  }

  private static void append(FileSystem fs, String path, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.append(new Path(path))) {
      out.write(data);
    }
  }

  private static void truncate(DistributedFileSystem fs, String path, long length)
      throws Exception {
    if (!fs.truncate(new Path(path), length)) {
      long deadline = System.currentTimeMillis() + 30_000;
      while (!fs.isFileClosed(new Path(path)) && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
    }
  }

  private static byte[] read(FileSystem fs, String path) throws IOException {
    try (InputStream in = fs.open(new Path(path))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  private static String digest(byte[] b) {
    CRC32 c = new CRC32();
    c.update(b);
    return b.length + ":" + Long.toHexString(c.getValue());
  }

  /**
   * Every tree (live and each snapshot): names and lengths listed, and each file's bytes read by
   * {@code reader}; a failure is part of the answer.
   */
  private static String trees(DistributedFileSystem lister, FileSystem reader) throws Exception {
    StringBuilder b = new StringBuilder();
    for (String t : TREES) {
      if (!lister.exists(new Path(t))) {
        continue;
      }
      for (FileStatus st : lister.listStatus(new Path(t))) {
        String name = st.getPath().getName();
        b.append(t).append('/').append(name).append(" len ").append(st.getLen());
        if (st.isFile()) {
          String path = t + "/" + name;
          try {
            b.append(" bytes ").append(digest(read(reader, path)));
          } catch (IOException e) {
            b.append(" read ").append(SideBySide.failure(e));
          }
        }
        b.append('\n');
      }
    }
    return b.toString();
  }

  /** {@code count -q}, {@code count -q -u}, {@code du -s}, {@code du -s -x} and the summaries. */
  private static String counts(SideBySide.Side s) throws Exception {
    StringBuilder b = new StringBuilder();
    for (String[] args :
        List.of(
            new String[] {"-count", "-q", "/s"},
            new String[] {"-count", "-q", "-u", "/s"},
            new String[] {"-du", "-s", "/s"},
            new String[] {"-du", "-s", "-x", "/s"})) {
      ThreadConsole.Captured shell =
          ThreadConsole.capture(() -> ToolRunner.run(new FsShell(s.conf()), args));
      b.append(String.join(" ", args)).append(" -> ").append(shell.exit()).append('\n');
      String out = shell.out().replace(s.uri().toString(), "").trim();
      String[] f = out.split("\\s+");
      if (args[0].equals("-du")) {
        out = f[0] + " " + f[f.length - 1]; // the length; the space: see the class comment
      } else if (args.length == 3) {
        f[3] = "-"; // the space left is from the content summary's space
        out = String.join(" ", f);
      }
      b.append(out).append('\n');
    }
    ContentSummary c = s.admin().getContentSummary(new Path("/s"));
    b.append("summary len ")
        .append(c.getLength())
        .append(" files ")
        .append(c.getFileCount())
        .append(" dirs ")
        .append(c.getDirectoryCount())
        .append(" snapshot len ")
        .append(c.getSnapshotLength())
        .append(" space ")
        .append(c.getSnapshotSpaceConsumed())
        .append('\n');
    QuotaUsage q = s.admin().getQuotaUsage(new Path("/s"));
    b.append("usage ns ")
        .append(q.getFileAndDirectoryCount())
        .append(" space ")
        .append(q.getSpaceConsumed())
        .append('\n');
    return b.toString();
  }

  @FunctionalInterface
  private interface Step {
    void run(SideBySide.Side s) throws Exception;
  }

  /**
   * Runs {@code step} on both sides, then compares the trees read with the stock client, the trees
   * read with hops-client (hops only), and the counts.
   */
  private static void same(String what, Step step) throws Exception {
    String[] seen = new String[2];
    SideBySide.Side[] s = sides();
    for (int i = 0; i < 2; i++) {
      String outcome =
          SideBySide.outcome(
              x -> {
                step.run(x);
                return "ok";
              },
              s[i]);
      seen[i] = what + " -> " + outcome + "\n" + trees(s[i].admin(), s[i].admin()) + counts(s[i]);
    }
    assertThat(seen[0]).as("hops vs HDFS after " + what).isEqualTo(seen[1]);
    assertThat(trees(both.hopsSide.admin(), hopsClient))
        .as("hops-client's reads after " + what)
        .isEqualTo(trees(both.hopsSide.admin(), both.hopsSide.admin()));
  }

  @Test
  void snapshotsReadDatabaseFilesAsHdfsReadsTheirBlocksUntilTheSnapshotsGo() throws Exception {
    int[] sizes = {500, 1500, 3000, 20_000, 700, 2500, 5000, 900, 1200, 4000};
    String[] names = {"a", "b", "c", "d", "e", "g", "h", "r", "f", "k"};
    same(
        "create one file of each tier",
        s -> {
          for (int i = 0; i < names.length; i++) {
            write(writer(s), "/s/" + names[i], bytes(sizes[i], i));
          }
          write(s.admin(), "/out/src", bytes(1000, 99));
        });
    assertThat(SmallFilesTableFullTest.where(both.hops, both.hopsSide.admin(), new Path("/s/d")))
        .as("the hops side keeps them in the database")
        .isEqualTo("db");
    same("snapshot s1", s -> s.admin().createSnapshot(new Path("/s"), "s1"));
    same("delete a", s -> s.admin().delete(new Path("/s/a"), false));
    same("overwrite b", s -> write(writer(s), "/s/b", bytes(100, 20)));
    same("append to c in the database", s -> append(writer(s), "/s/c", bytes(300, 21)));
    same("append to h past the bound", s -> append(writer(s), "/s/h", bytes(70_000, 22)));
    assertThat(SmallFilesTableFullTest.where(both.hops, both.hopsSide.admin(), new Path("/s/h")))
        .as("h moved to datanodes")
        .startsWith("datanodes");
    same("truncate d", s -> truncate(s.admin(), "/s/d", 10_000));
    same("rename e", s -> s.admin().rename(new Path("/s/e"), new Path("/s/e2")));
    same(
        "concat onto g",
        s -> s.admin().concat(new Path("/s/g"), new Path[] {new Path("/out/src")}));
    same("snapshot s2", s -> s.admin().createSnapshot(new Path("/s"), "s2"));
    same("append to c again", s -> append(writer(s), "/s/c", bytes(200, 23)));
    same("truncate c", s -> truncate(s.admin(), "/s/c", 1000));
    same("truncate c again", s -> truncate(s.admin(), "/s/c", 10));
    same("append to r", s -> append(writer(s), "/s/r", bytes(50, 24)));
    // Deleted and overwritten: files neither changed nor renamed since s1 (a content summary
    // counts a changed one's length at its first version where HDFS takes its last, and a renamed
    // one once where HDFS counts its reference too: SnapshotContent).
    same("delete f", s -> s.admin().delete(new Path("/s/f"), false));
    same("overwrite k", s -> write(writer(s), "/s/k", bytes(3000, 25)));

    same("read a missing file at s1", s -> read(writer(s), "/s/.snapshot/s1/none"));
    same("read a directory at s1", s -> read(writer(s), "/s/.snapshot/s1"));
    String here = trees(both.hopsSide.admin(), both.hopsSide.admin());
    Configuration there = both.through(both.other);
    there.setBoolean("fs.hdfs.impl.disable.cache", true);
    try (DistributedFileSystem stock = (DistributedFileSystem) FileSystem.get(there);
        FileSystem client = FileSystem.get(withHopsClient(there))) {
      assertThat(trees(stock, stock)).as("through the second namenode").isEqualTo(here);
      assertThat(trees(stock, client))
          .as("hops-client through the second namenode")
          .isEqualTo(here);
    }

    assertThat(dataIds()).as("data rows only the snapshots read").isNotEqualTo(liveDataIds());
    same("delete s1", s -> s.admin().deleteSnapshot(new Path("/s"), "s1"));
    HopsNameNode other = both.other;
    try (DistributedFileSystem second = both.hops.client(other)) {
      second.deleteSnapshot(new Path("/s"), "s2");
    }
    both.hdfsSide.admin().deleteSnapshot(new Path("/s"), "s2");
    long deadline = System.currentTimeMillis() + 60_000;
    while (!dataIds().equals(liveDataIds()) && System.currentTimeMillis() < deadline) {
      for (HopsNameNode nn : new HopsNameNode[] {both.hops.namenode(), other}) {
        nn.housekeeping().runOnce();
      }
      Thread.sleep(200);
    }
    assertThat(dataIds()).as("data rows once the snapshots are gone").isEqualTo(liveDataIds());
    try (var tx = both.hops.namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(SnapshotFileTailRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(ReleasedFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
    same("after the snapshots are deleted", s -> {});
  }

  /** The inode ids of the files in the database now, on the hops side. */
  private static Set<Long> liveDataIds() throws IOException {
    Set<Long> ids = new TreeSet<>();
    DistributedFileSystem fs = both.hopsSide.admin();
    for (FileStatus st : fs.listStatus(new Path("/s"))) {
      String path = st.getPath().toUri().getPath();
      if (st.getLen() > 0
          && SmallFilesTableFullTest.where(both.hops, fs, new Path(path)).equals("db")) {
        ids.add(fs.getClient().getFileInfo(path).getFileId());
      }
    }
    return ids;
  }

  /** The ids the small-file data rows of every tier are kept under. */
  private static Set<Long> dataIds() throws IOException {
    Set<Long> ids = new TreeSet<>();
    try (var tx = both.hops.namenode().namesystem().storage().begin()) {
      tx.scanAll(InMemoryFileDataRow.TABLE, LockMode.READ_COMMITTED)
          .forEach(r -> ids.add(r.inodeId()));
      tx.scanAll(OnDiskSmallFileDataRow.TABLE, LockMode.READ_COMMITTED)
          .forEach(r -> ids.add(r.inodeId()));
      tx.scanAll(OnDiskMediumFileDataRow.TABLE, LockMode.READ_COMMITTED)
          .forEach(r -> ids.add(r.inodeId()));
      tx.scanAll(OnDiskLargeFileDataRow.TABLE, LockMode.READ_COMMITTED)
          .forEach(r -> ids.add(r.inodeId()));
    }
    return ids;
  }
}
