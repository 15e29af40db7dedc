package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.security.PermissionChecker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A reclaim of snapshot versions whose namenode stops after the {@code deleteSnapshot} commits and
 * before its batches run is finished by the leader from the pending row (docs/architecture.md,
 * "Snapshots", "Reclaiming versions").
 */
class SnapshotReclaimResumeTest {
  @Test
  void theLeaderFinishesAReclaimItsNamenodeLeftAfterTheDelete() throws Exception {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 200);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      Storage storage = cluster.namenode().namesystem().storage();
      DistributedFileSystem fs = cluster.client();
      tenFilesChangedAfterS0(fs);
      assertThat(count(storage, InodeVersionRow.class)).isEqualTo(10);

      // The delete's transaction commits; the batches after it never run on its namenode.
      Namesystem ns = cluster.namenode().namesystem();
      PermissionChecker superuser = ns.checkers().ofSuperuser();
      ns.runner().run(() -> new DeleteSnapshot(superuser, "/d", "s0"));

      long deadline = System.currentTimeMillis() + 30_000;
      while (count(storage, SnapshotVersionLogRow.class) > 0
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
      assertThat(count(storage, SnapshotVersionLogRow.class)).as("log and pending rows").isZero();
      assertThat(count(storage, InodeVersionRow.class)).isZero();
      assertThat(fs.listStatus(new Path("/d"))).hasSize(10);
    }
  }

  @Test
  void deleteSnapshotAnswersBeforeItsReclaimWhichTheLeaderTakesOverWhenItsNamenodeDropsIt()
      throws Exception {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      Storage storage = cluster.namenode().namesystem().storage();
      DistributedFileSystem fs = cluster.client();
      tenFilesChangedAfterS0(fs);
      // The namenode's reclaim thread stops (as at a shutdown): the call still answers, with the
      // versions and the pending row left, and the leader finishes from the row.
      cluster.namenode().namesystem().snapshotReclaims().stop();
      fs.deleteSnapshot(new Path("/d"), "s0");
      assertThat(count(storage, InodeVersionRow.class)).as("versions at the answer").isEqualTo(10);
      assertThat(count(storage, SnapshotVersionLogRow.class))
          .as("log and pending rows")
          .isEqualTo(11);

      cluster.namenode().housekeeping().runOnce();
      cluster.namenode().housekeeping().runOnce();
      assertThat(count(storage, SnapshotVersionLogRow.class)).as("log and pending rows").isZero();
      assertThat(count(storage, InodeVersionRow.class)).isZero();
      assertThat(fs.listStatus(new Path("/d"))).hasSize(10);
    }
  }

  /**
   * The latest snapshot deleted while an older one remains: changes then write versions at its id
   * that no snapshot reads. The next snapshot's creation starts their reclaim; its namenode drops
   * it, and the leader judges them from the pending row: each file keeps only the version s0 reads.
   */
  @Test
  void aSnapshotTakenAfterTheLatestWasDeletedStartsTheReclaimOfItsIdWhichTheLeaderFinishes()
      throws Exception {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      Storage storage = cluster.namenode().namesystem().storage();
      DistributedFileSystem fs = cluster.client();
      tenFilesChangedAfterS0(fs);
      FsPermission atS0 = fs.getFileStatus(new Path("/d/.snapshot/s0/f0")).getPermission();
      fs.createSnapshot(new Path("/d"), "s1");
      fs.deleteSnapshot(new Path("/d"), "s1");
      SnapshotTestFiles.awaitReclaims(cluster.namenode());
      for (int i = 0; i < 10; i++) {
        fs.setPermission(new Path("/d/f" + i), new FsPermission((short) 0640));
      }
      assertThat(count(storage, InodeVersionRow.class))
          .as("versions at s0's id and at the deleted s1's")
          .isEqualTo(20);

      cluster.namenode().namesystem().snapshotReclaims().stop();
      fs.createSnapshot(new Path("/d"), "s2");
      assertThat(count(storage, InodeVersionRow.class)).as("versions at the answer").isEqualTo(20);
      cluster.namenode().housekeeping().runOnce();
      cluster.namenode().housekeeping().runOnce();
      assertThat(count(storage, InodeVersionRow.class)).as("the versions s0 reads").isEqualTo(10);
      assertThat(count(storage, SnapshotVersionLogRow.class)).as("their log rows").isEqualTo(10);
      for (int i = 0; i < 10; i++) {
        assertThat(fs.getFileStatus(new Path("/d/.snapshot/s0/f" + i)).getPermission())
            .isEqualTo(atS0);
        assertThat(fs.getFileStatus(new Path("/d/.snapshot/s2/f" + i)).getPermission())
            .isEqualTo(new FsPermission((short) 0640));
      }
    }
  }

  private static long count(Storage storage, Class<?> row) throws Exception {
    try (Transaction tx = storage.begin()) {
      return row == InodeVersionRow.class
          ? tx.scanAll(InodeVersionRow.TABLE, LockMode.READ_COMMITTED).size()
          : tx.scanAll(SnapshotVersionLogRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }

  /** Ten files in /d, snapshot s0 of it, then each file's mode changed: ten versions. */
  private static void tenFilesChangedAfterS0(DistributedFileSystem fs) throws Exception {
    for (int i = 0; i < 10; i++) {
      fs.createNewFile(new Path("/d/f" + i));
    }
    fs.allowSnapshot(new Path("/d"));
    fs.createSnapshot(new Path("/d"), "s0");
    for (int i = 0; i < 10; i++) {
      fs.setPermission(new Path("/d/f" + i), new FsPermission((short) 0600));
    }
  }
}
