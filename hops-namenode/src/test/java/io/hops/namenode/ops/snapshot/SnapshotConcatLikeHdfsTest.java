package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.concat;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.read;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A concat whose source sits below a directory renamed since the latest snapshot, against hops and
 * Apache HDFS in the same run: renamed inside the snapshottable directory (HDFS's reference: the
 * snapshot has the source, so it is refused), two levels of such renames, renamed into it from a
 * plain directory (no snapshot has the source: accepted), the source renamed itself, and a file
 * created in a renamed directory after the snapshot. Every outcome is HDFS's, and the snapshot and
 * the live files read the same bytes on both (docs/architecture.md, "Snapshots").
 */
class SnapshotConcatLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-concat", SnapshotKeptBlocks.roundsWhenAsked(), 1));

  private static final String ROOT = "/sc";
  private static final String D = ROOT + "/d";
  private static final String O = ROOT + "/o";

  /** Every file, by its name at the snapshot and its current one. */
  private static final List<String> AT_SNAPSHOT =
      List.of("x/t", "x/f", "p/q/t", "p/q/f", "a/t", "a/f");

  private static final List<String> NOW =
      List.of(
          D + "/y/t",
          D + "/y/f",
          D + "/y/n",
          D + "/z/t",
          D + "/z/f",
          D + "/p2/q2/t",
          D + "/p2/q2/f",
          D + "/a/t",
          D + "/a/g");

  @Test
  void concatBelowRenamedDirectoriesIsRefusedOrAcceptedAsInHdfs() throws Exception {
    List<String> hdfs = history(both.hdfsSide().admin());
    List<String> hops = history(both.hopsSide().admin());
    for (int i = 0; i < Math.min(hops.size(), hdfs.size()); i++) {
      assertThat(hops.get(i)).as("line " + i + " of the history").isEqualTo(hdfs.get(i));
    }
    assertThat(hops).hasSameSizeAs(hdfs);
    // The snapshot still reads the source under its old directory.
    assertThat(read(both.hopsSide().admin(), D + "/.snapshot/s1/x/f")).isEqualTo(text("xf", 700));
    assertThat(SnapshotKeptBlocks.namespaceProblems(both.get())).isEmpty();
  }

  private static List<String> history(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p(D + "/x"));
    fs.mkdirs(p(D + "/p/q"));
    fs.mkdirs(p(D + "/a"));
    fs.mkdirs(p(O + "/z"));
    for (String f : AT_SNAPSHOT) {
      write(fs, D + "/" + f, text(f.replace("/", ""), 700));
    }
    write(fs, O + "/z/t", text("zt", 600));
    write(fs, O + "/z/f", text("zf", 600));
    fs.allowSnapshot(p(D));
    fs.createSnapshot(p(D), "s1");
    List<String> out = new ArrayList<>();
    out.add("rename x: " + fs.rename(p(D + "/x"), p(D + "/y")));
    out.add("rename p: " + fs.rename(p(D + "/p"), p(D + "/p2")));
    out.add("rename q: " + fs.rename(p(D + "/p2/q"), p(D + "/p2/q2")));
    out.add("rename z in: " + fs.rename(p(O + "/z"), p(D + "/z")));
    out.add("rename f: " + fs.rename(p(D + "/a/f"), p(D + "/a/g")));
    write(fs, D + "/y/n", text("yn", 500));
    out.add("below a renamed directory: " + concat(fs, D + "/y/t", D + "/y/f"));
    out.add("two levels: " + concat(fs, D + "/p2/q2/t", D + "/p2/q2/f"));
    out.add("renamed in from outside: " + concat(fs, D + "/z/t", D + "/z/f"));
    out.add("the source renamed: " + concat(fs, D + "/a/t", D + "/a/g"));
    out.add("created since: " + concat(fs, D + "/y/t", D + "/y/n"));
    for (String f : AT_SNAPSHOT) {
      out.add("s1/" + f + ": " + read(fs, D + "/.snapshot/s1/" + f));
    }
    for (String f : NOW) {
      out.add(f + ": " + read(fs, f));
    }
    return out;
  }

  private static Path p(String path) {
    return new Path(path);
  }
}
