package io.hops.bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Workload;
import org.junit.jupiter.api.Test;

/** A phase as a client process reads it: the mix's shares and its settings. */
class PhaseTest {
  @Test
  void aMixKeepsItsWorkloadSettingsOnTheWayToAClientProcess() throws Exception {
    Mix bigDir = Mix.load("big-dir").with(Mix.BIG_DIRECTORY_FILES, "1000");
    Mix hotDir = Mix.load("hot-dir");

    Mix big = Phase.decode(new Phase("m", Workload.mixed(bigDir), 1, 2).encode()).workload().mix();
    Mix hot = Phase.decode(new Phase("m", Workload.mixed(hotDir), 1, 2).encode()).workload().mix();

    assertThat(big.bigDirectory()).isTrue();
    assertThat(big.bigDirectoryFiles()).isEqualTo(1000);
    assertThat(big.percents()).isEqualTo(bigDir.percents());
    assertThat(hot.sharedDirectory()).isTrue();
    assertThat(hot.bigDirectory()).isFalse();
  }
}
