package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshotException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The snapshot tables and inode columns over MariaDB (HOPS_TEST_MYSQL_URL; skipped without one):
 * two namenodes over one database, each seeing at once what the other did.
 */
class SnapshotsOnMariadbTest {
  @Test
  void twoNamenodesShareSnapshotsOverMariadb() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, true);
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(conf);
    Assumptions.assumeTrue(cluster != null, "no MariaDB configured");
    try (cluster;
        HopsNameNode other = cluster.startAnotherNamenode();
        FileSystem viaOther = FileSystem.newInstance(otherConf(cluster, other))) {
      DistributedFileSystem first = cluster.client();
      DistributedFileSystem second = (DistributedFileSystem) viaOther;
      first.mkdirs(new Path("/m/d/sub"));
      first.allowSnapshot(new Path("/m/d"));
      assertThat(second.createSnapshot(new Path("/m/d"), "x")).hasToString("/m/d/.snapshot/x");
      // Changes through one namenode after the snapshot keep their versions (inode_versions):
      // the other reads the tree as it was.
      first.setPermission(new Path("/m/d/sub"), new FsPermission((short) 0700));
      first.createNewFile(new Path("/m/d/new"));
      assertThat(second.getFileStatus(new Path("/m/d/.snapshot/x/sub")).getPermission())
          .isEqualTo(new FsPermission((short) 0755));
      assertThat(second.listStatus(new Path("/m/d/.snapshot/x")))
          .extracting(st -> st.getPath().getName())
          .containsExactly("sub");
      assertThat(second.listStatus(new Path("/m/d"))).hasSize(2);
      assertThat(SnapshotsLikeHdfsTest.dirs(first.getSnapshottableDirListing()))
          .isEqualTo("/m/d " + owner(first) + " rwxr-xr-x children=2 snapshots=1/65536");
      assertThatThrownBy(() -> first.delete(new Path("/m"), true))
          .hasMessageContaining("The directory /m/d cannot be deleted since /m/d is snapshottable");
      first.renameSnapshot(new Path("/m/d"), "x", "y");
      assertThat(SnapshotsLikeHdfsTest.snapshots(second.getSnapshotListing(new Path("/m/d"))))
          .startsWith("y ");
      assertThatThrownBy(() -> second.disallowSnapshot(new Path("/m/d")))
          .isInstanceOf(SnapshotException.class);
      second.deleteSnapshot(new Path("/m/d"), "y");
      first.disallowSnapshot(new Path("/m/d"));
      assertThat(second.getSnapshottableDirListing()).isNull();
      assertThat(second.delete(new Path("/m"), true)).isTrue();
    }
  }

  /**
   * A directory moved out of a snapshotted one keeps its hold as a row of negative id in the
   * holder's partition, and the snapshot deleted through the other namenode ends it: the files kept
   * below it are released and the hold row is gone (docs/architecture.md, "Snapshots", holds).
   */
  @Test
  void aHoldEndsThroughTheOtherNamenodeOverMariadb() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, true);
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(conf);
    Assumptions.assumeTrue(cluster != null, "no MariaDB configured");
    try (cluster;
        HopsNameNode other = cluster.startAnotherNamenode();
        FileSystem viaOther = FileSystem.newInstance(otherConf(cluster, other))) {
      DistributedFileSystem first = cluster.client();
      first.mkdirs(new Path("/h/d/t"));
      first.createNewFile(new Path("/h/d/t/f"));
      first.allowSnapshot(new Path("/h/d"));
      first.createSnapshot(new Path("/h/d"), "s");
      first.rename(new Path("/h/d/t"), new Path("/h/t"));
      first.delete(new Path("/h/t/f"), false);
      assertThat(keptRows(cluster)).anyMatch(SnapshotKeptFileRow::isHold).hasSize(2);
      ((DistributedFileSystem) viaOther).deleteSnapshot(new Path("/h/d"), "s");
      assertThat(keptRows(cluster)).isEmpty();
    }
  }

  private static List<SnapshotKeptFileRow> keptRows(HopsTestCluster cluster) throws Exception {
    try (var tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED);
    }
  }

  private static Configuration otherConf(HopsTestCluster cluster, HopsNameNode nn) {
    Configuration c = cluster.clientConf();
    c.set("fs.defaultFS", nn.uri());
    return c;
  }

  private static String owner(DistributedFileSystem fs) throws Exception {
    var st = fs.getFileStatus(new Path("/m/d"));
    return st.getOwner() + ":" + st.getGroup();
  }
}
