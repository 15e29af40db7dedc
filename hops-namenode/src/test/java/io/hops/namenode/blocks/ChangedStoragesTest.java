package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The block ids a note of added replicas names ({@link ChangedStorages#noteAdded}) come back as
 * they were written, in rows no larger than the column holds, however far apart the ids lie.
 */
class ChangedStoragesTest {
  @Test
  void idsCloseTogetherTakeAboutAByteEach() {
    long[] ids = LongStream.range(1L << 40, (1L << 40) + 2_500).map(i -> i * 3).toArray();

    List<byte[]> parts = ChangedStorages.encode(ids);

    assertThat(parts).hasSize(1);
    assertThat(parts.get(0).length).isLessThan(2_520);
    assertThat(ChangedStorages.decode(parts.get(0))).containsExactly(ids);
  }

  @Test
  void idsFarApartAreCutIntoPartsTheColumnHolds() {
    Random random = new Random(42);
    long[] ids = random.longs(5_000, 0, Long.MAX_VALUE).sorted().distinct().toArray();

    List<byte[]> parts = ChangedStorages.encode(ids);

    assertThat(parts).hasSizeGreaterThan(5);
    assertThat(parts)
        .allSatisfy(p -> assertThat(p.length).isLessThanOrEqualTo(ChangedStorages.MAX_IDS_BYTES));
    long[] back =
        parts.stream().map(ChangedStorages::decode).flatMapToLong(Arrays::stream).toArray();
    assertThat(back).containsExactly(ids);
  }

  @Test
  void noIdsNoRow() {
    assertThat(ChangedStorages.encode(new long[0])).isEmpty();
  }
}
