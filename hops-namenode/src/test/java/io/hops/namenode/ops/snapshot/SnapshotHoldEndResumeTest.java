package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.security.PermissionChecker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.junit.jupiter.api.Test;

/**
 * A hold's end cut short (docs/architecture.md, "Snapshots", "A hold's end"): directory {@code t}
 * is moved out of {@code a}'s snapshot into {@code b}, which then takes one, and every file below
 * it is deleted, so that they are kept past its hold in its partition, charged to {@code b}'s
 * quota. The namenode that deletes {@code a}'s snapshot runs the hold's first batch and stops; the
 * leader moves the rest to {@code b}'s partition from the pending row, nothing is released while
 * {@code b}'s snapshot reads them, and {@code b}'s deletion of it releases every block and takes
 * the usage off.
 */
class SnapshotHoldEndResumeTest {
  /** Kept files per release transaction: max-rows / 8. */
  private static final int BATCH = 5;

  private static final int FILES = 13;

  /** Usage rows per kept file: one for each directory above it but the root (b and t). */
  private static final int CHARGED_DIRS = 2;

  @Test
  void theLeaderMovesTheFilesKeptPastAHoldToTheirHeirWhenItsNamenodeStops() throws Exception {
    try (HopsTestCluster cluster =
        new HopsTestCluster(SnapshotTestFiles.releasedInBatchesOf(BATCH))) {
      cluster.startDatanodes(1);
      Storage storage = cluster.namenode().namesystem().storage();
      DistributedFileSystem fs = cluster.client();
      fs.mkdirs(new Path("/a/t"));
      fs.mkdirs(new Path("/b"));
      fs.setQuota(new Path("/b"), 1000, 1L << 30);
      List<LocatedBlock> blocks =
          SnapshotTestFiles.writeFiles(fs, "/a/t", FILES, SnapshotHoldEndResumeTest::bytesOf);
      fs.allowSnapshot(new Path("/a"));
      fs.allowSnapshot(new Path("/b"));
      fs.createSnapshot(new Path("/a"), "s0");
      fs.rename(new Path("/a/t"), new Path("/b/t"));
      fs.createSnapshot(new Path("/b"), "s1");
      for (int i = 0; i < FILES; i++) {
        fs.delete(new Path("/b/t/f" + i), false);
      }
      long a = idOf(fs, "/a");
      long b = idOf(fs, "/b");
      long t = idOf(fs, "/b/t");
      assertThat(keptIn(storage, t)).as("kept past the hold").isEqualTo(FILES);
      assertThat(usageIn(storage, t)).isEqualTo(FILES * CHARGED_DIRS);
      assertThat(fs.getQuotaUsage(new Path("/b")).getFileAndDirectoryCount())
          .as("charged while b's snapshot has them")
          .isEqualTo(FILES + 2);

      // a's deleteSnapshot commits and finds the hold due; its namenode clears the hold (the
      // first batch of t's partition) and stops there.
      Namesystem ns = cluster.namenode().namesystem();
      PermissionChecker superuser = ns.checkers().ofSuperuser();
      ns.runner().run(() -> new DeleteSnapshot(superuser, "/a", "s0"));
      SnapshotKeptFileRow hold = holdOf(storage, t);
      assertThat(hold.dirId()).isEqualTo(a);
      ns.runner().run(() -> new ClearHold(hold));
      assertThat(keptIn(storage, t)).as("left after the first batch").isEqualTo(FILES - BATCH);
      assertThat(keptIn(storage, b)).as("moved by it").isEqualTo(BATCH);
      assertThat(pending(storage)).as("the release's pending row").contains("kept " + t);

      long deadline = System.currentTimeMillis() + 60_000;
      while ((keptIn(storage, t) > 0 || !pending(storage).isEmpty())
          && System.currentTimeMillis() < deadline) {
        cluster.namenode().housekeeping().runOnce();
        Thread.sleep(200);
      }
      assertThat(keptIn(storage, t)).as("left in the held partition").isZero();
      assertThat(usageIn(storage, t)).isZero();
      assertThat(keptIn(storage, b)).as("kept for b's snapshot").isEqualTo(FILES);
      assertThat(usageIn(storage, b)).isEqualTo(FILES * CHARGED_DIRS);
      assertThat(pending(storage)).isEmpty();
      assertThat(rows(storage, ReleasedFileRow.TABLE)).isEmpty();
      for (int i = 0; i < 3; i++) {
        cluster.namenode().housekeeping().runOnce();
      }
      assertThat(stored(cluster, blocks)).as("blocks b's snapshot reads").doesNotContain(false);
      for (int i = 0; i < FILES; i++) {
        assertThat(readAll(fs, "/b/.snapshot/s1/t/f" + i)).isEqualTo(bytesOf(i));
      }
      assertThat(fs.getQuotaUsage(new Path("/b")).getFileAndDirectoryCount()).isEqualTo(FILES + 2);

      fs.deleteSnapshot(new Path("/b"), "s1");
      deadline = System.currentTimeMillis() + 60_000;
      while (stored(cluster, blocks).contains(true) && System.currentTimeMillis() < deadline) {
        cluster.namenode().housekeeping().runOnce();
        Thread.sleep(200);
      }
      assertThat(stored(cluster, blocks)).as("a kept block on the datanode").doesNotContain(true);
      assertThat(rows(storage, SnapshotKeptFileRow.TABLE)).as("kept files").isEmpty();
      assertThat(rows(storage, SnapshotKeptUsageRow.TABLE)).as("kept usage").isEmpty();
      assertThat(rows(storage, ReleasedFileRow.TABLE)).as("released files").isEmpty();
      assertThat(fs.getQuotaUsage(new Path("/b")).getFileAndDirectoryCount()).isEqualTo(2);
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
    }
  }

  /**
   * As above, with {@code t} moved to the plain {@code o} and the files below a directory {@code
   * t/s} made snapshottable there, whose snapshot {@code t1} has them when they are deleted: the
   * leader hands the rest of them (and their usage, and the versions {@code t1} reads) to {@code
   * s}, whose deletion of {@code t1} then releases every block and takes the usage off.
   */
  @Test
  void theLeaderHandsTheFilesKeptBelowAnInnerSnapshottableDirectoryToItWhenItsNamenodeStops()
      throws Exception {
    try (HopsTestCluster cluster =
        new HopsTestCluster(SnapshotTestFiles.releasedInBatchesOf(BATCH))) {
      cluster.startDatanodes(1);
      Storage storage = cluster.namenode().namesystem().storage();
      DistributedFileSystem fs = cluster.client();
      fs.mkdirs(new Path("/a/t/s"));
      fs.mkdirs(new Path("/o"));
      fs.setQuota(new Path("/o"), 1000, 1L << 30);
      List<LocatedBlock> blocks =
          SnapshotTestFiles.writeFiles(fs, "/a/t/s", FILES, SnapshotHoldEndResumeTest::bytesOf);
      fs.allowSnapshot(new Path("/a"));
      fs.createSnapshot(new Path("/a"), "s0");
      fs.rename(new Path("/a/t"), new Path("/o/t"));
      fs.allowSnapshot(new Path("/o/t/s"));
      fs.createSnapshot(new Path("/o/t/s"), "t1");
      for (int i = 0; i < FILES; i++) {
        fs.delete(new Path("/o/t/s/f" + i), false);
      }
      long t = idOf(fs, "/o/t");
      long inner = idOf(fs, "/o/t/s");
      assertThat(keptIn(storage, t)).as("kept in the held partition").isEqualTo(FILES);
      assertThat(fs.getQuotaUsage(new Path("/o")).getFileAndDirectoryCount()).isEqualTo(FILES + 3);

      Namesystem ns = cluster.namenode().namesystem();
      PermissionChecker superuser = ns.checkers().ofSuperuser();
      ns.runner().run(() -> new DeleteSnapshot(superuser, "/a", "s0"));
      SnapshotKeptFileRow hold = holdOf(storage, t);
      ns.runner().run(() -> new ClearHold(hold));
      assertThat(keptIn(storage, t)).as("left after the first batch").isEqualTo(FILES - BATCH);
      assertThat(keptIn(storage, inner)).as("handed by it").isEqualTo(BATCH);
      assertThat(pending(storage)).contains("kept " + t);

      long deadline = System.currentTimeMillis() + 60_000;
      while ((keptIn(storage, t) > 0
              || !pending(storage).isEmpty()
              || rows(storage, SnapshotVersionLogRow.TABLE).stream()
                  .anyMatch(r -> r.dirId() == SnapshotVersionLogRow.PENDING))
          && System.currentTimeMillis() < deadline) {
        cluster.namenode().housekeeping().runOnce();
        Thread.sleep(200);
      }
      assertThat(keptIn(storage, t)).as("left in the held partition").isZero();
      assertThat(usageIn(storage, t)).isZero();
      assertThat(keptIn(storage, inner)).as("kept for t1").isEqualTo(FILES);
      assertThat(rows(storage, ReleasedFileRow.TABLE)).isEmpty();
      for (int i = 0; i < 3; i++) {
        cluster.namenode().housekeeping().runOnce();
      }
      assertThat(stored(cluster, blocks)).as("blocks t1 reads").doesNotContain(false);
      for (int i = 0; i < FILES; i++) {
        assertThat(readAll(fs, "/o/t/s/.snapshot/t1/f" + i)).isEqualTo(bytesOf(i));
      }
      assertThat(fs.getQuotaUsage(new Path("/o")).getFileAndDirectoryCount())
          .as("charged while t1 has them")
          .isEqualTo(FILES + 3);

      fs.deleteSnapshot(new Path("/o/t/s"), "t1");
      deadline = System.currentTimeMillis() + 60_000;
      while (stored(cluster, blocks).contains(true) && System.currentTimeMillis() < deadline) {
        cluster.namenode().housekeeping().runOnce();
        Thread.sleep(200);
      }
      assertThat(stored(cluster, blocks)).as("a kept block on the datanode").doesNotContain(true);
      assertThat(rows(storage, SnapshotKeptFileRow.TABLE)).as("kept files").isEmpty();
      assertThat(rows(storage, SnapshotKeptUsageRow.TABLE)).as("kept usage").isEmpty();
      assertThat(rows(storage, ReleasedFileRow.TABLE)).as("released files").isEmpty();
      assertThat(fs.getQuotaUsage(new Path("/o")).getFileAndDirectoryCount()).isEqualTo(3);
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
    }
  }

  private static byte[] bytesOf(int i) {
    byte[] out = new byte[100 + i];
    Arrays.fill(out, (byte) ('a' + i));
    return out;
  }

  private static byte[] readAll(DistributedFileSystem fs, String path) throws Exception {
    try (FSDataInputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  private static long idOf(DistributedFileSystem fs, String path) throws Exception {
    return ((HdfsFileStatus) fs.getFileStatus(new Path(path))).getFileId();
  }

  private static SnapshotKeptFileRow holdOf(Storage storage, long dir) throws Exception {
    return rows(storage, SnapshotKeptFileRow.TABLE).stream()
        .filter(r -> r.inodeId() == -dir)
        .findFirst()
        .orElseThrow();
  }

  private static long keptIn(Storage storage, long dir) throws Exception {
    return rows(storage, SnapshotKeptFileRow.TABLE).stream()
        .filter(r -> r.dirId() == dir && !r.isHold())
        .count();
  }

  private static long usageIn(Storage storage, long dir) throws Exception {
    return rows(storage, SnapshotKeptUsageRow.TABLE).stream().filter(r -> r.dirId() == dir).count();
  }

  /** The pending rows of kept-file releases, as "kept dir". */
  private static List<String> pending(Storage storage) throws Exception {
    return rows(storage, SnapshotVersionLogRow.TABLE).stream()
        .filter(r -> r.dirId() == SnapshotVersionLogRow.PENDING && r.name().equals("kept"))
        .map(r -> "kept " + r.pendingDir())
        .toList();
  }

  private static List<Boolean> stored(HopsTestCluster cluster, List<LocatedBlock> blocks)
      throws Exception {
    List<Boolean> out = new ArrayList<>();
    for (LocatedBlock b : blocks) {
      boolean any = false;
      for (DataNode dn : cluster.datanodes()) {
        try {
          any |=
              dn.getFSDataset()
                      .getStoredBlock(b.getBlock().getBlockPoolId(), b.getBlock().getBlockId())
                  != null;
        } catch (ReplicaNotFoundException gone) {
          // deleted
        }
      }
      out.add(any);
    }
    return out;
  }

  private static <R extends Record> List<R> rows(Storage storage, io.hops.dal.schema.Table<R> table)
      throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(table, LockMode.READ_COMMITTED);
    }
  }
}
