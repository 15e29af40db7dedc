package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A store upgraded from before schema version 12 with snapshots on (docs/architecture.md,
 * "Snapshots", "Reclaiming versions"): its versions have no log row, so neither the snapshots the
 * old release deleted nor those deleted after the upgrade reclaimed them. The upgrade's walk
 * deletes those no snapshot reads and logs the others under their directory, whose next {@code
 * deleteSnapshot} reclaims them; what the remaining snapshot reads is unchanged.
 */
class SnapshotReclaimAfterUpgradeTest {
  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void theUpgradeDeletesTheVersionsNoSnapshotReadsAndLogsTheOthers() throws Exception {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.set(HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(HopsConfig.EMBEDDED_DIR, "mem:reclaim-upgrade-" + System.nanoTime());
    conf.setLong(HopsConfig.ELECTION_PERIOD_MS, 200);
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      DistributedFileSystem fs = cluster.client();
      Storage storage = cluster.namenode().namesystem().storage();
      fs.mkdirs(p("/d/sub"));
      for (int i = 1; i <= 5; i++) {
        fs.create(p("/d/f" + i)).close();
      }
      fs.allowSnapshot(p("/d"));
      fs.createSnapshot(p("/d"), "s1");
      for (int i = 1; i <= 5; i++) {
        fs.setPermission(p("/d/f" + i), new FsPermission((short) 0600));
      }
      fs.createSnapshot(p("/d"), "s2");
      for (int i = 1; i <= 3; i++) {
        fs.setPermission(p("/d/f" + i), new FsPermission((short) 0640));
      }
      fs.delete(p("/d/f4"), false);
      long dirId = idOf(fs, "/d");
      // As the release before the log wrote them: no log row, and its deleteSnapshot reclaimed
      // nothing.
      dropLog(storage);
      fs.deleteSnapshot(p("/d"), "s1");
      SnapshotTestFiles.awaitReclaims(cluster.namenode());
      assertThat(versions(storage)).as("versions before the upgrade").hasSize(5 + 4);
      List<String> atS2 = listing(fs, "/d/.snapshot/s2");

      setSchemaVersion(storage, 11);
      cluster.namenode().close();
      HopsNameNode upgrader = HopsNameNode.start(conf);
      storage = upgrader.namesystem().storage();
      try {
        List<InodeVersionRow> left = versions(storage);
        assertThat(left).as("versions s2 reads").hasSize(4).allMatch(v -> v.snapshotId() > 1);
        assertThat(logRows(storage))
            .as("their log rows")
            .hasSize(4)
            .allMatch(r -> r.dirId() == dirId);
        DistributedFileSystem viaUpgrader = cluster.client(upgrader);
        assertThat(listing(viaUpgrader, "/d/.snapshot/s2")).isEqualTo(atS2);

        viaUpgrader.deleteSnapshot(p("/d"), "s2");
        SnapshotTestFiles.awaitReclaims(upgrader);
        assertThat(versions(storage)).as("versions after the last snapshot").isEmpty();
        assertThat(logRows(storage)).isEmpty();
      } finally {
        upgrader.close();
      }
    }
  }

  private static long idOf(DistributedFileSystem fs, String path) throws Exception {
    return ((org.apache.hadoop.hdfs.protocol.HdfsFileStatus) fs.getFileStatus(p(path))).getFileId();
  }

  private static List<String> listing(DistributedFileSystem fs, String dir) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus s : SnapshotTestFiles.sorted(fs.listStatus(p(dir)))) {
      out.add(SnapshotTestFiles.line(s, dir + "/" + s.getPath().getName()));
    }
    return out;
  }

  private static List<InodeVersionRow> versions(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(InodeVersionRow.TABLE, LockMode.READ_COMMITTED);
    }
  }

  /** The log rows, pending ones left out. */
  private static List<SnapshotVersionLogRow> logRows(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(SnapshotVersionLogRow.TABLE, LockMode.READ_COMMITTED).stream()
          .filter(r -> r.dirId() != SnapshotVersionLogRow.PENDING)
          .toList();
    }
  }

  private static void dropLog(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      for (SnapshotVersionLogRow r :
          tx.scanAll(SnapshotVersionLogRow.TABLE, LockMode.READ_COMMITTED)) {
        tx.delete(SnapshotVersionLogRow.TABLE, r);
      }
      tx.commit();
    }
  }

  private static void setSchemaVersion(Storage storage, long version) throws Exception {
    try (Transaction tx = storage.begin()) {
      tx.update(VariableRow.TABLE, new VariableRow("schema_version", version, null));
      tx.commit();
    }
  }
}
