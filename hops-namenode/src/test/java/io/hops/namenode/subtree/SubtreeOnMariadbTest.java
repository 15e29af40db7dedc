package io.hops.namenode.subtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.config.NamenodeConfig;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

/**
 * The subtree protocol over MariaDB (row locks of InnoDB, statements that lock as a whole): a
 * delete, a refused and an allowed move to the trash, a content summary, and two namenodes deleting
 * an ancestor and a descendant at once. Runs when HOPS_TEST_MYSQL_URL names a database.
 */
class SubtreeOnMariadbTest {

  @Test
  void subtreeOperationsOverMariadb() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, 15);
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(conf);
    assumeTrue(cluster != null, "HOPS_TEST_MYSQL_URL is not set");
    try (cluster;
        DistributedFileSystem fs = cluster.client()) {
      Storage storage = cluster.namenode().namesystem().storage();
      fs.setPermission(new Path("/"), new FsPermission((short) 0777));
      DistributedFileSystem alice =
          (DistributedFileSystem)
              UserGroupInformation.createUserForTesting("alice", new String[] {"staff"})
                  .doAs(
                      (PrivilegedExceptionAction<FileSystem>)
                          () -> FileSystem.get(cluster.uri(), cluster.clientConf()));
      tree(alice, "/m/t", 5, 8);
      fs.mkdirs(new Path("/m/.Trash"));
      fs.setPermission(new Path("/m"), new FsPermission((short) 0777));
      fs.setPermission(new Path("/m/.Trash"), new FsPermission((short) 0777));
      fs.mkdirs(new Path("/m/t/d2/e2/root-only"));
      fs.create(new Path("/m/t/d2/e2/root-only/f")).close();
      assertThatThrownBy(
              () -> alice.getClient().rename("/m/t", "/m/.Trash/t", Options.Rename.TO_TRASH))
          .isInstanceOf(AccessControlException.class);
      assertThat(fs.getContentSummary(new Path("/m/t")).getFileCount()).isEqualTo(5 * 8 + 1);
      fs.delete(new Path("/m/t/d2/e2/root-only"), true);
      alice.getClient().rename("/m/t", "/m/.Trash/t", Options.Rename.TO_TRASH);
      assertThat(fs.delete(new Path("/m/.Trash/t"), true)).isTrue();

      HopsNameNode second = cluster.startAnotherNamenode();
      try (DistributedFileSystem fs2 = cluster.client(second)) {
        tree(fs, "/o/p", 5, 8);
        tree(fs, "/o/p/d0/q", 5, 8);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Future<Boolean> a = pool.submit(() -> fs.delete(new Path("/o/p"), true));
        Future<Boolean> b = pool.submit(() -> fs2.delete(new Path("/o/p/d0/q"), true));
        Boolean ra = a.get(60, TimeUnit.SECONDS);
        b.get(60, TimeUnit.SECONDS);
        pool.shutdown();
        if (!ra) {
          assertThat(fs.delete(new Path("/o/p"), true)).isTrue();
        }
        assertThat(fs.exists(new Path("/o/p"))).isFalse();
      } finally {
        second.close();
      }
      Reclaims.await(storage);
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
      try (Transaction tx = storage.begin()) {
        assertThat(tx.scanAll(InodeRow.TABLE, LockMode.READ_COMMITTED))
            .noneMatch(InodeRow::subtreeLocked);
        assertThat(tx.scanAll(OnGoingSubtreeOpRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      }
      alice.close();
    }
  }

  private static void tree(FileSystem as, String top, int dirs, int files) throws Exception {
    for (int d = 0; d < dirs; d++) {
      String dir = top + "/d" + d + "/e" + d;
      as.mkdirs(new Path(dir));
      for (int f = 0; f < files; f++) {
        as.create(new Path(dir + "/f" + f)).close();
      }
    }
  }
}
