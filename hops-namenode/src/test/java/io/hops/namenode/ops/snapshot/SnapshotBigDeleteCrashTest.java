package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.subtree.BulkTree;
import io.hops.namenode.subtree.Reclaims;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Namenodes that die in the middle of a big delete below a snapshot (docs/architecture.md,
 * "Snapshots", a big delete below a snapshot): the one that unlinked the subtree dies at once, the
 * one reclaiming it after its last snapshot went dies half-way; each time the namespace is
 * consistent (fsck-namespace clean), the snapshot reads the subtree while it has it, and the
 * surviving namenode finishes the reclaim. These namenodes delete big subtrees in place, except
 * below a snapshot. Over MariaDB when one is configured (HOPS_TEST_MYSQL_URL), else the embedded
 * engine.
 */
class SnapshotBigDeleteCrashTest {
  private static final int BOUND = 50;

  @Test
  void namenodesThatDieMidwayLeaveAConsistentNamespaceThatAnotherFinishes() throws Exception {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, BOUND);
    conf.setLong(HopsConfig.ELECTION_PERIOD_MS, 200);
    // The reclaims start when the test runs a sweep, on the namenode it chooses.
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    // Below a snapshot the subtree is detached and held even where deletes are done in place.
    conf.setBoolean(NamenodeConfig.SUBTREE_DELETE_IN_BACKGROUND, false);
    HopsTestCluster onMariadb = HopsTestCluster.onMariadbOrNull(conf);
    try (HopsTestCluster cluster = onMariadb != null ? onMariadb : new HopsTestCluster(conf)) {
      Storage storage = cluster.namenode().namesystem().storage();
      DistributedFileSystem fs = cluster.client();
      fs.mkdirs(new Path("/s/keep"));
      long before = rows(storage);
      int n = BulkTree.build(storage, fs, new Path("/s/t"), 10, 40);
      // A quota on the snapshottable directory: HDFS keeps the subtree charged there until the
      // snapshot goes, whatever dies meanwhile.
      fs.setQuota(new Path("/s"), 100_000, 1L << 40);
      assertThat(usage(fs)).isEqualTo(n + 2);
      fs.allowSnapshot(new Path("/s"));
      fs.createSnapshot(new Path("/s"), "s");

      // The namenode that unlinks the subtree dies right after its answer.
      HopsNameNode second = cluster.startAnotherNamenode();
      try (DistributedFileSystem fs2 = cluster.client(second)) {
        assertThat(fs2.delete(new Path("/s/t"), true)).isTrue();
      }
      second.crash();
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
      assertThat(usage(fs)).as("charged while the snapshot has it").isEqualTo(n + 2);
      assertThat(fs.exists(new Path("/s/t"))).isFalse();
      assertThat(fs.listStatus(new Path("/s/.snapshot/s/t"))).hasSize(10);
      assertThat(fs.listStatus(new Path("/s/.snapshot/s/t/d9"))).hasSize(40);
      assertThat(cluster.namenode().namesystem().subtrees().resumeReclaims())
          .as("a held subtree is not reclaimed")
          .isZero();
      assertThat(rows(storage)).isEqualTo(before + n);

      // Its last snapshot goes; the namenode reclaiming the subtree dies half-way.
      HopsNameNode third = cluster.startAnotherNamenode();
      third
          .namesystem()
          .faults()
          .arm(Faults.Point.SUBTREE_STEP, Faults.delay(Duration.ofMillis(100)));
      try (DistributedFileSystem fs3 = cluster.client(third)) {
        fs3.deleteSnapshot(new Path("/s"), "s");
      }
      assertThat(third.namesystem().subtrees().resumeReclaims()).isEqualTo(1);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (rows(storage) > before + n - 20 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      third.crash();
      // A batch of the crashed namenode already sent to the database may still commit (a JDBC
      // commit in flight is not stopped): check once the rows stop changing.
      for (long seen = -1; seen != rows(storage); ) {
        seen = rows(storage);
        Thread.sleep(500);
      }
      assertThat(rows(storage)).isLessThan(before + n).isGreaterThan(before);
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
      // The snapshot's deletion took the subtree's charge off (HDFS's), whatever is left to
      // reclaim.
      assertThat(usage(fs)).as("HDFS's mid-reclaim: /s and /s/keep").isEqualTo(2);

      // The survivor's sweep takes the dead namenode's reclaim over once it is known dead.
      long t0 = System.nanoTime();
      while (!Reclaims.pending(storage).isEmpty() && System.nanoTime() < deadline) {
        cluster.namenode().namesystem().subtrees().resumeReclaims();
        Thread.sleep(200);
      }
      Reclaims.await(storage);
      System.out.printf(
          "snapshot big delete: the reclaim of a dead namenode finished %d ms after it died%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      assertThat(rows(storage)).isEqualTo(before);
      try (Transaction tx = storage.begin()) {
        assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
        assertThat(tx.scanAll(SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      }
      assertThat(usage(fs)).as("HDFS's: /s and /s/keep").isEqualTo(2);
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
      fs.close();
    }
  }

  private static long usage(DistributedFileSystem fs) throws Exception {
    return fs.getQuotaUsage(new Path("/s")).getFileAndDirectoryCount();
  }

  private static long rows(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(InodeRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }
}
