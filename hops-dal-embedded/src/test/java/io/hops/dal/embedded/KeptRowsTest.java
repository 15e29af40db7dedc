package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A kept partition ({@link KeptRows}) answers as the sorted map of its rows would, through inserts,
 * replacements and removals that split chunks and empty them, and a write copies only the chunk it
 * changes.
 */
class KeptRowsTest {
  private static final Object GONE = RowCache.ABSENT;

  @Test
  void answersAsASortedMapThroughSplitsAndEmptiedChunks() {
    Random random = new Random(20261127);
    for (int round = 0; round < 20; round++) {
      TreeMap<byte[], Object> model = new TreeMap<>(Arrays::compareUnsigned);
      int initial = random.nextInt(300);
      for (int i = 0; i < initial; i++) {
        model.put(key(random), "read" + i);
      }
      KeptRows kept = KeptRows.of(new ArrayList<>(model.keySet()), new ArrayList<>(model.values()));
      assertSame(model, kept, random);
      for (int step = 0; step < 400; step++) {
        byte[] key =
            random.nextInt(3) == 0 && !model.isEmpty() ? existing(model, random) : key(random);
        // Mostly growth in one round, mostly removals in another: chunks split and empty.
        boolean remove = random.nextInt(10) < (round % 2 == 0 ? 3 : 7);
        Object row = remove ? GONE : "w" + round + "-" + step;
        kept = kept.with(Map.of(new KeyBytes(key), row));
        if (remove) {
          model.remove(key);
        } else {
          model.put(key, row);
        }
        assertThat(kept).as("under the largest kept size").isNotNull();
        assertSame(model, kept, random);
      }
    }
  }

  @Test
  void aWriteCopiesOnlyTheChunkItChanges() {
    List<byte[]> keys = new ArrayList<>();
    List<Object> rows = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      keys.add(
          String.format("child-%05d", 2 * i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      rows.add("row" + i);
    }
    KeptRows kept = KeptRows.of(keys, rows);
    byte[] middle = "child-01001".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    KeptRows next = kept.with(Map.of(new KeyBytes(middle), "new"));

    assertThat(next.size()).isEqualTo(1001);
    assertThat(next.find(middle)).isEqualTo("new");
    assertThat(kept.find(middle)).as("the old copy is unchanged").isSameAs(GONE);
    Object[][] before = kept.chunks();
    Object[][] after = next.chunks();
    assertThat(after.length).isEqualTo(before.length);
    int copied = 0;
    for (int c = 0; c < after.length; c++) {
      if (after[c] != before[c]) {
        copied++;
      }
    }
    assertThat(copied).isEqualTo(1);
    assertThat(after.length).isGreaterThan(10);
  }

  @Test
  void aPartitionPastTheLargestKeptIsDropped() {
    List<byte[]> keys = new ArrayList<>();
    List<Object> rows = new ArrayList<>();
    for (int i = 0; i < PartitionCache.MAX_PARTITION_ROWS; i++) {
      keys.add(String.format("n%06d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      rows.add(i);
    }
    KeptRows full = KeptRows.of(keys, rows);
    assertThat(full.with(Map.of(new KeyBytes("n000000".getBytes()), "again"))).isNotNull();
    assertThat(full.with(Map.of(new KeyBytes("z".getBytes()), "one more"))).isNull();
  }

  private static void assertSame(TreeMap<byte[], Object> model, KeptRows kept, Random random) {
    assertThat(kept.size()).isEqualTo(model.size());
    List<Object> all = new ArrayList<>();
    kept.addTo(all, Object.class, 0, kept.size());
    assertThat(all).containsExactlyElementsOf(model.values());
    int position = 0;
    for (Map.Entry<byte[], Object> e : model.entrySet()) {
      assertThat(kept.find(e.getKey())).isSameAs(e.getValue());
      assertThat(kept.firstAfter(e.getKey())).isEqualTo(++position);
    }
    for (int probe = 0; probe < 8; probe++) {
      byte[] key = probe % 2 == 0 && !model.isEmpty() ? existing(model, random) : key(random);
      assertThat(kept.find(key)).isEqualTo(model.containsKey(key) ? model.get(key) : GONE);
      int after = model.headMap(key, true).size();
      assertThat(kept.firstAfter(key)).isEqualTo(after);
      int to = Math.min(model.size(), after + random.nextInt(100));
      List<Object> page = new ArrayList<>();
      kept.addTo(page, Object.class, after, to);
      assertThat(page)
          .containsExactlyElementsOf(new ArrayList<>(model.values()).subList(after, to));
    }
  }

  /** A short key over a few byte values, some above 0x7f: unsigned order matters, keys repeat. */
  private static byte[] key(Random random) {
    byte[] k = new byte[1 + random.nextInt(3)];
    for (int i = 0; i < k.length; i++) {
      k[i] = (byte) (random.nextInt(16) * 17);
    }
    return k;
  }

  private static byte[] existing(TreeMap<byte[], Object> model, Random random) {
    int skip = random.nextInt(model.size());
    return model.keySet().stream().skip(skip).findFirst().orElseThrow();
  }
}
