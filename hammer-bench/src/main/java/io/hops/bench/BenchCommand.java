package io.hops.bench;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.Phase;
import io.hops.bench.cluster.BenchKerberos;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.namespace.BigDirectory;
import io.hops.bench.namespace.BigNamespace;
import io.hops.bench.namespace.NamespaceSpec;
import io.hops.bench.report.BenchReport;
import io.hops.bench.report.CsvReport;
import io.hops.bench.report.Json;
import io.hops.bench.report.MachineInfo;
import io.hops.bench.report.Summary;
import io.hops.bench.report.SystemRun;
import io.hops.bench.report.Tables;
import io.hops.bench.report.ThroughputChart;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Op;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code hops bench}: the metadata benchmark (see docs/benchmarks.md). */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "The metadata benchmark: builds a namespace shaped like Spotify's, then runs a MIXED"
          + " workload (operations drawn by percentage) or RAW ones (one operation flat out) with"
          + " client threads in one or more client JVMs, a warm-up and a fixed duration.",
      "By default it starts a hops namenode and measures it; --compare hdfs also starts an Apache"
          + " HDFS NameNode and DataNode, runs the identical workload on them and prints hops/HDFS"
          + " ratios. The two systems run side by side, phase by phase (each phase on one, then on"
          + " the other, their order swapped from phase to phase), so that both measurements of a"
          + " phase come from the same minutes of a shared machine. Writes summary.json,"
          + " results.csv and throughput.png to --out."
    })
final class BenchCommand implements Callable<Integer> {
  private final PrintStream out;

  BenchCommand(PrintStream out) {
    this.out = out;
  }

  @Mixin SystemOptions systems = new SystemOptions();

  @Mixin WorkloadOptions load = new WorkloadOptions();

  @Option(
      names = {"-t", "--threads"},
      description = "Client threads per client process (default: ${DEFAULT-VALUE}).")
  int threads = 16;

  @Option(
      names = {"--client-processes", "--clients-processes"},
      paramLabel = "N",
      description = "Client JVMs, results merged; 0 runs the clients in this JVM (default: 1).")
  int clientProcesses = 1;

  @Option(
      names = "--client-heap",
      description = "-Xmx of each client JVM (default: ${DEFAULT-VALUE}).")
  String clientHeap = "1g";

  @Option(
      names = {"-D", "--set"},
      paramLabel = "KEY=VALUE",
      description = "A namespace.* key (as in the workload files), or a Hadoop client setting.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--user", description = "Run the clients as this user (simple authentication).")
  String user;

  @Option(
      names = "--base-dir",
      description = "The run's directory in the file system (default: /hammer/<run id>).")
  String baseDir;

  @Option(
      names = "--snapshots",
      paramLabel = "N",
      description =
          "Make the run's base directory snapshottable on every system once its namespace is"
              + " built, and take N snapshots of it at even intervals of each measured window, the"
              + " first as it opens; hops is started with hops.namenode.snapshots.enabled=true"
              + " (default: 0, none).")
  int snapshots;

  @Option(names = "--seed", description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(
      names = "--grace",
      paramLabel = "SECONDS",
      description =
          "How long an operation may still run after a phase ends before its thread is given up"
              + " (default: ${DEFAULT-VALUE}).")
  int grace = 10;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Where results and logs go (default: target/bench-results/<date-time>).")
  Path outDir;

  @Option(
      names = "--work-dir",
      paramLabel = "DIR",
      description = "Metadata and block data of the started systems (default: DIR/work).")
  Path workDir;

  @Mixin NamespaceOptions shape = new NamespaceOptions();

  @Override
  public Integer call() throws Exception {
    LocalDateTime now = LocalDateTime.now();
    String started = now.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path out =
        (outDir != null ? outDir : Path.of("target", "bench-results", started)).toAbsolutePath();
    Files.createDirectories(out);
    Path work = (workDir != null ? workDir : out.resolve("work")).toAbsolutePath();

    Mix mix = null;
    List<Op> rawOps = new ArrayList<>();
    Properties fileKeys = new Properties();
    if (load.workload.startsWith("raw:")) {
      String list = load.workload.substring(4);
      rawOps.addAll(
          list.equals("all")
              ? List.of(Op.values())
              : Arrays.stream(list.split(",")).map(Op::byKey).toList());
    } else {
      mix = Mix.load(load.workload);
      fileKeys = mix.source();
    }
    BigDirectory bigDir = null;
    if (mix != null && mix.bigDirectory()) {
      bigDir = new BigDirectory(load.bigDirFiles);
      mix =
          mix.with(Mix.BIG_DIRECTORY_FILES, String.valueOf(load.bigDirFiles))
              .with(
                  Mix.BIG_DIRECTORY_THREADS,
                  String.valueOf(threads * Math.max(1, clientProcesses)));
    }
    NamespaceSpec ns = shape.namespace(fileKeys, settings);
    List<Phase> phases = load.phases(mix, rawOps);

    Map<String, String> hadoopConf = new LinkedHashMap<>();
    settings.forEach(
        (k, v) -> {
          if (!k.startsWith("namespace.")) {
            hadoopConf.put(k, v);
          }
        });
    if (shape.namespaceFiles < 0) {
      throw new IllegalArgumentException("--namespace takes N >= 0 files");
    }
    BigNamespace big =
        shape.namespaceFiles > 0 ? new BigNamespace(shape.namespaceFiles, ns, seed) : null;
    if (systems.secure != null && (systems.fsUri != null || user != null)) {
      throw new IllegalArgumentException(
          "--secure secures the systems the benchmark starts, with its own clients' login: not"
              + " with --fs or --user");
    }
    try (BenchKerberos kerberos =
        systems.secure == null ? null : BenchKerberos.start(work, systems.secure)) {
      return run(
          now, started, out, work, mix, rawOps, ns, phases, hadoopConf, big, bigDir, kerberos);
    }
  }

  private int run(
      LocalDateTime now,
      String started,
      Path out,
      Path work,
      Mix mix,
      List<Op> rawOps,
      NamespaceSpec ns,
      List<Phase> phases,
      Map<String, String> hadoopConf,
      BigNamespace big,
      BigDirectory bigDir,
      BenchKerberos kerberos)
      throws Exception {
    if (snapshots < 0 || (snapshots > 0 && (systems.secure != null || user != null))) {
      throw new IllegalArgumentException(
          "--snapshots takes N >= 0, and is taken by the benchmark's own simple-auth user: not"
              + " with --secure or --user");
    }
    if (snapshots > 0) {
      systems.namenodeSettings.put(NamenodeConfig.SNAPSHOTS_ENABLED, "true");
    }
    List<TargetLauncher> launchers =
        systems.launchers(work, out, hadoopConf, big, bigDir, kerberos);
    String runId = "r" + started + "-" + Long.toHexString(System.nanoTime() & 0xffff);
    ClientSpec client =
        new ClientSpec(
            "",
            Map.of(),
            threads,
            0,
            baseDir != null ? baseDir : "/hammer/" + runId,
            ns,
            seed,
            user,
            grace * 1000L,
            30 * 60 * 1000L);
    BenchRunner.Plan plan =
        new BenchRunner.Plan(
            client,
            clientProcesses,
            List.of("-Xmx" + clientHeap, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
            hadoopConf,
            phases,
            out,
            snapshots);
    printPlan(mix, rawOps, ns, out);

    BenchRunner runner = new BenchRunner(plan, this.out);
    List<SystemRun> runs = new ArrayList<>();
    if (systems.oneAfterAnother) {
      for (TargetLauncher l : launchers) {
        runs.add(runner.run(l));
      }
    } else {
      runs.addAll(runner.runInterleaved(launchers));
    }
    BenchReport report =
        new BenchReport(
            now.toString(),
            mix != null ? mix.name() : load.workload,
            mix,
            settingsMap(ns, launchers),
            MachineInfo.describe(),
            runs);
    return finish(report, out, work);
  }

  private void printPlan(Mix mix, List<Op> rawOps, NamespaceSpec ns, Path outDir) {
    out.println("hammer-bench: results in " + outDir);
    if (mix != null) {
      out.printf(
          "workload: MIXED %s, %d s warm-up + %d s measured%s%n",
          mix.name(),
          load.warmup,
          load.duration,
          load.opDuration > 0
              ? ", then each of its "
                  + mix.ops().size()
                  + " operations RAW for "
                  + load.opDuration
                  + " s"
              : "");
    } else {
      out.printf(
          "workload: RAW %s, %d s warm-up + %d s measured each%n",
          rawOps.stream().map(Op::key).toList(), load.warmup, load.duration);
    }
    if (load.rounds > 1) {
      out.printf("rounds: %d, every phase once in each%n", load.rounds);
    }
    out.printf(
        "clients: %d thread(s) in each of %d client process(es)%n",
        threads, Math.max(1, clientProcesses));
    out.printf(
        "namespace per thread: %d directories (%d subdirectories each, files at depth %.1f on"
            + " average), %d files per directory, names of %d characters, files of %d bytes%n",
        ns.dirsPerThread(),
        ns.subdirsPerDir(),
        ns.depth(),
        ns.filesPerDir(),
        ns.nameLength(),
        ns.fileSize());
  }

  private Map<String, Object> settingsMap(NamespaceSpec ns, List<TargetLauncher> launchers) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("systems", launchers.stream().map(TargetLauncher::system).toList());
    m.put("threadsPerProcess", threads);
    m.put("clientProcesses", Math.max(1, clientProcesses));
    m.put("warmupSeconds", load.warmup);
    m.put("durationSeconds", load.duration);
    m.put("rounds", load.rounds);
    m.put("opSweepSeconds", load.opDuration);
    m.put("namenodeHeap", systems.heap);
    m.put("namenodeHandlers", systems.handlers == null ? "stock" : systems.handlers);
    m.put("hopsStore", systems.db);
    m.put("security", systems.secure == null ? "simple" : "kerberos, protection " + systems.secure);
    if (systems.namenodes != null) {
      m.put("hopsNamenodes", systems.namenodes);
    }
    Map<String, Object> namespace = new LinkedHashMap<>();
    ns.toProperties()
        .forEach((k, v) -> namespace.put(k.substring("namespace.".length()), Double.valueOf(v)));
    m.put("namespace", namespace);
    m.put("snapshotsPerPhase", snapshots);
    m.put("seed", seed);
    return m;
  }

  private int finish(BenchReport report, Path out, Path work) throws IOException {
    Path json = out.resolve("summary.json");
    Path csv = out.resolve("results.csv");
    Path png = out.resolve("throughput.png");
    Files.writeString(json, Json.write(Summary.of(report)), StandardCharsets.UTF_8);
    Files.writeString(csv, CsvReport.of(report), StandardCharsets.UTF_8);
    ThroughputChart.write(report, png);
    if (report.systems().size() == 2) {
      this.out.println();
      this.out.print(Tables.comparison(report, report.systems().get(0), report.systems().get(1)));
    }
    this.out.println();
    this.out.println("summary: " + json);
    this.out.println("csv:     " + csv);
    this.out.println("chart:   " + png);
    this.out.println("logs:    " + out.resolve("logs"));
    if (workDir == null && Files.isDirectory(work)) {
      deleteTree(work);
    }
    boolean complete =
        report.systems().stream().allMatch(s -> s.problems().isEmpty() && !s.phases().isEmpty());
    return complete ? 0 : 1;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    }
  }
}
