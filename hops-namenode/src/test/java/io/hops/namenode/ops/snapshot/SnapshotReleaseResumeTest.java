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
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.junit.jupiter.api.Test;

/**
 * A release of kept files cut short: the namenode that deletes a directory's last snapshot stops
 * after the call's transaction, with more kept files than its first batch left; the leader releases
 * the rest from the pending row the call wrote (docs/architecture.md, "Snapshots", "Release"),
 * blocks and quota usage alike.
 */
class SnapshotReleaseResumeTest {
  /** Kept files per release transaction: max-rows / 8. */
  private static final int BATCH = 5;

  private static final int FILES = 23;

  @Test
  void theLeaderFinishesAReleaseOfKeptFilesItsNamenodeLeft() throws Exception {
    try (HopsTestCluster cluster =
        new HopsTestCluster(SnapshotTestFiles.releasedInBatchesOf(BATCH))) {
      cluster.startDatanodes(1);
      Storage storage = cluster.namenode().namesystem().storage();
      DistributedFileSystem fs = cluster.client();
      fs.mkdirs(new Path("/d"));
      fs.setQuota(new Path("/d"), 1000, 1L << 30);
      List<LocatedBlock> blocks =
          SnapshotTestFiles.writeFiles(fs, "/d", FILES, i -> new byte[] {(byte) i});
      fs.allowSnapshot(new Path("/d"));
      fs.createSnapshot(new Path("/d"), "s0");
      for (int i = 0; i < FILES; i++) {
        fs.delete(new Path("/d/f" + i), false);
      }
      assertThat(rows(storage, SnapshotKeptFileRow.class)).hasSize(FILES);
      assertThat(fs.getQuotaUsage(new Path("/d")).getFileAndDirectoryCount())
          .as("charged while the snapshot has them")
          .isEqualTo(FILES + 1);

      // The delete's transaction commits its first batch; its namenode runs nothing after it.
      Namesystem ns = cluster.namenode().namesystem();
      PermissionChecker superuser = ns.checkers().ofSuperuser();
      ns.runner().run(() -> new DeleteSnapshot(superuser, "/d", "s0"));
      assertThat(rows(storage, SnapshotKeptFileRow.class)).hasSize(FILES - BATCH);
      assertThat(rows(storage, SnapshotVersionLogRow.class))
          .as("the release's pending row")
          .anyMatch(
              r ->
                  ((SnapshotVersionLogRow) r).dirId() == SnapshotVersionLogRow.PENDING
                      && ((SnapshotVersionLogRow) r).name().equals("kept"));

      // The leader takes it over when it sees it two rounds in a row.
      long deadline = System.currentTimeMillis() + 60_000;
      while ((!rows(storage, SnapshotKeptFileRow.class).isEmpty() || stored(cluster, blocks))
          && System.currentTimeMillis() < deadline) {
        cluster.namenode().housekeeping().runOnce();
        Thread.sleep(200);
      }
      assertThat(rows(storage, SnapshotKeptFileRow.class)).as("kept files").isEmpty();
      assertThat(rows(storage, SnapshotKeptUsageRow.class)).as("kept usage").isEmpty();
      assertThat(rows(storage, SnapshotVersionLogRow.class)).as("log and pending rows").isEmpty();
      assertThat(rows(storage, ReleasedFileRow.class)).as("released files").isEmpty();
      assertThat(stored(cluster, blocks)).as("a kept block on the datanode").isFalse();
      assertThat(fs.getQuotaUsage(new Path("/d")).getFileAndDirectoryCount()).isEqualTo(1);
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
    }
  }

  private static boolean stored(HopsTestCluster cluster, List<LocatedBlock> blocks)
      throws Exception {
    for (LocatedBlock b : blocks) {
      for (DataNode dn : cluster.datanodes()) {
        try {
          if (dn.getFSDataset()
                  .getStoredBlock(b.getBlock().getBlockPoolId(), b.getBlock().getBlockId())
              != null) {
            return true;
          }
        } catch (ReplicaNotFoundException gone) {
          // deleted
        }
      }
    }
    return false;
  }

  private static List<?> rows(Storage storage, Class<?> row) throws Exception {
    try (Transaction tx = storage.begin()) {
      if (row == SnapshotKeptFileRow.class) {
        return tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED);
      } else if (row == SnapshotKeptUsageRow.class) {
        return tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED);
      } else if (row == ReleasedFileRow.class) {
        return tx.scanAll(ReleasedFileRow.TABLE, LockMode.READ_COMMITTED);
      }
      return tx.scanAll(SnapshotVersionLogRow.TABLE, LockMode.READ_COMMITTED);
    }
  }
}
