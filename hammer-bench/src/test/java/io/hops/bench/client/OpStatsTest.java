package io.hops.bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class OpStatsTest {
  @Test
  void oneKindOfErrorOnManyPathsCountsAsOne() {
    OpStats s = new OpStats();
    for (int i = 0; i < 100; i++) {
      s.failure(OpStats.describe(new FileNotFoundException("File does not exist: /a/b" + i)));
    }
    assertThat(s.errors())
        .containsExactly(
            java.util.Map.entry("FileNotFoundException: File does not exist: <path>", 100L));
  }

  @Test
  void errorKindsAreCappedAndTheRestCounted() {
    OpStats s = new OpStats();
    for (int i = 0; i < 20; i++) {
      s.failure("kind " + i);
    }
    assertThat(s.errors()).hasSize(OpStats.MAX_ERROR_KINDS).containsKey("(other errors)");
    assertThat(s.errors().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(20);
  }

  @Test
  void encodedStatsDecodeToTheSameCountsAndLatencies() {
    OpStats s = new OpStats();
    for (int i = 1; i <= 1000; i++) {
      s.success(i);
    }
    s.failure("boom");
    Properties p = new Properties();
    s.encode(p, "x.");

    OpStats back = OpStats.decode(p, "x.");

    assertThat(back.successes()).isEqualTo(1000);
    assertThat(back.failures()).isEqualTo(1);
    assertThat(back.errors()).containsEntry("boom", 1L);
    assertThat(back.latencyMicros().getValueAtPercentile(99))
        .isEqualTo(s.latencyMicros().getValueAtPercentile(99));
    OpStats merged = back.copy();
    merged.add(s);
    assertThat(merged.latencyMicros().getTotalCount()).isEqualTo(2000);
  }
}
