package io.hops.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.bench.client.OpStats;
import io.hops.bench.client.Phase;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A phase's report says what the clients cost and how busy the machine was, where known. */
class ClientsAndMachineTest {
  @Test
  void givesTheClientsCpuPerOpAndInCoresAndTheMachinesBusyShare() {
    // 20,000 operations in 2 s; the clients used 3 s of CPU, the machine 3.2 of its 4 (2 cores).
    MeasuredPhase p =
        phase(20_000, new ClusterWork(List.of(), null, null, Map.of(), 3_000L, machine(3_200)));

    assertThat(Tables.phase("hops", p))
        .contains("clients: CPU 150 ms per 1,000 ops (1.50 cores);")
        .contains("the machine: 80% of its 2 cores busy");
    assertThat(Json.write(Summary.of(report(p))))
        .contains("\"clientCpuMsPer1000Ops\": 150")
        .contains("\"machineBusyShare\": 0.8");
  }

  @Test
  void saysNothingOfWhatIsUnknown() {
    assertThat(Tables.clientsAndMachine(phase(100, ClusterWork.NONE))).isEmpty();
    assertThat(
            Tables.clientsAndMachine(
                phase(100, new ClusterWork(List.of(), null, null, Map.of(), null, machine(1_000)))))
        .isEqualTo("  the machine: 25% of its 2 cores busy\n");
  }

  private static ClusterWork.MachineWork machine(long busyMillis) {
    return new ClusterWork.MachineWork(busyMillis, 4_000);
  }

  private static MeasuredPhase phase(int ops, ClusterWork work) {
    OpStats s = new OpStats();
    for (int i = 0; i < ops; i++) {
      s.success(100);
    }
    Phase phase = new Phase("mix", Workload.raw(Op.STAT_FILE), 0, 2000);
    PhaseResult result = new PhaseResult(Map.of(Op.STAT_FILE, s), 2000, 0, 1, 0, List.of(), null);
    return new MeasuredPhase(phase, result, null, work);
  }

  private static BenchReport report(MeasuredPhase p) {
    SystemRun run = new SystemRun("hops", "hdfs://x", Map.of(), null, List.of(p), List.of());
    return new BenchReport("now", "raw", null, Map.of(), Map.of(), List.of(run));
  }
}
