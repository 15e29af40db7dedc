package io.hops.bench;

import io.hops.bench.client.PhaseListener;
import io.hops.bench.client.Stage;
import io.hops.bench.cluster.ProcCpu;
import java.util.List;
import java.util.OptionalLong;

/** The CPU time the namenode processes use while the clients measure. */
final class NamenodeCpu implements PhaseListener {
  private final List<Long> pids;
  private Long start;
  private Long end;

  NamenodeCpu(List<Long> pids) {
    this.pids = pids;
  }

  @Override
  public void stage(Stage stage) {
    if (stage == Stage.MEASURE) {
      start = sample();
    } else if (stage == Stage.DRAIN && start != null && end == null) {
      end = sample();
    }
  }

  /** CPU milliseconds in the measured window, or null if unknown. */
  Long millis() {
    return start == null || end == null ? null : end - start;
  }

  private Long sample() {
    if (pids.isEmpty()) {
      return null;
    }
    long sum = 0;
    for (long pid : pids) {
      OptionalLong ms = ProcCpu.millis(pid);
      if (ms.isEmpty()) {
        return null;
      }
      sum += ms.getAsLong();
    }
    return sum;
  }
}
