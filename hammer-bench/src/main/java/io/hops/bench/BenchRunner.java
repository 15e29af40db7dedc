package io.hops.bench;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.Clients;
import io.hops.bench.client.InProcessClients;
import io.hops.bench.client.Phase;
import io.hops.bench.client.PhaseListener;
import io.hops.bench.client.PhaseResult;
import io.hops.bench.client.ProcessClients;
import io.hops.bench.client.SetupResult;
import io.hops.bench.cluster.Target;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.SystemRun;
import io.hops.bench.report.Tables;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the same plan against one system after another: start it, build the namespace, run every
 * phase while sampling its namenodes' CPU, stop it. Whatever goes wrong is recorded in the {@link
 * SystemRun} and the next system still runs.
 */
public final class BenchRunner {
  private static final Logger LOG = LoggerFactory.getLogger(BenchRunner.class);

  /** Client settings every system gets, under what the system itself asks for. */
  static final Map<String, String> CLIENT_DEFAULTS =
      Map.of("dfs.client.block.write.replace-datanode-on-failure.enable", "false");

  /**
   * @param client the clients' settings (uri and conf are filled in per system)
   * @param clientProcesses client JVMs; 0 runs the clients in this JVM
   * @param clientJvmOptions options for each client JVM
   * @param extraConf client settings from the command line, over everything else
   * @param phases what to measure, in order, on every system
   * @param runDir where client processes keep their specs, results and logs
   */
  public record Plan(
      ClientSpec client,
      int clientProcesses,
      List<String> clientJvmOptions,
      Map<String, String> extraConf,
      List<Phase> phases,
      Path runDir) {}

  private final Plan plan;
  private final PrintStream out;

  public BenchRunner(Plan plan, PrintStream out) {
    this.plan = plan;
    this.out = out;
  }

  public SystemRun run(TargetLauncher launcher) throws InterruptedException {
    String system = launcher.system();
    out.printf("%n== %s: starting ...%n", system);
    Target target;
    try {
      target = launcher.start();
    } catch (IOException | RuntimeException e) {
      LOG.debug("starting {}", system, e);
      out.printf("== %s: could not start: %s%n", system, e.getMessage());
      return new SystemRun(
          system, null, Map.of(), null, List.of(), List.of("could not start: " + e.getMessage()));
    }
    try (target) {
      out.printf("== %s: serving at %s%n", system, target.uri());
      target.facts().forEach((k, v) -> out.printf("   %s: %s%n", k, v));
      return measure(target);
    }
  }

  private SystemRun measure(Target target) throws InterruptedException {
    String system = target.system();
    Map<String, String> conf = new LinkedHashMap<>(CLIENT_DEFAULTS);
    conf.putAll(target.clientConf());
    conf.putAll(plan.extraConf());
    ClientSpec spec = plan.client().withTarget(target.uri(), conf);
    List<MeasuredPhase> phases = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    SetupResult setup = null;
    Clients clients =
        plan.clientProcesses() == 0
            ? new InProcessClients(spec)
            : new ProcessClients(
                spec,
                plan.clientProcesses(),
                plan.runDir().resolve("clients-" + system),
                plan.clientJvmOptions());
    try {
      out.printf(
          "== %s: building the namespace under %s (%d client thread(s) x %d process(es)) ...%n",
          system, spec.baseDir(), spec.threads(), Math.max(1, plan.clientProcesses()));
      setup = clients.setup(new ProgressPrinter(out, system, 0, 0));
      out.printf(
          "== %s: namespace ready in %.1f s: %,d directories, %,d files, %,d failures, %d of %d"
              + " threads ready%n",
          system,
          setup.millis() / 1000.0,
          setup.dirs(),
          setup.files(),
          setup.failures().failures(),
          setup.threadsReady(),
          setup.threads());
      setup.failures().errors().forEach((m, n) -> out.printf("   ! %d x %s%n", n, m));
      for (Phase phase : plan.phases()) {
        String label = system + " | " + phase.workload().name();
        ClusterWatch watch =
            new ClusterWatch(
                target.namenodePids(), target.namenodeWebAddresses(), target.database());
        PhaseListener listener =
            PhaseListener.both(
                watch,
                new ProgressPrinter(out, label, phase.warmupMillis(), phase.durationMillis()));
        PhaseResult result = clients.run(phase, listener);
        MeasuredPhase measured =
            new MeasuredPhase(phase, result, watch.namenodeCpuMillis(), watch.work());
        phases.add(measured);
        out.print(Tables.phase(system, measured));
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: the run broke off", system, e);
      problems.add("the run broke off: " + e);
      out.printf("== %s: the run broke off: %s%n", system, e);
    } finally {
      clients.close();
    }
    return new SystemRun(
        system,
        target.uri(),
        Objects.requireNonNullElse(target.facts(), Map.of()),
        setup,
        phases,
        problems);
  }
}
