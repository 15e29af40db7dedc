package io.hops.bench;

import io.hops.bench.cluster.BenchKerberos;
import io.hops.bench.cluster.ClusterSettings;
import io.hops.bench.cluster.ExternalTarget;
import io.hops.bench.cluster.HdfsLauncher;
import io.hops.bench.cluster.HopsLauncher;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.namespace.BigDirectory;
import io.hops.bench.namespace.BigNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/**
 * {@code hops bench}'s options on the systems it measures: which it starts (hops, HDFS, or both
 * side by side) or reaches ({@code --fs}), and how it starts them (heap, handlers, metadata store,
 * namenodes, datanodes, security).
 */
final class SystemOptions {
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

  /**
   * One launcher per system measured, or one for the file system already running; checks that the
   * options go together.
   */
  List<TargetLauncher> launchers(
      Path work,
      Path out,
      Map<String, String> hadoopConf,
      BigNamespace big,
      BigDirectory bigDir,
      BenchKerberos kerberos)
      throws IOException {
    if (fsUri != null && bigDir != null) {
      throw new UnsupportedOperationException(
          "--workload big-dir makes its directory in the systems the benchmark starts, not in --fs "
              + fsUri);
    }
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
      return List.of(new HopsLauncher(s, big, bigDir), new HdfsLauncher(s, big, bigDir));
    }
    return switch (system.toLowerCase(Locale.ROOT)) {
      case "hops" -> List.of(new HopsLauncher(s, big, bigDir));
      case "hdfs" -> List.of(new HdfsLauncher(s, big, bigDir));
      default -> throw new IllegalArgumentException("--system is hops or hdfs, not " + system);
    };
  }
}
