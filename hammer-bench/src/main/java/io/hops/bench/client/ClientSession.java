package io.hops.bench.client;

import io.hops.bench.namespace.NamespaceGenerator;
import io.hops.bench.namespace.ThreadNamespace;
import io.hops.bench.workload.Op;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client threads of one JVM: each with its own {@link FileSystem} instance and its own tree of
 * the namespace. {@link #setup} builds the trees; {@link #run} runs one phase on all threads and
 * returns what they measured. Nothing the file system does (errors, hangs) escapes as an exception:
 * errors are failures of their operation, and a thread that does not come back within the grace
 * period is given up, its operation counted as failed.
 */
public final class ClientSession implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClientSession.class);
  static final long TICK_MILLIS = 250;

  private final ClientSpec spec;
  private final List<ClientThread> threads = new ArrayList<>();
  private int phases;

  public ClientSession(ClientSpec spec) {
    this.spec = spec;
    NamespaceGenerator generator =
        new NamespaceGenerator(spec.namespace(), new Path(spec.baseDir()));
    for (int t = 0; t < spec.threads(); t++) {
      String name = "c" + spec.processIndex() + "-t" + t;
      threads.add(
          new ClientThread(
              name,
              spec.processIndex() * spec.threads() + t,
              generator.forThread(name, spec.seed() * 31 + t)));
    }
  }

  /** Opens a file system per thread and builds every thread's tree, in parallel. */
  public SetupResult setup(PhaseListener listener) throws InterruptedException {
    long started = System.nanoTime();
    listener.stage(Stage.SETUP);
    OpStats failures = new OpStats();
    LongAdder dirs = new LongAdder();
    LongAdder files = new LongAdder();
    LongAdder calls = new LongAdder();
    List<Thread> workers = new ArrayList<>();
    for (ClientThread t : threads) {
      Thread w = new Thread(() -> setupThread(t, failures, dirs, files, calls), "setup-" + t.name);
      w.setDaemon(true);
      workers.add(w);
      w.start();
    }
    long deadline = started + TimeUnit.MILLISECONDS.toNanos(spec.setupTimeoutMillis());
    for (int i = 0; i < workers.size(); i++) {
      Thread w = workers.get(i);
      while (w.isAlive() && System.nanoTime() - deadline < 0) {
        w.join(TICK_MILLIS);
        listener.progress(
            Stage.SETUP,
            (System.nanoTime() - started) / 1_000_000,
            files.sum(),
            failures.failures());
      }
      if (w.isAlive()) {
        w.interrupt();
        threads.get(i).stuck = true;
        failures.failure("setup did not finish within " + spec.setupTimeoutMillis() + " ms");
      }
    }
    int ready = (int) threads.stream().filter(ClientThread::usable).count();
    return new SetupResult(
        dirs.sum(),
        files.sum(),
        failures,
        ready,
        threads.size(),
        (System.nanoTime() - started) / 1_000_000);
  }

  /** {@code calls} counts the successful mkdirs and creates, for progress. */
  private void setupThread(
      ClientThread t, OpStats failures, LongAdder dirs, LongAdder files, LongAdder calls) {
    FileSystem fs;
    String user;
    try {
      fs = open();
      user =
          spec.user() != null
              ? spec.user()
              : UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException | RuntimeException e) {
      failures.failure("open file system: " + OpStats.describe(e));
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    ThreadNamespace ns = t.namespace;
    FileOps ops = new FileOps(fs, user, ns, spec.namespace(), spec.seed() ^ t.name.hashCode());
    Set<Path> made = new HashSet<>();
    Set<Path> treeDirs = new HashSet<>(ns.dirs());
    for (Path leaf : ns.leafDirs()) {
      try {
        if (!fs.mkdirs(leaf)) {
          throw new IOException("mkdirs returned false");
        }
        calls.increment();
        for (Path p = leaf; p != null && treeDirs.contains(p); p = p.getParent()) {
          made.add(p);
        }
      } catch (IOException | RuntimeException e) {
        failures.failure("mkdirs: " + OpStats.describe(e));
      }
    }
    dirs.add(made.size());
    List<Path> created = new ArrayList<>(ns.files().size());
    for (Path f : ns.files()) {
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
      try (OutputStream out = fs.create(f, false)) {
        ops.writeContent(out);
      } catch (IOException | RuntimeException e) {
        failures.failure("create: " + OpStats.describe(e));
        continue;
      }
      created.add(f);
      files.increment();
      calls.increment();
    }
    ops.retainFiles(created);
    t.fs = fs;
    t.ops = ops;
  }

  private FileSystem open() throws IOException, InterruptedException {
    KerberosLogin.ensure(spec.conf());
    Configuration conf = new Configuration();
    spec.conf().forEach(conf::set);
    URI uri = URI.create(spec.uri());
    if (spec.user() == null) {
      return FileSystem.newInstance(uri, conf);
    }
    return UserGroupInformation.createRemoteUser(spec.user())
        .doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, conf));
  }

  /** Threads that take part in the next phase. */
  public int usableThreads() {
    return (int) threads.stream().filter(ClientThread::usable).count();
  }

  /** Runs one phase on every usable thread; returns when it is over (grace period included). */
  public PhaseResult run(Phase phase, PhaseListener listener) throws InterruptedException {
    int index = phases++;
    List<ClientThread> live = threads.stream().filter(ClientThread::usable).toList();
    ClientThread.Counters warm = new ClientThread.Counters();
    ClientThread.Counters measured = new ClientThread.Counters();
    List<ClientThread.Outcome> outcomes = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    long start = System.nanoTime();
    long measureStart = start + TimeUnit.MILLISECONDS.toNanos(phase.warmupMillis());
    long end = measureStart + TimeUnit.MILLISECONDS.toNanos(phase.durationMillis());
    CompletionClock clock = new CompletionClock(measureStart, end);
    for (ClientThread t : live) {
      ClientThread.Outcome o = new ClientThread.Outcome();
      outcomes.add(o);
      long seed = spec.seed() * 1_000_003L + index * 131L + t.name.hashCode();
      Thread w =
          new Thread(
              () -> t.loop(phase.workload(), seed, measureStart, end, warm, measured, o, clock),
              "bench-" + t.name);
      w.setDaemon(true);
      workers.add(w);
    }
    workers.forEach(Thread::start);
    if (phase.warmupMillis() > 0) {
      listener.stage(Stage.WARMUP);
      tickUntil(measureStart, start, Stage.WARMUP, warm, listener);
    }
    listener.stage(Stage.MEASURE);
    tickUntil(end, measureStart, Stage.MEASURE, measured, listener);
    listener.stage(Stage.DRAIN);

    long graceEnd = end + TimeUnit.MILLISECONDS.toNanos(spec.graceMillis());
    int stuck = 0;
    Map<Op, OpStats> stats = new EnumMap<>(Op.class);
    long paused = 0;
    for (int i = 0; i < live.size(); i++) {
      Thread w = workers.get(i);
      long wait = Math.max(1, TimeUnit.NANOSECONDS.toMillis(graceEnd - System.nanoTime()));
      w.join(wait);
      ClientThread t = live.get(i);
      Op inFlight = t.inFlight;
      if (w.isAlive()) {
        w.interrupt();
        w.join(TimeUnit.SECONDS.toMillis(1));
      }
      ClientThread.Outcome o = outcomes.get(i);
      paused += o.pausedNanos();
      Map<Op, OpStats> own = o.close();
      if (w.isAlive()) {
        stuck++;
        t.stuck = true;
        Op op = inFlight != null ? inFlight : t.inFlight;
        String message =
            "did not return within " + spec.graceMillis() + " ms after the phase ended";
        own.computeIfAbsent(op != null ? op : Op.STAT_FILE, x -> new OpStats()).failure(message);
        LOG.warn("thread {} is stuck in {}; it is left out from now on", t.name, op);
      }
      own.forEach((op, s) -> stats.computeIfAbsent(op, x -> new OpStats()).add(s));
    }
    return new PhaseResult(
        stats,
        TimeUnit.NANOSECONDS.toMillis(end - measureStart),
        TimeUnit.NANOSECONDS.toMillis(paused),
        live.size(),
        stuck,
        List.of(),
        new PhaseResult.Timeline(
            clock.longestGapMillis(), clock.longestGapAtMillis(), clock.perSecond()));
  }

  private static void tickUntil(
      long until, long since, Stage stage, ClientThread.Counters c, PhaseListener listener)
      throws InterruptedException {
    while (true) {
      long left = until - System.nanoTime();
      if (left <= 0) {
        break;
      }
      Thread.sleep(Math.min(TICK_MILLIS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))));
      listener.progress(
          stage,
          TimeUnit.NANOSECONDS.toMillis(Math.min(System.nanoTime(), until) - since),
          c.ok().sum(),
          c.failed().sum());
    }
  }

  /**
   * Lists every usable thread's tree and compares it with the files the thread believes exist. Run
   * between phases, when no thread works.
   */
  public FileCheck checkFiles() throws IOException {
    long expected = 0;
    List<String> missing = new ArrayList<>();
    List<String> unexpected = new ArrayList<>();
    long missingCount = 0;
    long unexpectedCount = 0;
    for (ClientThread t : threads) {
      if (!t.usable()) {
        continue;
      }
      Set<String> believed = new HashSet<>();
      t.ops.files().forEach(f -> believed.add(f.toUri().getPath()));
      expected += believed.size();
      Set<String> listed = new HashSet<>();
      RemoteIterator<LocatedFileStatus> it = t.fs.listFiles(t.namespace.root(), true);
      while (it.hasNext()) {
        listed.add(it.next().getPath().toUri().getPath());
      }
      for (String f : believed) {
        if (!listed.contains(f) && missingCount++ < FileCheck.EXAMPLES) {
          missing.add(f);
        }
      }
      for (String f : listed) {
        if (!believed.contains(f) && unexpectedCount++ < FileCheck.EXAMPLES) {
          unexpected.add(f);
        }
      }
    }
    return new FileCheck(expected, missing, missingCount, unexpected, unexpectedCount);
  }

  /** Closes the file systems, without waiting long for any that hangs. */
  @Override
  public void close() throws InterruptedException {
    List<Thread> closers = new ArrayList<>();
    for (ClientThread t : threads) {
      if (t.fs == null) {
        continue;
      }
      FileSystem fs = t.fs;
      Thread c =
          new Thread(
              () -> {
                try {
                  fs.close();
                } catch (IOException | RuntimeException e) {
                  LOG.debug("closing the file system of {}", t.name, e);
                }
              },
              "close-" + t.name);
      c.setDaemon(true);
      c.start();
      closers.add(c);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    for (Thread c : closers) {
      c.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    }
  }
}
