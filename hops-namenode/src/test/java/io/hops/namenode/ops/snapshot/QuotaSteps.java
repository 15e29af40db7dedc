package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Steps of a side-by-side quota test: each runs alike on hops and HDFS and is followed by the quota
 * usage (and, if asked, the content summary) of the directories it names; the two histories so far
 * must be equal after every step.
 */
final class QuotaSteps {
  /** A step run alike on both sides; what it returns is part of the history. */
  @FunctionalInterface
  interface Step {
    Object run(DistributedFileSystem fs) throws Exception;
  }

  private final SideBySideExtension both;
  private final List<String> hops = new ArrayList<>();
  private final List<String> hdfs = new ArrayList<>();

  QuotaSteps(SideBySideExtension both) {
    this.both = both;
  }

  /**
   * Runs {@code s} on both sides, then records the usage of the directories {@code dirs}, and with
   * {@code summaries} their content summaries, and compares the histories.
   */
  void run(String name, String[] dirs, boolean summaries, Step s) throws Exception {
    for (SideBySide.Side side : List.of(both.hopsSide(), both.hdfsSide())) {
      DistributedFileSystem fs = side.admin();
      List<String> out = side == both.hopsSide() ? hops : hdfs;
      String outcome;
      try {
        outcome = "returned " + s.run(fs);
      } catch (Exception e) {
        outcome = SideBySide.failure(e);
      }
      out.add(name + ": " + outcome.replaceAll("hdfs://[^/]*", ""));
      for (String q : dirs) {
        try {
          out.add("  " + q + " usage " + figures(fs.getQuotaUsage(new Path(q))));
          if (summaries) {
            out.add(
                "  "
                    + q
                    + " summary "
                    + SnapshotTestFiles.figures(fs.getContentSummary(new Path(q))));
          }
        } catch (FileNotFoundException e) {
          out.add("  " + q + ": " + SideBySide.failure(e));
        }
      }
    }
    assertThat(String.join("\n", hops)).as(name).isEqualTo(String.join("\n", hdfs));
  }

  /** hops's history so far: per step its outcome's line, then one line per figure recorded. */
  List<String> hopsHistory() {
    return hops;
  }

  /** A directory's namespace and space usage, each with its quota. */
  static String figures(QuotaUsage u) {
    return "ns="
        + u.getFileAndDirectoryCount()
        + "/"
        + u.getQuota()
        + " ds="
        + u.getSpaceConsumed()
        + "/"
        + u.getSpaceQuota();
  }
}
