package io.hops.namenode.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * One namespace quota, two namenodes, 16 threads creating, deleting and renaming under it at once:
 * no more files than the quota allows ever exist, and afterwards the usage the quota row keeps is
 * exactly what the tree holds.
 */
class QuotaConcurrencyTest {
  private static final int QUOTA = 61; // the directory itself, two subdirectories and 58 entries
  private static final int THREADS_PER_NAMENODE = 8;
  private static final int FILES_PER_THREAD = 12;

  @Test
  void usageStaysExactUnderConcurrentWritersOnTwoNamenodes() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      writeUnderOneQuota(cluster);
    }
  }

  /** The same over MariaDB (row locks of InnoDB, deadlocks retried), where CI configures one. */
  @Test
  void usageStaysExactOnMariadb() throws Exception {
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(conf());
    Assumptions.assumeTrue(cluster != null, "no MariaDB configured (HOPS_TEST_MYSQL_URL)");
    try (cluster) {
      writeUnderOneQuota(cluster);
    }
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.TX_MAX_ATTEMPTS, 40);
    return conf;
  }

  private static void writeUnderOneQuota(HopsTestCluster cluster) throws Exception {
    {
      HopsNameNode second = cluster.startAnotherNamenode();
      try (DistributedFileSystem one = cluster.client();
          DistributedFileSystem two = cluster.client(second)) {
        one.mkdirs(new Path("/q/a"));
        one.mkdirs(new Path("/q/b"));
        one.setQuota(new Path("/q"), QUOTA, 64L * 1024 * 1024);
        one.setQuota(new Path("/q/b"), 20, -1);
        // Each client keeps a file open, so its lease row exists all along: over MariaDB, two
        // first creates of one client racing to insert its lease collide on the key (a known
        // issue of lease creation, not of quotas).
        org.apache.hadoop.fs.FSDataOutputStream keepOne = one.create(new Path("/keep/one"));
        org.apache.hadoop.fs.FSDataOutputStream keepTwo = two.create(new Path("/keep/two"));
        AtomicInteger created = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger deleted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_NAMENODE);
        List<Future<?>> tasks = new ArrayList<>();
        for (int t = 0; t < 2 * THREADS_PER_NAMENODE; t++) {
          DistributedFileSystem fs = t % 2 == 0 ? one : two;
          int thread = t;
          tasks.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < FILES_PER_THREAD; i++) {
                      String dir = (thread + i) % 3 == 0 ? "/q/b" : "/q/a";
                      Path f = new Path(dir + "/t" + thread + "-" + i);
                      try {
                        fs.create(f).close();
                        created.incrementAndGet();
                        if (i % 4 == 3) {
                          // Moves between the inner quota and the outer one, and deletes.
                          Path moved = new Path("/q/b/m" + thread + "-" + i);
                          if (!dir.equals("/q/b") && fs.rename(f, moved)) {
                            f = moved;
                          }
                          fs.delete(f, false);
                          deleted.incrementAndGet();
                        }
                      } catch (NSQuotaExceededException e) {
                        refused.incrementAndGet();
                      }
                      ContentSummary c = fs.getContentSummary(new Path("/q"));
                      assertThat(c.getFileCount() + c.getDirectoryCount())
                          .as("entries under the quota")
                          .isLessThanOrEqualTo(QUOTA);
                    }
                    return null;
                  }));
        }
        for (Future<?> f : tasks) {
          f.get(300, TimeUnit.SECONDS);
        }
        pool.shutdown();
        keepOne.close();
        keepTwo.close();
        assertThat(refused.get()).as("creates refused by the quota").isPositive();
        ContentSummary tree = one.getContentSummary(new Path("/q"));
        QuotaUsage usage = two.getQuotaUsage(new Path("/q"));
        assertThat(usage.getFileAndDirectoryCount())
            .isEqualTo(tree.getFileCount() + tree.getDirectoryCount())
            .isEqualTo(3 + created.get() - deleted.get())
            .isLessThanOrEqualTo(QUOTA);
        ContentSummary inner = one.getContentSummary(new Path("/q/b"));
        assertThat(one.getQuotaUsage(new Path("/q/b")).getFileAndDirectoryCount())
            .isEqualTo(inner.getFileCount() + inner.getDirectoryCount())
            .isLessThanOrEqualTo(20);
        System.out.printf(
            "quota concurrency: %d created, %d deleted, %d refused; usage %d of %d%n",
            created.get(), deleted.get(), refused.get(), usage.getFileAndDirectoryCount(), QUOTA);
      } finally {
        second.close();
      }
    }
  }
}
