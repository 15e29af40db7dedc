package io.hops.bench.namespace;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Storage;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceCheck;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code fsck-namespace} checks a namespace in memory that does not grow with it: over 200,000
 * files the heap it retains while it runs (measured after a full collection at each of its progress
 * lines) stays within a few MB, where keeping an entry per inode would take tens of MB, and stays
 * no larger than over 20,000 files.
 */
class NamespaceCheckMemoryTest {
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  @Test
  void theCheckRetainsNoMoreOverTwoHundredThousandFilesThanOverTwentyThousand() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      Storage storage = cluster.namenode().namesystem().storage();
      NamespaceSpec spec = NamespaceSpec.SPOTIFY;
      spec =
          new NamespaceSpec(
              spec.depth(),
              spec.subdirsPerDir(),
              spec.filesPerDir(),
              spec.nameLength(),
              spec.nameLengthSpread(),
              spec.dirsPerThread(),
              100);
      new NamespaceLoader(storage, spec, new Configuration(false))
          .load(new Path("/small"), 20_000, 3, 10);
      long small = retained(storage);
      new NamespaceLoader(storage, spec, new Configuration(false))
          .load(new Path("/big"), 180_000, 4, 10);
      long big = retained(storage);
      System.out.printf(
          "namespace check retains %.1f MB over 20,000 files, %.1f MB over 200,000%n",
          small / 1e6, big / 1e6);
      // An entry per inode (the check before it streamed) took about 100 bytes each: 20 MB.
      assertThat(big).isLessThan(8L << 20);
      assertThat(big).isLessThan(small + (4L << 20));
    }
  }

  /**
   * The most the heap grows by while a check runs over {@code storage}, each sample after a full
   * collection. A first run warms the engine's caches (bounded on their own) so that the second
   * measures the check.
   */
  private static long retained(Storage storage) throws Exception {
    assertThat(new NamespaceCheck(storage, 2_000, line -> {}, id -> true).run()).isEmpty();
    long before = usedAfterGc();
    long[] most = {0};
    int[] lines = {0};
    NamespaceCheck check =
        new NamespaceCheck(
            storage,
            2_000,
            line -> {
              if (lines[0]++ % 10 == 0 || !line.endsWith("...")) {
                most[0] = Math.max(most[0], usedAfterGc() - before);
              }
            },
            id -> true);
    assertThat(check.run()).isEmpty();
    return most[0];
  }

  private static long usedAfterGc() {
    System.gc();
    System.gc();
    return MEMORY.getHeapMemoryUsage().getUsed();
  }
}
