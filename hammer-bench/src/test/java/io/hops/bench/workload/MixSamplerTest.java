package io.hops.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class MixSamplerTest {
  private static final int DRAWS = 1_000_000;

  private static Map<Op, Long> draw(Mix mix, long seed, int n) {
    MixSampler s = new MixSampler(mix, seed);
    Map<Op, Long> counts = new EnumMap<>(Op.class);
    for (int i = 0; i < n; i++) {
      counts.merge(s.next(), 1L, Long::sum);
    }
    return counts;
  }

  private static void assertWithinOnePercent(Mix mix, Map<Op, Long> counts) {
    for (Op op : Op.values()) {
      double target = mix.percent(op);
      double observed = 100.0 * counts.getOrDefault(op, 0L) / DRAWS;
      assertThat(observed).as("%s share", op.key()).isCloseTo(target, within(target * 0.01));
    }
  }

  @Test
  void spotifyMixIsDrawnWithinOnePercentOfEachTarget() throws Exception {
    Mix spotify = Mix.load("spotify");
    assertWithinOnePercent(spotify, draw(spotify, 1, DRAWS));
    assertWithinOnePercent(spotify, draw(spotify, 99, DRAWS));
  }

  @Test
  void writeHeavyMixIsDrawnWithinOnePercentOfEachTarget() throws Exception {
    Mix heavy = Mix.load("write-heavy");
    assertThat(heavy.percent(Op.CREATE_FILE)).isEqualTo(20.0);
    assertWithinOnePercent(heavy, draw(heavy, 7, DRAWS));
  }

  @Test
  void sharesThatAreNotRoundAreStillMet() {
    Map<Op, Double> p = new EnumMap<>(Op.class);
    p.put(Op.STAT_FILE, 1.0);
    p.put(Op.LS_DIR, 1.0);
    p.put(Op.CREATE_FILE, 1.0);
    p.put(Op.MKDIRS, 0.01);
    Mix thirds = new Mix("thirds", p, new Properties());
    assertWithinOnePercent(thirds, draw(thirds, 3, DRAWS));
  }

  @Test
  void theOrderIsRandomAndDependsOnTheSeed() throws Exception {
    Mix spotify = Mix.load("spotify");
    List<Op> a = new ArrayList<>();
    List<Op> b = new ArrayList<>();
    MixSampler sa = new MixSampler(spotify, 1);
    MixSampler sb = new MixSampler(spotify, 2);
    int changes = 0;
    for (int i = 0; i < 1000; i++) {
      a.add(sa.next());
      b.add(sb.next());
      if (i > 0 && a.get(i) != a.get(i - 1)) {
        changes++;
      }
    }
    assertThat(a).isNotEqualTo(b);
    // Sorted cards would change op a dozen times; shuffled ones about every other draw.
    assertThat(changes).isGreaterThan(300);
    assertThat(new MixSampler(spotify, 1).deckSize()).isEqualTo(10_000);
  }

  @Test
  void shippedMixesAddUpToOneHundredPercent() throws Exception {
    for (String name : Mix.BUILTIN) {
      Mix m = Mix.load(name);
      assertThat(m.percents().values().stream().mapToDouble(Double::doubleValue).sum())
          .as(name)
          .isCloseTo(100.0, within(1e-9));
      // The Spotify mixes' namespace; the hot and big directories keep the threads' own trees
      // small.
      assertThat(m.source().getProperty("namespace.depth"))
          .isEqualTo(m.sharedDirectory() || m.bigDirectory() ? "3" : "7");
    }
  }

  @Test
  void unknownOperationsAreRefusedByName() {
    Properties p = new Properties();
    p.setProperty("read_file", "50");
    p.setProperty("teleport", "50");
    assertThatThrownBy(() -> Mix.parse("bad", p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("teleport")
        .hasMessageContaining("read_file");
  }
}
