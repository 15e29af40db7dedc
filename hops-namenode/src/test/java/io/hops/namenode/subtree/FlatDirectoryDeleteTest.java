package io.hops.namenode.subtree;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Issue 11's realistic size with the default bound of 1,000 inodes per transaction: a flat
 * directory of 20,000 empty files created by 8 threads, then deleted in one call, twice. The time
 * of each delete is printed.
 */
class FlatDirectoryDeleteTest {
  private static final int FILES = 20_000;
  private static final int THREADS = 8;

  @Test
  void aFlatDirectoryOf20000FilesIsDeletedInOneCallTwice() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      for (int round = 1; round <= 2; round++) {
        Path dir = new Path("/flat");
        long c0 = System.nanoTime();
        create(cluster, dir);
        long c1 = System.nanoTime();
        assertThat(fs.getContentSummary(dir).getFileCount()).isEqualTo(FILES);
        long t0 = System.nanoTime();
        assertThat(fs.delete(dir, true)).isTrue();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(fs.exists(dir)).isFalse();
        long r0 = System.nanoTime();
        Reclaims.await(cluster.namenode().namesystem().storage());
        System.out.printf(
            "subtree: round %d: %d files created in %d ms by %d threads, deleted in %d ms,"
                + " reclaimed in %d ms more%n",
            round,
            FILES,
            TimeUnit.NANOSECONDS.toMillis(c1 - c0),
            THREADS,
            ms,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - r0));
        assertThat(NamespaceChecker.violations(cluster.namenode().namesystem().storage()))
            .isEmpty();
      }
    }
  }

  private static void create(HopsTestCluster cluster, Path dir) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int me = t;
      done.add(
          pool.submit(
              () -> {
                try (FileSystem fs = FileSystem.get(cluster.uri(), cluster.clientConf())) {
                  for (int i = me; i < FILES; i += THREADS) {
                    fs.create(new Path(dir, "f" + i)).close();
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();
  }
}
