package io.hops.bench;

import io.hops.bench.client.ClientSpec;
import io.hops.bench.client.Phase;
import io.hops.bench.cluster.BenchKerberos;
import io.hops.bench.cluster.ClusterSettings;
import io.hops.bench.cluster.ExternalTarget;
import io.hops.bench.cluster.HdfsLauncher;
import io.hops.bench.cluster.HopsLauncher;
import io.hops.bench.cluster.TargetLauncher;
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
import io.hops.bench.workload.Workload;
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
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
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

  @Option(
      names = "--compare",
      paramLabel = "hdfs",
      description = "Also run Apache HDFS (NameNode + DataNode processes) and compare.")
  String compare;

  @Option(
      names = "--one-after-another",
      description =
          "With --compare: run every phase on hops, then start HDFS and run every phase on it,"
              + " instead of interleaving the two phase by phase.")
  boolean oneAfterAnother;

  @Option(
      names = "--system",
      paramLabel = "hops|hdfs",
      description = "The system to start when not comparing (default: ${DEFAULT-VALUE}).")
  String system = "hops";

  @Option(
      names = "--fs",
      paramLabel = "URI",
      description = "Measure a file system that is already running instead (no cluster started).")
  String fsUri;

  @Option(names = "--fs-name", description = "Its name in reports (default: fs).")
  String fsName = "fs";

  @Option(
      names = "--namenode-pid",
      paramLabel = "PID",
      description = "With --fs: namenode process(es) whose CPU to report (repeatable).")
  List<Long> namenodePids = new ArrayList<>();

  @Option(
      names = "--conf",
      paramLabel = "DIR",
      description = "With --fs: Hadoop client configuration (core-site.xml, hdfs-site.xml).")
  Path confDir;

  @Option(
      names = {"-w", "--workload"},
      paramLabel = "NAME",
      description =
          "spotify (default), write-heavy, hot-dir (one directory every thread shares), a mix"
              + " file (op=percent lines), raw:OP[,OP...] or"
              + " raw:all. Operations: ${sys:line.separator}  "
              + "read_file stat_file stat_dir ls_file ls_dir content_summary chmod_file chmod_dir"
              + " chown_file chown_dir set_replication rename_file create_file append_file mkdirs"
              + " delete_file")
  String workload = "spotify";

  @Option(
      names = {"-d", "--duration"},
      paramLabel = "SECONDS",
      description = "Measured seconds of each phase (default: ${DEFAULT-VALUE}).")
  int duration = 60;

  @Option(
      names = "--warmup",
      paramLabel = "SECONDS",
      description = "Unmeasured seconds before each phase (default: ${DEFAULT-VALUE}).")
  int warmup = 10;

  @Option(
      names = "--op-duration",
      paramLabel = "SECONDS",
      description =
          "After a MIXED phase, run each of its operations RAW for this long, for per-operation"
              + " namenode CPU and RAW throughput; 0 skips the sweep (default: ${DEFAULT-VALUE}).")
  int opDuration = 5;

  @Option(
      names = "--op-warmup",
      paramLabel = "SECONDS",
      description = "Warm-up of each sweep phase (default: ${DEFAULT-VALUE}).")
  int opWarmup = 2;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      description =
          "Run every phase N times, round after round; the ratio table then gives each system's"
              + " median and the median of the rounds' ratios, followed by each round's ratios"
              + " (default: ${DEFAULT-VALUE}).")
  int rounds = 1;

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
      names = "--heap",
      description =
          "Heap of every namenode, hops and HDFS alike, fixed at this size (-Xms and -Xmx;"
              + " default: ${DEFAULT-VALUE}).")
  String heap = "4g";

  @Option(
      names = "--handlers",
      description =
          "dfs.namenode.handler.count of every namenode (default: each system's stock default:"
              + " HDFS's 10; hops' 10, or over its embedded store one per core between 2 and"
              + " 10).")
  Integer handlers;

  @Option(
      names = "--db",
      paramLabel = "embedded|mariadb",
      description = "The hops metadata store (default: embedded; mariadb with --namenodes).")
  String db;

  @Option(
      names = "--namenodes",
      paramLabel = "N",
      description =
          "Start N hops namenode processes over one MariaDB and reach them as one HA nameservice"
              + " through hops-client (round-robin); reports each namenode's share and the"
              + " database's CPU and statements per operation.")
  Integer namenodes;

  @Option(
      names = "--jdbc-url",
      description =
          "With --db mariadb: e.g. jdbc:mariadb://host:3306/hops (default: $HOPS_TEST_MYSQL_URL).")
  String jdbcUrl = System.getenv("HOPS_TEST_MYSQL_URL");

  @Option(
      names = "--jdbc-user",
      description = "With --db mariadb (default: $HOPS_TEST_MYSQL_USER, or hops).")
  String jdbcUser = System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops");

  @Option(
      names = "--jdbc-password",
      description = "With --db mariadb (default: $HOPS_TEST_MYSQL_PASSWORD, or hops).")
  String jdbcPassword = System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", "hops");

  @Option(
      names = "--small-files",
      description =
          "hops keeps files up to 64 KB in the database: DB policy by default on its namenode,"
              + " hops-client's HopsDistributedFileSystem on its clients.")
  boolean smallFiles;

  @Option(names = "--no-datanode", description = "Start no DataNodes.")
  boolean noDatanode;

  @Option(
      names = "--datanodes",
      paramLabel = "N",
      description = "DataNodes to start, each reporting to every namenode (default: 1).")
  int datanodes = 1;

  @Option(names = "--depth", description = "Average depth of a file (default: 7).")
  Double depth;

  @Option(names = "--subdirs-per-dir", description = "Subdirectories per directory (default: 2).")
  Integer subdirsPerDir;

  @Option(names = "--files-per-dir", description = "Files per directory (default: 16).")
  Integer filesPerDir;

  @Option(names = "--name-length", description = "Average name length (default: 34).")
  Integer nameLength;

  @Option(
      names = "--dirs-per-thread",
      description = "Directories in each client thread's tree (default: 31).")
  Integer dirsPerThread;

  @Option(
      names = "--file-size",
      paramLabel = "BYTES",
      description = "Bytes per created or appended file (default: 0, metadata only).")
  Long fileSize;

  @Option(
      names = {"-D", "--set"},
      paramLabel = "KEY=VALUE",
      description = "A namespace.* key (as in the workload files), or a Hadoop client setting.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = "--namenode-set",
      paramLabel = "KEY=VALUE",
      description =
          "A setting of every namenode the benchmark starts, hops and HDFS alike (a key a system"
              + " does not know is ignored by it), e.g. hops.metadata.embedded.*.")
  Map<String, String> namenodeSettings = new LinkedHashMap<>();

  @Option(
      names = "--secure",
      paramLabel = "PROTECTION",
      description =
          "Run every system it starts kerberized (a KDC of its own; block tokens, SASL data"
              + " transfer, SPNEGO), with hadoop.rpc.protection and dfs.data.transfer.protection"
              + " = PROTECTION: authentication, integrity or privacy.")
  String secure;

  @Option(names = "--user", description = "Run the clients as this user (simple authentication).")
  String user;

  @Option(
      names = "--base-dir",
      description = "The run's directory in the file system (default: /hammer/<run id>).")
  String baseDir;

  @Option(
      names = "--namespace",
      paramLabel = "N",
      description =
          "Before the run, build a namespace of N files of the run's shape and file size below"
              + " /hammer-ns: hops through the DAL straight into its embedded store (checked by"
              + " fsck-namespace and a sample read back), HDFS through the client. The workload"
              + " runs on top of it.")
  long namespaceFiles;

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
    if (workload.startsWith("raw:")) {
      String list = workload.substring(4);
      rawOps.addAll(
          list.equals("all")
              ? List.of(Op.values())
              : Arrays.stream(list.split(",")).map(Op::byKey).toList());
    } else {
      mix = Mix.load(workload);
      fileKeys = mix.source();
    }
    NamespaceSpec ns = namespace(fileKeys);
    List<Phase> phases = phases(mix, rawOps);

    Map<String, String> hadoopConf = new LinkedHashMap<>();
    settings.forEach(
        (k, v) -> {
          if (!k.startsWith("namespace.")) {
            hadoopConf.put(k, v);
          }
        });
    if (namespaceFiles < 0) {
      throw new IllegalArgumentException("--namespace takes N >= 0 files");
    }
    BigNamespace big = namespaceFiles > 0 ? new BigNamespace(namespaceFiles, ns, seed) : null;
    if (secure != null && (fsUri != null || user != null)) {
      throw new IllegalArgumentException(
          "--secure secures the systems the benchmark starts, with its own clients' login: not"
              + " with --fs or --user");
    }
    try (BenchKerberos kerberos = secure == null ? null : BenchKerberos.start(work, secure)) {
      return run(now, started, out, work, mix, rawOps, ns, phases, hadoopConf, big, kerberos);
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
      BenchKerberos kerberos)
      throws Exception {
    List<TargetLauncher> launchers = launchers(work, out, hadoopConf, big, kerberos);
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
            out);
    printPlan(mix, rawOps, ns, out);

    BenchRunner runner = new BenchRunner(plan, this.out);
    List<SystemRun> runs = new ArrayList<>();
    if (oneAfterAnother) {
      for (TargetLauncher l : launchers) {
        runs.add(runner.run(l));
      }
    } else {
      runs.addAll(runner.runInterleaved(launchers));
    }
    BenchReport report =
        new BenchReport(
            now.toString(),
            mix != null ? mix.name() : workload,
            mix,
            settingsMap(ns, launchers),
            MachineInfo.describe(),
            runs);
    return finish(report, out, work);
  }

  private NamespaceSpec namespace(Properties fileKeys) {
    Properties p = new Properties();
    p.putAll(fileKeys);
    settings.forEach(
        (k, v) -> {
          if (k.startsWith("namespace.")) {
            p.setProperty(k, v);
          }
        });
    putIf(p, "namespace.depth", depth);
    putIf(p, "namespace.subdirs-per-dir", subdirsPerDir);
    putIf(p, "namespace.files-per-dir", filesPerDir);
    putIf(p, "namespace.name-length", nameLength);
    putIf(p, "namespace.dirs-per-thread", dirsPerThread);
    putIf(p, "namespace.file-size", fileSize);
    return NamespaceSpec.SPOTIFY.with(p);
  }

  private static void putIf(Properties p, String key, Object value) {
    if (value != null) {
      p.setProperty(key, value.toString());
    }
  }

  /** The phases of one round, {@link #rounds} times; rounds after the first named by round. */
  private List<Phase> phases(Mix mix, List<Op> rawOps) {
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds takes N >= 1, not " + rounds);
    }
    List<Phase> round = round(mix, rawOps);
    List<Phase> phases = new ArrayList<>(round);
    for (int r = 2; r <= rounds; r++) {
      for (Phase p : round) {
        phases.add(
            new Phase(
                BenchReport.inRound(p.name(), r),
                p.workload(),
                p.warmupMillis(),
                p.durationMillis()));
      }
    }
    return phases;
  }

  private List<Phase> round(Mix mix, List<Op> rawOps) {
    List<Phase> phases = new ArrayList<>();
    if (mix != null) {
      phases.add(
          new Phase(BenchReport.MIX_PHASE, Workload.mixed(mix), warmup * 1000L, duration * 1000L));
      if (opDuration > 0) {
        for (Op op : mix.ops()) {
          phases.add(
              new Phase("raw:" + op.key(), Workload.raw(op), opWarmup * 1000L, opDuration * 1000L));
        }
      }
    } else {
      for (Op op : rawOps) {
        phases.add(
            new Phase("raw:" + op.key(), Workload.raw(op), warmup * 1000L, duration * 1000L));
      }
    }
    return phases;
  }

  private List<TargetLauncher> launchers(
      Path work, Path out, Map<String, String> hadoopConf, BigNamespace big, BenchKerberos kerberos)
      throws IOException {
    if (fsUri != null && big != null) {
      throw new UnsupportedOperationException(
          "--namespace builds into the systems the benchmark starts, not into --fs " + fsUri);
    }
    if (fsUri != null) {
      Map<String, String> conf = new LinkedHashMap<>();
      if (confDir != null) {
        Configuration c = new Configuration(false);
        for (String name : new String[] {"core-site.xml", "hdfs-site.xml"}) {
          Path f = confDir.resolve(name);
          if (Files.isRegularFile(f)) {
            c.addResource(new org.apache.hadoop.fs.Path(f.toAbsolutePath().toUri()));
          }
        }
        c.forEach(e -> conf.put(e.getKey(), e.getValue()));
      }
      conf.putAll(hadoopConf);
      return List.of(TargetLauncher.of(new ExternalTarget(fsName, fsUri, conf, namenodePids)));
    }
    if (db == null) {
      db = namenodes != null ? "mariadb" : "embedded";
    }
    if (!db.equals("embedded") && !db.equals("mariadb")) {
      throw new IllegalArgumentException("--db is embedded or mariadb, not " + db);
    }
    if (db.equals("mariadb") && jdbcUrl == null) {
      throw new IllegalArgumentException("--db mariadb needs --jdbc-url");
    }
    if (namenodes != null && (namenodes < 1 || !db.equals("mariadb"))) {
      throw new IllegalArgumentException("--namenodes takes N >= 1 and a MariaDB (--db mariadb)");
    }
    ClusterSettings s =
        new ClusterSettings(
            heap,
            handlers,
            work,
            out.resolve("logs"),
            System.getProperty("java.class.path"),
            db,
            jdbcUrl,
            jdbcUser,
            jdbcPassword,
            noDatanode ? 0 : datanodes,
            namenodes,
            smallFiles,
            namenodeSettings,
            kerberos);
    if (compare != null) {
      if (!compare.equalsIgnoreCase("hdfs")) {
        throw new IllegalArgumentException("--compare takes hdfs, not " + compare);
      }
      return List.of(new HopsLauncher(s, big), new HdfsLauncher(s, big));
    }
    return switch (system.toLowerCase(Locale.ROOT)) {
      case "hops" -> List.of(new HopsLauncher(s, big));
      case "hdfs" -> List.of(new HdfsLauncher(s, big));
      default -> throw new IllegalArgumentException("--system is hops or hdfs, not " + system);
    };
  }

  private void printPlan(Mix mix, List<Op> rawOps, NamespaceSpec ns, Path outDir) {
    out.println("hammer-bench: results in " + outDir);
    if (mix != null) {
      out.printf(
          "workload: MIXED %s, %d s warm-up + %d s measured%s%n",
          mix.name(),
          warmup,
          duration,
          opDuration > 0
              ? ", then each of its "
                  + mix.ops().size()
                  + " operations RAW for "
                  + opDuration
                  + " s"
              : "");
    } else {
      out.printf(
          "workload: RAW %s, %d s warm-up + %d s measured each%n",
          rawOps.stream().map(Op::key).toList(), warmup, duration);
    }
    if (rounds > 1) {
      out.printf("rounds: %d, every phase once in each%n", rounds);
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
    m.put("warmupSeconds", warmup);
    m.put("durationSeconds", duration);
    m.put("rounds", rounds);
    m.put("opSweepSeconds", opDuration);
    m.put("namenodeHeap", heap);
    m.put("namenodeHandlers", handlers == null ? "stock" : handlers);
    m.put("hopsStore", db);
    m.put("security", secure == null ? "simple" : "kerberos, protection " + secure);
    if (namenodes != null) {
      m.put("hopsNamenodes", namenodes);
    }
    Map<String, Object> namespace = new LinkedHashMap<>();
    ns.toProperties()
        .forEach((k, v) -> namespace.put(k.substring("namespace.".length()), Double.valueOf(v)));
    m.put("namespace", namespace);
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
