package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.bench.client.Stage;
import io.hops.bench.cluster.ProcCpu;
import io.hops.bench.report.ClusterWork;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The namenode's CPU by thread group, read from /proc for this very process. */
class ClusterWatchTest {
  private static final long SPIN_MILLIS = 300;

  @Test
  void countsEachThreadGroupsCpuInTheWindow() throws Exception {
    long pid = ProcessHandle.current().pid();
    CountDownLatch spun = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> spinners = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  spin();
                  spun.countDown();
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "bench-spinner-" + i);
      t.start();
      spinners.add(t);
    }
    Map<Long, ProcCpu.ThreadCpu> start = ProcCpu.threads(pid);
    go.countDown();
    spun.await();
    Map<Long, ProcCpu.ThreadCpu> end = ProcCpu.threads(pid);
    release.countDown();
    for (Thread t : spinners) {
      t.join();
    }

    Map<String, Long> groups = ClusterWatch.byThread(List.of(start), List.of(end));

    // Both spinners are one group, with both threads' CPU (a tick of slack each), and it leads.
    assertThat(groups).containsKey("bench-spinner-#");
    assertThat(groups.get("bench-spinner-#"))
        .isBetween(2 * SPIN_MILLIS - 40, 2 * SPIN_MILLIS + 400);
    assertThat(groups.keySet().iterator().next()).isEqualTo("bench-spinner-#");
    assertThat(new ArrayList<>(groups.values())).isSortedAccordingTo((a, b) -> Long.compare(b, a));
  }

  @Test
  void countsTheClientsCpuAndTheMachinesInTheWindow() throws Exception {
    // This JVM stands for the client process: what it spins in the window is the clients' CPU,
    // and the machine was busy for at least that long.
    ClusterWatch watch =
        new ClusterWatch(List.of(), List.of(ProcessHandle.current().pid()), List.of(), null);
    watch.stage(Stage.MEASURE);
    long started = System.nanoTime();
    spin();
    long wallMillis = (System.nanoTime() - started) / 1_000_000;
    watch.stage(Stage.DRAIN);

    ClusterWork w = watch.work();
    assertThat(w.clientCpuMillis()).isBetween(SPIN_MILLIS - 20, SPIN_MILLIS + 400);
    assertThat(w.machine()).isNotNull();
    assertThat(w.machine().busyMillis()).isGreaterThanOrEqualTo(SPIN_MILLIS - 20);
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(w.machine().allMillis())
        .isBetween(w.machine().busyMillis(), (wallMillis + 200) * cores);
    assertThat(w.machine().busyShare()).isBetween(0.0, 1.0);
  }

  @Test
  void aClientProcessThatIsGoneHasNoCpu() {
    ClusterWatch watch = new ClusterWatch(List.of(), List.of(Long.MAX_VALUE), List.of(), null);
    watch.stage(Stage.MEASURE);
    watch.stage(Stage.DRAIN);
    assertThat(watch.work().clientCpuMillis()).isNull();
  }

  @Test
  void foldsTheDigitsOfThreadNames() {
    assertThat(ProcCpu.group("IPC Server hand")).isEqualTo("IPC Server hand");
    assertThat(ProcCpu.group("Socket Reader #1")).isEqualTo("Socket Reader ##");
    assertThat(ProcCpu.group("GC Thread#12")).isEqualTo(ProcCpu.group("GC Thread#3"));
  }

  @Test
  void aProcessThatIsNotThereHasNoThreads() {
    assertThat(ProcCpu.threads(Long.MAX_VALUE)).isEmpty();
  }

  private static void spin() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long until = mx.getCurrentThreadCpuTime() + SPIN_MILLIS * 1_000_000;
    while (mx.getCurrentThreadCpuTime() < until) {
      Thread.onSpinWait();
    }
  }
}
