package io.hops.bench.client;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client sessions in processes of their own ({@link ClientProcessMain}), each a JVM with its own
 * threads, driven in lockstep: every phase starts when all of them are ready, and their results
 * (latency histograms included) are merged. A process that dies or stops answering is reported as a
 * problem of the phase and left out; it never stops the run.
 */
public final class ProcessClients implements Clients {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessClients.class);

  /** Beyond the phase's own time and grace, how long a client process may take to report. */
  private static final long SLACK_MILLIS = 60_000;

  private final ClientSpec spec;
  private final int processes;
  private final Path dir;
  private final List<String> jvmOptions;
  private final List<Child> children = new ArrayList<>();
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

  /** Stops the client processes if this JVM is stopped (Ctrl-C) before {@link #close()}. */
  private final Thread stopOnExit =
      new Thread(() -> children.forEach(c -> c.process.destroyForcibly()), "stop-clients");

  private record Event(Child child, String line) {}

  private static final class Child {
    final int index;
    final Process process;
    final BufferedWriter stdin;
    final Path log;
    boolean dead;
    Path result;
    Stage stage;
    long millis;
    long ok;
    long failed;

    Child(int index, Process process, Path log) {
      this.index = index;
      this.process = process;
      this.log = log;
      this.stdin =
          new BufferedWriter(
              new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    }
  }

  @Override
  public List<Long> pids() {
    return children.stream().map(c -> c.process.pid()).toList();
  }

  /**
   * @param dir where the specs, results and client logs ({@code client-N.log}) go
   * @param jvmOptions for each client JVM, e.g. {@code -Xmx1g}
   */
  public ProcessClients(ClientSpec spec, int processes, Path dir, List<String> jvmOptions) {
    this.spec = spec;
    this.processes = processes;
    this.dir = dir;
    this.jvmOptions = List.copyOf(jvmOptions);
  }

  @Override
  public SetupResult setup(PhaseListener listener) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Runtime.getRuntime().addShutdownHook(stopOnExit);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    for (int i = 0; i < processes; i++) {
      Path specFile = dir.resolve("client-" + i + ".properties");
      ClientProcessMain.store(spec.forProcess(i).encode(), specFile);
      List<String> cmd = new ArrayList<>();
      cmd.add(java);
      cmd.addAll(jvmOptions);
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(ClientProcessMain.class.getName());
      cmd.add(specFile.toString());
      Path log = dir.resolve("client-" + i + ".log");
      Process p =
          new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
      Child c = new Child(i, p, log);
      children.add(c);
      Thread reader = new Thread(() -> read(c), "client-" + i + "-out");
      reader.setDaemon(true);
      reader.start();
    }
    listener.stage(Stage.SETUP);
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(spec.setupTimeoutMillis() + SLACK_MILLIS);
    SetupResult merged = SetupResult.empty();
    int pending = processes;
    long nextTick = System.nanoTime();
    while (pending > 0) {
      Event e = events.poll(100, TimeUnit.MILLISECONDS);
      if (e != null) {
        Child c = e.child;
        if (e.line == null) {
          if (!c.dead && c.result == null) {
            c.dead = true;
            pending--;
            merged = merged.merge(failedSetup("client process " + c.index + " exited: " + tail(c)));
          }
        } else if (e.line.startsWith("ready ")) {
          c.result = Path.of(e.line.substring(6));
          merged = merged.merge(SetupResult.decode(ClientProcessMain.load(c.result)));
          pending--;
        } else {
          track(c, e.line);
        }
      }
      if (System.nanoTime() - nextTick >= 0) {
        nextTick += TimeUnit.SECONDS.toNanos(1);
        listener.progress(
            Stage.SETUP,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
            children.stream().mapToLong(c -> c.ok).sum(),
            children.stream().mapToLong(c -> c.failed).sum());
      }
      if (System.nanoTime() - deadline > 0) {
        for (Child c : children) {
          if (!c.dead && c.result == null) {
            kill(c);
            merged = merged.merge(failedSetup("client process " + c.index + " never got ready"));
          }
        }
        break;
      }
    }
    return merged;
  }

  private static SetupResult failedSetup(String problem) {
    OpStats f = new OpStats();
    f.failure(problem);
    return new SetupResult(0, 0, f, 0, 0, 0);
  }

  @Override
  public PhaseResult run(Phase phase, PhaseListener listener)
      throws IOException, InterruptedException {
    List<Child> live = new ArrayList<>();
    for (Child c : children) {
      if (c.dead) {
        continue;
      }
      c.result = null;
      c.stage = null;
      c.ok = 0;
      c.failed = 0;
      try {
        c.stdin.write("run " + phase.encode() + "\n");
        c.stdin.flush();
        live.add(c);
      } catch (IOException e) {
        kill(c);
      }
    }
    PhaseResult merged = PhaseResult.empty();
    long deadline =
        System.nanoTime()
            + TimeUnit.MILLISECONDS.toNanos(
                phase.warmupMillis() + phase.durationMillis() + spec.graceMillis() + SLACK_MILLIS);
    Stage reported = null;
    int pending = live.size();
    long nextTick = System.nanoTime();
    while (pending > 0) {
      Event e = events.poll(50, TimeUnit.MILLISECONDS);
      if (e != null && live.contains(e.child)) {
        Child c = e.child;
        if (e.line == null) {
          if (!c.dead) {
            c.dead = true;
            pending--;
            merged = merged.withProblem("client process " + c.index + " died: " + tail(c));
          }
        } else if (e.line.startsWith("done ")) {
          c.result = Path.of(e.line.substring(5));
          merged = merged.merge(PhaseResult.decode(ClientProcessMain.load(c.result)));
          c.stage = Stage.DRAIN;
          pending--;
        } else {
          track(c, e.line);
        }
      }
      // The phase's stage is the earliest of its processes', except that measuring starts when
      // the first one starts: they all got the command within milliseconds.
      Stage now = stageOf(live);
      if (now != null && (reported == null || now.compareTo(reported) > 0)) {
        reported = now;
        listener.stage(now);
      }
      if (reported != null && System.nanoTime() - nextTick >= 0) {
        nextTick = System.nanoTime() + TimeUnit.SECONDS.toNanos(1) / 4;
        Stage s = reported;
        listener.progress(
            s,
            live.stream().filter(c -> c.stage == s).mapToLong(c -> c.millis).max().orElse(0),
            live.stream().filter(c -> c.stage == s).mapToLong(c -> c.ok).sum(),
            live.stream().filter(c -> c.stage == s).mapToLong(c -> c.failed).sum());
      }
      if (System.nanoTime() - deadline > 0) {
        for (Child c : live) {
          if (!c.dead && c.result == null) {
            kill(c);
            merged = merged.withProblem("client process " + c.index + " did not finish the phase");
          }
        }
        break;
      }
    }
    if (reported != Stage.DRAIN) {
      listener.stage(Stage.DRAIN);
    }
    return merged;
  }

  private static Stage stageOf(List<Child> live) {
    Stage min = null;
    boolean anyMeasuring = false;
    for (Child c : live) {
      if (c.dead) {
        continue;
      }
      if (c.stage == null) {
        return null;
      }
      anyMeasuring |= c.stage == Stage.MEASURE;
      min = min == null || c.stage.compareTo(min) < 0 ? c.stage : min;
    }
    if (min == Stage.WARMUP && anyMeasuring) {
      return Stage.MEASURE;
    }
    return min;
  }

  private void track(Child c, String line) {
    String[] f = line.split(" ");
    try {
      if (f[0].equals("stage")) {
        Stage s = Stage.valueOf(f[1]);
        if (c.stage == null || s.compareTo(c.stage) > 0) {
          c.stage = s;
          c.ok = 0;
          c.failed = 0;
          c.millis = 0;
        }
      } else if (f[0].equals("progress") && Stage.valueOf(f[1]) == c.stage) {
        c.millis = Long.parseLong(f[2]);
        c.ok = Long.parseLong(f[3]);
        c.failed = Long.parseLong(f[4]);
      }
    } catch (RuntimeException e) {
      LOG.debug("client {}: unreadable line {}", c.index, line);
    }
  }

  private void read(Child c) {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(c.process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith(ClientProcessMain.PREFIX)) {
          events.add(new Event(c, line.substring(ClientProcessMain.PREFIX.length())));
        }
      }
    } catch (IOException e) {
      LOG.debug("client {}: output closed", c.index, e);
    }
    events.add(new Event(c, null));
  }

  private static String tail(Child c) {
    try {
      c.process.waitFor(5, TimeUnit.SECONDS);
      List<String> lines = Files.readAllLines(c.log, StandardCharsets.UTF_8);
      String last =
          lines.stream().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("(no output)");
      String exit = c.process.isAlive() ? "" : "exit code " + c.process.exitValue() + ", ";
      return exit + "last log line: " + last + " (see " + c.log + ")";
    } catch (IOException e) {
      return "see " + c.log;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "see " + c.log;
    }
  }

  private static void kill(Child c) {
    c.dead = true;
    c.process.destroyForcibly();
  }

  @Override
  public void close() throws InterruptedException {
    for (Child c : children) {
      if (c.process.isAlive()) {
        try {
          c.stdin.write("exit\n");
          c.stdin.flush();
        } catch (IOException e) {
          LOG.debug("client {} is gone", c.index);
        }
      }
    }
    for (Child c : children) {
      if (!c.process.waitFor(15, TimeUnit.SECONDS)) {
        c.process.destroyForcibly();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException | IllegalArgumentException e) {
      // shutting down already, or setup never ran
    }
  }
}
