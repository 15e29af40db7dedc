package io.hops.bench;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.Phase;
import io.hops.bench.namespace.NamespaceSpec;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Small, short plans for tests: a few threads, a small namespace, sub-second phases. */
final class TestPlans {
  private static final AtomicInteger RUNS = new AtomicInteger();

  /** A namespace of 7 directories and 28 files per thread, at depth 7 on average. */
  static final NamespaceSpec SMALL = new NamespaceSpec(7, 2, 4, 34, 8, 7, 0);

  private TestPlans() {}

  static ClientSpec client(int threads, String user, long graceMillis) {
    return client(threads, user, graceMillis, SMALL);
  }

  static ClientSpec client(int threads, String user, long graceMillis, NamespaceSpec namespace) {
    return new ClientSpec(
        "",
        Map.of(),
        threads,
        0,
        "/hammer/test-" + RUNS.incrementAndGet(),
        namespace,
        11,
        user,
        graceMillis,
        60_000);
  }

  /**
   * The mix's phase is measured for at least 2 s, whatever the raw phases' time: the tests expect
   * its three most common operations (stat_file is 13 % of the mix) among its samples, which a few
   * hundred milliseconds on a loaded machine (a dozen operations) does not make sure of.
   */
  static List<Phase> spotifyThenRaw(List<Op> raw, long millis) throws IOException {
    List<Phase> phases = new ArrayList<>();
    phases.add(new Phase("mix", Workload.mixed(Mix.load("spotify")), 200, Math.max(millis, 2_000)));
    for (Op op : raw) {
      phases.add(new Phase("raw:" + op.key(), Workload.raw(op), 0, millis));
    }
    return phases;
  }

  static BenchRunner.Plan plan(ClientSpec client, int processes, List<Phase> phases, Path dir) {
    return new BenchRunner.Plan(
        client,
        processes,
        List.of("-Xmx256m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
        Map.of(),
        phases,
        dir);
  }
}
