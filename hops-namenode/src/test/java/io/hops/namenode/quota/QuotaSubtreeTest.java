package io.hops.namenode.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.subtree.Reclaims;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quotas on subtrees over the bound of one transaction ({@value #BOUND} inodes): setQuota counts
 * the initial usage under a subtree mark, a subtree delete takes what each batch deletes off the
 * quotas above, and a big rename carries the usage counted by its quiesce.
 */
class QuotaSubtreeTest {
  private static final int BOUND = 20;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, BOUND);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(1);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  @AfterEach
  void consistent() throws Exception {
    // A big delete reclaims its subtree in the background: the check reads tables one after the
    // other, and would see a block whose offset row the reclaim just deleted.
    Reclaims.await(cluster.namenode().namesystem().storage());
    assertThat(NamespaceChecker.violations(cluster.namenode().namesystem().storage())).isEmpty();
  }

  /** {@code dirs} directories of {@code files} files each, one file with {@code bytes} bytes. */
  private static void tree(String root, int dirs, int files, int bytes) throws IOException {
    for (int d = 0; d < dirs; d++) {
      for (int f = 0; f < files; f++) {
        fs.create(new Path(root + "/d" + d + "/f" + f)).close();
      }
    }
    try (FSDataOutputStream out = fs.create(new Path(root + "/data"), (short) 1)) {
      out.write(new byte[bytes]);
    }
  }

  private static long entries(String path) throws IOException {
    ContentSummary c = fs.getContentSummary(new Path(path));
    return c.getFileCount() + c.getDirectoryCount();
  }

  @Test
  void setQuotaOnABigTreeCountsItsUsage() throws Exception {
    tree("/sq", 4, 12, 5000);
    fs.setQuota(new Path("/sq"), 1000, 1L << 30);
    QuotaUsage u = fs.getQuotaUsage(new Path("/sq"));
    assertThat(u.getFileAndDirectoryCount()).isEqualTo(entries("/sq")).isEqualTo(1 + 4 + 48 + 1);
    assertThat(u.getSpaceConsumed()).isEqualTo(5000);
    fs.create(new Path("/sq/d0/more")).close();
    assertThat(fs.getQuotaUsage(new Path("/sq")).getFileAndDirectoryCount()).isEqualTo(55);
    assertThat(fs.delete(new Path("/sq"), true)).isTrue();
  }

  @Test
  void subtreeDeleteTakesItsInodesOffTheQuotaAbove() throws Exception {
    fs.mkdirs(new Path("/outer"));
    fs.setQuota(new Path("/outer"), 1000, 1L << 30);
    tree("/outer/big", 5, 10, 7000);
    assertThat(fs.getQuotaUsage(new Path("/outer")).getFileAndDirectoryCount()).isEqualTo(58);
    assertThat(fs.getQuotaUsage(new Path("/outer")).getSpaceConsumed()).isEqualTo(7000);
    assertThat(fs.delete(new Path("/outer/big"), true)).isTrue();
    QuotaUsage u = fs.getQuotaUsage(new Path("/outer"));
    assertThat(u.getFileAndDirectoryCount()).isEqualTo(1);
    assertThat(u.getSpaceConsumed()).isZero();
    assertThat(fs.delete(new Path("/outer"), true)).isTrue();
  }

  @Test
  void bigRenameCarriesItsUsageAndIsRefusedWhereItDoesNotFit() throws Exception {
    fs.mkdirs(new Path("/to/small"));
    fs.mkdirs(new Path("/to/large"));
    fs.setQuota(new Path("/to/small"), 30, -1);
    fs.setQuota(new Path("/to/large"), 100, 1L << 30);
    tree("/from/t", 3, 15, 3000);
    long moved = entries("/from/t");
    assertThatThrownBy(() -> fs.rename(new Path("/from/t"), new Path("/to/small/t")))
        .isInstanceOf(NSQuotaExceededException.class)
        .hasMessageStartingWith(
            "The NameSpace quota (directories and files) of directory /to/small is exceeded:"
                + " quota=30 file count="
                + (moved + 1));
    assertThat(fs.exists(new Path("/from/t/d2/f14"))).isTrue();
    assertThat(fs.rename(new Path("/from/t"), new Path("/to/large/t"))).isTrue();
    QuotaUsage u = fs.getQuotaUsage(new Path("/to/large"));
    assertThat(u.getFileAndDirectoryCount()).isEqualTo(1 + moved);
    assertThat(u.getSpaceConsumed()).isEqualTo(3000);
    // Back out of every quota: the usage goes with it.
    assertThat(fs.rename(new Path("/to/large/t"), new Path("/from/t"))).isTrue();
    assertThat(fs.getQuotaUsage(new Path("/to/large")).getFileAndDirectoryCount()).isEqualTo(1);
    assertThat(fs.getQuotaUsage(new Path("/to/large")).getSpaceConsumed()).isZero();
    assertThat(fs.delete(new Path("/from"), true)).isTrue();
    assertThat(fs.delete(new Path("/to"), true)).isTrue();
  }
}
