package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The counts a starting leader keeps of how many datanodes hold each block follow what each
 * datanode holds as it changes, and give HDFS's safe blocks (on at least {@code
 * dfs.namenode.safemode.replication.min} datanodes) exactly as a count from scratch would.
 */
class SafeBlockCountsTest {

  @Test
  void aBlockIsSafeOnTheMinimumNumberOfDatanodes() {
    SafeBlockCounts counts = new SafeBlockCounts(2);
    counts.replace(new long[0], new long[] {1, 2, 3});
    assertThat(counts.safe()).as("each block on one datanode").isZero();
    counts.replace(new long[0], new long[] {2, 3, 4});
    assertThat(counts.safe()).as("2 and 3 on two").isEqualTo(2);
    counts.replace(new long[] {2, 3, 4}, new long[] {3, 4, -5});
    assertThat(counts.safe()).as("the second datanode lost 2").isEqualTo(1);
    counts.replace(new long[] {1, 2, 3}, new long[0]);
    assertThat(counts.safe()).as("the first datanode gone").isZero();
  }

  @Test
  void manyChangesCountAsACountFromScratch() {
    Random random = new Random(57);
    int datanodes = 5;
    long[][] held = new long[datanodes][0];
    SafeBlockCounts counts = new SafeBlockCounts(2);
    for (int round = 0; round < 200; round++) {
      int d = random.nextInt(datanodes);
      long[] now = random.longs(random.nextInt(3000), -2000, 20_000).sorted().distinct().toArray();
      counts.replace(held[d], now);
      held[d] = now;
      TreeMap<Long, Integer> scratch = new TreeMap<>();
      for (long[] ids : held) {
        Arrays.stream(ids).forEach(id -> scratch.merge(id, 1, Integer::sum));
      }
      assertThat(counts.safe())
          .as("round %d", round)
          .isEqualTo(scratch.values().stream().filter(c -> c >= 2).count());
    }
  }
}
