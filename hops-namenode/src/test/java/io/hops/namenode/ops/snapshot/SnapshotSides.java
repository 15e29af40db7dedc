package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digestOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySideExtension;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/** What the side-by-side snapshot tests share: a step run on both systems, reads compared. */
final class SnapshotSides {
  private SnapshotSides() {}

  /** A step of a history, run on one system's client. */
  @FunctionalInterface
  interface FsStep {
    void run(DistributedFileSystem fs) throws Exception;
  }

  /** Runs {@code step} on hops, then on HDFS. */
  static void bothSides(SideBySideExtension both, FsStep step) throws Exception {
    step.run(both.hopsSide().admin());
    step.run(both.hdfsSide().admin());
  }

  /** Each path reads the same bytes (or fails the same way) on both systems. */
  static void assertReadsAlike(SideBySideExtension both, String... paths) {
    for (String path : paths) {
      assertThat(digestOf(both.hopsSide().admin(), path))
          .as(path)
          .isEqualTo(digestOf(both.hdfsSide().admin(), path));
    }
  }
}
