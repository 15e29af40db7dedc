package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Sets of block ids as sorted arrays: made from parts in any order, and merged. */
class BlockIdSetsTest {
  @Test
  void partsInAnyOrderMakeOneSortedSetWithoutRepeats() {
    assertThat(BlockIdSets.of(List.of(new long[] {9, 3, 3}, new long[] {}, new long[] {4, 9, 1})))
        .containsExactly(1, 3, 4, 9);
    assertThat(BlockIdSets.of(List.of())).isEmpty();
  }

  @Test
  void theUnionOfTwoSetsHoldsEachIdOnce() {
    Random random = new Random(7);
    for (int round = 0; round < 100; round++) {
      TreeSet<Long> a = new TreeSet<>();
      TreeSet<Long> b = new TreeSet<>();
      random.longs(random.nextInt(50), -20, 20).forEach(a::add);
      random.longs(random.nextInt(50), -20, 20).forEach(b::add);
      TreeSet<Long> both = new TreeSet<>(a);
      both.addAll(b);

      long[] union = BlockIdSets.union(array(a), array(b));

      assertThat(union).containsExactly(array(both));
    }
  }

  private static long[] array(TreeSet<Long> ids) {
    return ids.stream().mapToLong(Long::longValue).toArray();
  }
}
