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
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the same plan against each system: start it, build the namespace, run every phase while
 * sampling its namenodes' CPU, stop it. Whatever goes wrong is recorded in the {@link SystemRun}
 * and the other systems still run.
 *
 * <p>Several systems run either one after the other ({@link #run}) or interleaved ({@link
 * #runInterleaved}): all started and set up first, then each phase on every system in turn, the
 * order of the systems reversed from one phase to the next. Interleaved, the two measurements of a
 * phase are minutes apart instead of a whole run apart, so a slow stretch of a shared machine falls
 * on both systems' phases of that moment, not on every phase of one system.
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
   * @param snapshots snapshots of the base directory to take in each measured window (0: none, and
   *     the directory is not made snapshottable); see {@link PhaseSnapshots}
   */
  public record Plan(
      ClientSpec client,
      int clientProcesses,
      List<String> clientJvmOptions,
      Map<String, String> extraConf,
      List<Phase> phases,
      Path runDir,
      int snapshots) {
    public Plan(
        ClientSpec client,
        int clientProcesses,
        List<String> clientJvmOptions,
        Map<String, String> extraConf,
        List<Phase> phases,
        Path runDir) {
      this(client, clientProcesses, clientJvmOptions, extraConf, phases, runDir, 0);
    }
  }

  private final Plan plan;
  private final PrintStream out;

  public BenchRunner(Plan plan, PrintStream out) {
    this.plan = plan;
    this.out = out;
  }

  /** Runs every phase on one system, from its start to its stop. */
  public SystemRun run(TargetLauncher launcher) throws InterruptedException {
    return runInterleaved(List.of(launcher)).get(0);
  }

  /**
   * Starts every system and builds each one's namespace, then runs each phase on every system in
   * turn (the first phase in the launchers' order, the next in the reverse order, and so on), then
   * stops them all. One result per launcher, in the launchers' order.
   */
  public List<SystemRun> runInterleaved(List<TargetLauncher> launchers)
      throws InterruptedException {
    List<Session> sessions = new ArrayList<>();
    try {
      for (TargetLauncher launcher : launchers) {
        Session s = new Session(launcher.system());
        sessions.add(s);
        s.start(launcher);
      }
      for (Session s : sessions) {
        s.setup();
      }
      for (int i = 0; i < plan.phases().size(); i++) {
        List<Session> turn = new ArrayList<>(sessions);
        if (i % 2 == 1) {
          Collections.reverse(turn);
        }
        for (Session s : turn) {
          s.measure(plan.phases().get(i));
        }
      }
    } finally {
      closeAll(sessions);
    }
    return sessions.stream().map(Session::result).toList();
  }

  /** Stops every system, each even if stopping another one failed. */
  private static void closeAll(List<Session> sessions) throws InterruptedException {
    RuntimeException failed = null;
    for (Session s : sessions) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /** One system of a run: its target, its clients and what was measured on it so far. */
  private final class Session {
    private final String system;
    private final List<MeasuredPhase> phases = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private Target target;
    private ClientSpec spec;
    private Clients clients;
    private SetupResult setup;

    /** The benchmark's own client of the system, for {@code --snapshots}. */
    private FileSystem admin;

    private int measuredPhases;

    /** Whether the system still takes phases: started, set up, and not broken off. */
    private boolean running;

    private boolean closed;

    Session(String system) {
      this.system = system;
    }

    void start(TargetLauncher launcher) throws InterruptedException {
      out.printf("%n== %s: starting ...%n", system);
      try {
        target = launcher.start();
      } catch (IOException | RuntimeException e) {
        LOG.debug("starting {}", system, e);
        out.printf("== %s: could not start: %s%n", system, e.getMessage());
        problems.add("could not start: " + e.getMessage());
        return;
      }
      out.printf("== %s: serving at %s%n", system, target.uri());
      target.facts().forEach((k, v) -> out.printf("   %s: %s%n", k, v));
      Map<String, String> conf = new LinkedHashMap<>(CLIENT_DEFAULTS);
      conf.putAll(target.clientConf());
      conf.putAll(plan.extraConf());
      spec = plan.client().withTarget(target.uri(), conf);
      clients =
          plan.clientProcesses() == 0
              ? new InProcessClients(spec)
              : new ProcessClients(
                  spec,
                  plan.clientProcesses(),
                  plan.runDir().resolve("clients-" + system),
                  plan.clientJvmOptions());
    }

    void setup() throws InterruptedException {
      if (clients == null) {
        return;
      }
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
        if (plan.snapshots() > 0) {
          Configuration conf = new Configuration();
          spec.conf().forEach(conf::set);
          admin = FileSystem.newInstance(URI.create(spec.uri()), conf);
          PhaseSnapshots.allow(admin, new org.apache.hadoop.fs.Path(spec.baseDir()));
          out.printf(
              "== %s: %s is snapshottable; %d snapshots of it in each measured window%n",
              system, spec.baseDir(), plan.snapshots());
        }
        running = true;
      } catch (IOException | RuntimeException e) {
        brokeOff(e);
      }
    }

    void measure(Phase phase) throws InterruptedException {
      if (!running) {
        return;
      }
      String label = system + " | " + phase.workload().name();
      ClusterWatch watch =
          new ClusterWatch(
              target.namenodePids(),
              clients.pids(),
              target.namenodeWebAddresses(),
              target.database());
      PhaseListener listener =
          PhaseListener.both(
              watch, new ProgressPrinter(out, label, phase.warmupMillis(), phase.durationMillis()));
      PhaseSnapshots snapshots = null;
      measuredPhases++;
      if (admin != null) {
        snapshots =
            new PhaseSnapshots(
                admin,
                new org.apache.hadoop.fs.Path(spec.baseDir()),
                "p" + measuredPhases,
                plan.snapshots(),
                phase.durationMillis());
        listener = PhaseListener.both(listener, snapshots);
      }
      try {
        PhaseResult result = clients.run(phase, listener);
        if (snapshots != null) {
          List<String> taken = snapshots.finish();
          out.printf(
              "== %s: %d snapshot(s) of %s taken in the measured window%n",
              label, taken.size(), spec.baseDir());
          for (String f : snapshots.failures()) {
            problems.add("snapshot failed in " + phase.name() + ": " + f);
          }
        }
        MeasuredPhase measured =
            new MeasuredPhase(phase, result, watch.namenodeCpuMillis(), watch.work());
        phases.add(measured);
        out.print(Tables.phase(system, measured));
      } catch (IOException | RuntimeException e) {
        brokeOff(e);
      }
    }

    /** Records why the system takes no more phases, and stops it now (the others run on). */
    private void brokeOff(Exception e) throws InterruptedException {
      LOG.warn("{}: the run broke off", system, e);
      problems.add("the run broke off: " + e);
      out.printf("== %s: the run broke off: %s%n", system, e);
      close();
    }

    /** Stops the clients and the system, once; what was measured stays for {@link #result}. */
    void close() throws InterruptedException {
      running = false;
      if (closed) {
        return;
      }
      closed = true;
      if (admin != null) {
        try {
          admin.close();
        } catch (IOException e) {
          LOG.debug("closing the snapshots' client of {}", system, e);
        }
      }
      try {
        if (clients != null) {
          clients.close();
        }
      } finally {
        if (target != null) {
          target.close();
        }
      }
    }

    SystemRun result() {
      if (target == null) {
        return new SystemRun(system, null, Map.of(), null, List.of(), List.copyOf(problems));
      }
      return new SystemRun(
          system,
          target.uri(),
          Objects.requireNonNullElse(target.facts(), Map.of()),
          setup,
          List.copyOf(phases),
          List.copyOf(problems));
    }
  }
}
