package io.hops.namenode.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A namenode's hint cache stays under its bound in bytes while a workload through the stock client
 * resolves far more paths than it holds, and the namenode answers as one whose cache keeps a single
 * hint (the same creates, renames and deletes on both, every answer compared).
 */
class InodeHintCacheBoundTest {
  private static final long BOUND = 48 << 10;

  @Test
  void hintCacheStaysUnderItsBoundAndAnswersAsWithoutIt() throws Exception {
    Configuration bounded = new Configuration(false);
    bounded.setLong(NamenodeConfig.HINT_CACHE_BYTES, BOUND);
    Configuration without = new Configuration(false);
    without.setInt(NamenodeConfig.HINT_CACHE_SIZE, 1);
    try (HopsTestCluster a = new HopsTestCluster(bounded);
        HopsTestCluster b = new HopsTestCluster(without)) {
      InodeHintCache hints = a.namenode().namesystem().runner().hints();
      DistributedFileSystem fa = a.client();
      DistributedFileSystem fb = b.client();
      List<Path> paths = new ArrayList<>();
      long most = 0;
      for (int d = 0; d < 30; d++) {
        for (int f = 0; f < 20; f++) {
          Path p = new Path("/job-" + d + "/attempt_" + d + "_" + f + "/part-" + f + ".parquet");
          assertThat(fa.mkdirs(p)).isEqualTo(fb.mkdirs(p));
          paths.add(p);
          most = Math.max(most, hints.bytes());
        }
      }
      Random random = new Random(59);
      for (int step = 0; step < 400; step++) {
        Path p = paths.get(random.nextInt(paths.size()));
        if (step % 7 == 0) {
          Path to = p.suffix(".moved");
          assertThat(fa.rename(p, to)).isEqualTo(fb.rename(p, to));
        } else if (step % 11 == 0) {
          assertThat(fa.delete(p, true)).isEqualTo(fb.delete(p, true));
        } else {
          assertThat(fa.exists(p)).isEqualTo(fb.exists(p));
          assertThat(names(fa.listStatus(p.getParent())))
              .isEqualTo(names(fb.listStatus(p.getParent())));
        }
        most = Math.max(most, hints.bytes());
      }
      // The bound, and the one hint that carried the cache to it before it started over.
      assertThat(most).isPositive().isLessThanOrEqualTo(BOUND + 512);
      assertThat(hints.hits()).isPositive();
      assertThat(hints.size()).isLessThan(paths.size());
    }
  }

  private static List<String> names(FileStatus[] listing) {
    List<String> names = new ArrayList<>();
    for (FileStatus s : listing) {
      names.add(s.getPath().getName() + (s.isDirectory() ? "/" : ""));
    }
    return names;
  }
}
