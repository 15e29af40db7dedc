package io.hops.bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The longest gap and the per-second completions, and how they travel between processes. */
class CompletionClockTest {
  private static final long S = 1_000_000_000L;
  private static final long MS = 1_000_000L;

  @Test
  void theLongestGapIsBetweenConsecutiveCompletionsInAnyOrder() {
    CompletionClock c = new CompletionClock(10 * S, 13 * S);
    c.completed(10 * S + 100 * MS);
    c.completed(10 * S + 900 * MS); // from another thread, reported late
    c.completed(10 * S + 300 * MS);
    c.completed(12 * S + 400 * MS); // 1,500 ms after 900
    c.completed(12 * S + 600 * MS);
    c.completed(9 * S); // warm-up: not counted
    assertThat(c.longestGapMillis()).isEqualTo(1500);
    assertThat(c.longestGapAtMillis()).isEqualTo(900);
    assertThat(c.perSecond()).containsExactly(3L, 0L, 2L);
  }

  @Test
  void aStallAtTheEndOfTheWindowIsAGapToo() {
    CompletionClock c = new CompletionClock(0, 5 * S);
    c.completed(S);
    assertThat(c.longestGapMillis()).isEqualTo(4000);
    assertThat(c.longestGapAtMillis()).isEqualTo(1000);
  }

  @Test
  void theTimelineSurvivesEncodingAndMergesAsAnUpperBound() {
    PhaseResult a =
        new PhaseResult(
            Map.of(), 2000, 0, 1, 0, List.of(), new PhaseResult.Timeline(300, 50, List.of(5L, 7L)));
    PhaseResult b =
        new PhaseResult(
            Map.of(),
            2000,
            0,
            1,
            0,
            List.of(),
            new PhaseResult.Timeline(200, 900, List.of(1L, 1L)));
    PhaseResult back = PhaseResult.decode(a.encode());
    assertThat(back.timeline()).isEqualTo(a.timeline());

    PhaseResult.Timeline merged = a.merge(b).timeline();
    assertThat(merged.longestGapMillis()).isEqualTo(200);
    assertThat(merged.perSecond()).containsExactly(6L, 8L);
    assertThat(merged.sessions()).isEqualTo(2);
    assertThat(merged.dip()).isEqualTo(6 / 7.0);
    assertThat(PhaseResult.empty().merge(a).timeline()).isEqualTo(a.timeline());
  }
}
