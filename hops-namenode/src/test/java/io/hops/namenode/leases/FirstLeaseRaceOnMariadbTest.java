package io.hops.namenode.leases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.HopsTestCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A client's first creates, several at the same moment, over MariaDB: each wants the client's lease
 * row, which none finds, and InnoDB's locking read of an absent row locks nothing, so they race to
 * insert it. The loser is retried and finds the winner's row: every create succeeds, none answers a
 * duplicate key. Runs when HOPS_TEST_MYSQL_URL names a database.
 */
class FirstLeaseRaceOnMariadbTest {
  private static final int CLIENTS = 12;
  private static final int FILES = 6;

  @Test
  void simultaneousFirstCreatesOfOneClientAllSucceed() throws Exception {
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(new Configuration(false));
    assumeTrue(cluster != null, "HOPS_TEST_MYSQL_URL is not set");
    ExecutorService pool = Executors.newFixedThreadPool(FILES);
    try (cluster;
        DistributedFileSystem admin = cluster.client()) {
      // Each create in a directory of its own: they share no inode lock, only the lease row.
      for (int c = 0; c < CLIENTS; c++) {
        for (int f = 0; f < FILES; f++) {
          admin.mkdirs(new Path("/race/c" + c + "/d" + f));
        }
      }
      for (int c = 0; c < CLIENTS; c++) {
        // A new client (a new client name, so a new lease) per round.
        try (DistributedFileSystem fs = cluster.client()) {
          CountDownLatch go = new CountDownLatch(1);
          List<Future<FSDataOutputStream>> creates = new ArrayList<>();
          for (int f = 0; f < FILES; f++) {
            Path p = new Path("/race/c" + c + "/d" + f + "/f");
            creates.add(
                pool.submit(
                    () -> {
                      go.await();
                      return fs.create(p);
                    }));
          }
          go.countDown();
          for (Future<FSDataOutputStream> out : creates) {
            out.get(60, TimeUnit.SECONDS).close();
          }
          for (int f = 0; f < FILES; f++) {
            assertThat(fs.exists(new Path("/race/c" + c + "/d" + f + "/f"))).isTrue();
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
