package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.concat;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.read;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.truncate;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Truncating and concatenating files renamed after a snapshot had them (HDFS's WithName
 * references), against hops and Apache HDFS in the same run: renamed inside the snapshottable
 * directory, out of it, and after an append that the snapshot does not have; truncated inside a
 * block, on a boundary and again after the same snapshot. The snapshot reads each file as it was
 * (also through hops's second namenode), the quota usage above is HDFS's while it can be compared,
 * and a renamed source of a concat is refused while a snapshot has it under its old name and
 * accepted once none does, as in HDFS (docs/architecture.md, "Snapshots", "Truncate and append").
 */
class SnapshotRenamedTruncateLikeHdfsTest {
  private static final long BLOCK = 1024;

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () ->
              SideBySide.start(
                  "snapshot-renamed-truncate",
                  SnapshotKeptBlocks.roundsWhenAskedWithBlocksOf(BLOCK),
                  1));

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void renamedFilesTruncateBelowTheSnapshotAndConcatAsInHdfs() throws Exception {
    List<String> hdfsView = history(both.hdfsSide().admin(), false);
    DistributedFileSystem hops = both.hopsSide().admin();
    List<String> hopsView = history(hops, true);
    for (int i = 0; i < Math.min(hopsView.size(), hdfsView.size()); i++) {
      assertThat(hopsView.get(i)).as("line " + i + " of the history").isEqualTo(hdfsView.get(i));
    }
    assertThat(hopsView).hasSameSizeAs(hdfsView);
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
    hops.delete(p("/rt"), true);
    try (var tx = both.hops().namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotEarlierEntryRow.TABLE, LockMode.READ_COMMITTED))
          .as("earlier entries, gone with their files")
          .isEmpty();
    }
  }

  /**
   * A file not renamed itself, below a directory renamed inside the snapshottable directory after
   * the snapshot: its truncates keep what the snapshot reads, found through the directory's entry.
   */
  @Test
  void aFileBelowARenamedDirectoryTruncatesBelowTheSnapshotAsInHdfs() throws Exception {
    List<String> hdfsView = belowRenamed(both.hdfsSide().admin());
    List<String> hopsView = belowRenamed(both.hopsSide().admin());
    for (int i = 0; i < Math.min(hopsView.size(), hdfsView.size()); i++) {
      assertThat(hopsView.get(i)).as("line " + i + " of the history").isEqualTo(hdfsView.get(i));
    }
    assertThat(hopsView).hasSameSizeAs(hdfsView);
    assertThat(hopsView).contains("x/f at s0: " + text("xf", 3500));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  private static List<String> belowRenamed(DistributedFileSystem fs) throws Exception {
    String d = "/rd/d";
    fs.mkdirs(p(d + "/x/z"));
    write(fs, d + "/x/f", text("xf", 3500));
    write(fs, d + "/x/z/g", text("zg", 2500));
    fs.allowSnapshot(p(d));
    fs.createSnapshot(p(d), "s0");
    List<String> out = new ArrayList<>();
    Runnable view =
        () -> {
          out.add("x/f at s0: " + read(fs, d + "/.snapshot/s0/x/f"));
          out.add("x/z/g at s0: " + read(fs, d + "/.snapshot/s0/x/z/g"));
          out.add("y/f: " + read(fs, d + "/y/f"));
          out.add("y/w/g: " + read(fs, d + "/y/w/g"));
        };
    out.add("rename x: " + fs.rename(p(d + "/x"), p(d + "/y")));
    out.add("rename z: " + fs.rename(p(d + "/y/z"), p(d + "/y/w")));
    out.add("truncate y/f inside a block: " + truncate(fs, d + "/y/f", 1500));
    out.add("truncate y/w/g on a boundary: " + truncate(fs, d + "/y/w/g", 1024));
    view.run();
    out.add("truncate y/f on a boundary: " + truncate(fs, d + "/y/f", 1024));
    view.run();
    fs.deleteSnapshot(p(d), "s0");
    view.run();
    fs.delete(p("/rd"), true);
    return out;
  }

  /**
   * The history on one side: what each step returned, and what every path reads after it; on hops
   * ({@code onHops}) the snapshot is also read through the second namenode before it goes.
   */
  private static List<String> history(DistributedFileSystem fs, boolean onHops) throws Exception {
    String root = "/rt";
    String d = root + "/d";
    String o = root + "/o";
    fs.mkdirs(p(d));
    fs.mkdirs(p(o));
    fs.setQuota(p(root), 1000, 1L << 30);
    fs.allowSnapshot(p(d));
    fs.createSnapshot(p(d), "before");
    write(fs, d + "/f", text("f", 3500)); // blocks of 1024, 1024, 1024 and 428 bytes
    write(fs, d + "/g", text("g", 2500));
    write(fs, d + "/h", text("h", 2000));
    write(fs, d + "/c", text("c", 1500));
    write(fs, d + "/t", text("t", 700));
    fs.createSnapshot(p(d), "s0");
    List<String> out = new ArrayList<>();
    Runnable view =
        () -> {
          // g, renamed out of the snapshottable directory and truncated, is read at s0 on hops
          // only:
          // HDFS 3.5.0 fails that read ("Index 3 out of bounds for length 3").
          for (String f : List.of("f", "h")) {
            out.add(f + " at s0: " + read(fs, d + "/.snapshot/s0/" + f));
          }
          for (String f : List.of(d + "/f2", o + "/g", d + "/h2", d + "/t")) {
            out.add(f + ": " + read(fs, f));
          }
        };
    view.run();
    out.add("rename f: " + fs.rename(p(d + "/f"), p(d + "/f2")));
    out.add("truncate f2 inside a block: " + truncate(fs, d + "/f2", 1500));
    view.run();
    out.add("usage: " + usage(fs, root));
    out.add("rename g out: " + fs.rename(p(d + "/g"), p(o + "/g")));
    out.add("truncate g inside a block: " + truncate(fs, o + "/g", 1300));
    view.run();
    out.add("usage: " + usage(fs, root));
    // Until s0 goes the usage differs here (docs/architecture.md, "Quota usage of what snapshots
    // keep"): a file appended after a snapshot and then renamed stays charged on the source side at
    // its length at the snapshot in HDFS, at its current one in hops; and HDFS's first truncate
    // after the snapshot keeps every block the file has then, appended ones too (FileDiffList
    // saveSelf2Snapshot with blocks), where hops keeps what the snapshot reads.
    try (FSDataOutputStream a = fs.append(p(d + "/h"))) {
      a.writeBytes(text("more", 1200));
    }
    out.add("rename h: " + fs.rename(p(d + "/h"), p(d + "/h2")));
    out.add("truncate h2 below the snapshot: " + truncate(fs, d + "/h2", 500));
    view.run();
    out.add("truncate f2 again, on a boundary: " + truncate(fs, d + "/f2", 1024));
    view.run();
    out.add("and inside the first block: " + truncate(fs, d + "/f2", 100));
    view.run();
    out.add("rename c: " + fs.rename(p(d + "/c"), p(d + "/c2")));
    out.add("concat of c2 while s0 has c: " + concat(fs, d + "/t", d + "/c2"));
    if (onHops) {
      // The other namenode reads the snapshot as it was.
      try (DistributedFileSystem other = both.hops().client(both.other())) {
        assertThat(read(other, d + "/.snapshot/s0/f")).isEqualTo(text("f", 3500));
        assertThat(read(other, d + "/.snapshot/s0/g")).isEqualTo(text("g", 2500));
        assertThat(read(other, d + "/.snapshot/s0/h")).isEqualTo(text("h", 2000));
        assertThat(read(fs, d + "/.snapshot/s0/g")).isEqualTo(text("g", 2500));
      }
    }
    fs.deleteSnapshot(p(d), "s0");
    // Not compared from here: HDFS 3.5.0's usage of /rt is then negative (ds=-9223372036854771255).
    out.add("concat of c2 once no snapshot has c: " + concat(fs, d + "/t", d + "/c2"));
    out.add("t: " + read(fs, d + "/t"));
    return out;
  }

  private static String usage(DistributedFileSystem fs, String path) {
    try {
      QuotaUsage u = fs.getQuotaUsage(p(path));
      return "ns=" + u.getFileAndDirectoryCount() + " ds=" + u.getSpaceConsumed();
    } catch (IOException e) {
      return SideBySide.failure(e);
    }
  }

  private static void write(DistributedFileSystem fs, String path, String data) throws IOException {
    try (FSDataOutputStream out = fs.create(p(path), true, 4096, (short) 1, BLOCK)) {
      out.writeBytes(data);
    }
  }
}
