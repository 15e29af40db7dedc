package io.hops.bench.cluster;

import io.hops.bench.namespace.BigDirectory;
import io.hops.bench.namespace.BigNamespace;
import io.hops.common.HopsConfig;
import io.hops.namenode.cli.HopsMain;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hops namenode process ({@code HopsMain namenode --conf DIR}) over a fresh metadata store (the
 * embedded one by default, or a MariaDB), plus a stock DataNode when one can register; with {@code
 * --namenodes N}, {@link HopsNamenodes}.
 */
public final class HopsLauncher implements TargetLauncher {
  private final ClusterSettings s;
  private final BigNamespace namespace;
  private final BigDirectory bigDirectory;

  public HopsLauncher(ClusterSettings settings) {
    this(settings, null, null);
  }

  /**
   * With {@code namespace} and {@code bigDirectory} (null: none) built into the store before the
   * namenode starts.
   */
  public HopsLauncher(ClusterSettings settings, BigNamespace namespace, BigDirectory bigDirectory) {
    this.s = settings;
    this.namespace = namespace;
    this.bigDirectory = bigDirectory;
  }

  @Override
  public String system() {
    return "hops";
  }

  @Override
  public Target start() throws IOException, InterruptedException {
    if ((namespace != null || bigDirectory != null)
        && (s.namenodes() != null || !s.store().equals("embedded"))) {
      throw new UnsupportedOperationException(
          "bench --namespace and --workload big-dir: build into the embedded store only, not with"
              + " --db mariadb or --namenodes");
    }
    if (s.namenodes() != null) {
      if (s.kerberos() != null) {
        throw new UnsupportedOperationException(
            "bench --secure: one namenode per system, not --namenodes");
      }
      return HopsNamenodes.start(s);
    }
    Path dir = Files.createDirectories(s.workDir().resolve("hops"));
    int port = SiteFiles.freePort();
    String uri = "hdfs://127.0.0.1:" + port;
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put(NamenodeConfig.RPC_PORT, String.valueOf(port));
    // Not the default 9870: another benchmark or cluster on this machine may hold it.
    hdfs.put(NamenodeConfig.HTTP_PORT, String.valueOf(SiteFiles.freePort()));
    hdfs.put("dfs.namenode.rpc-bind-host", "127.0.0.1");
    int handlers =
        s.handlers(
            hdfs,
            NamenodeConfig.defaultHandlerCount(
                s.store().equals("mariadb") ? "mysql" : HopsConfig.METADATA_ENGINE_DEFAULT,
                Runtime.getRuntime().availableProcessors()));
    Map<String, String> facts = new LinkedHashMap<>();
    if (s.smallFiles()) {
      hdfs.put(HopsConfig.SMALL_FILE_DB_BY_DEFAULT, "true");
      facts.put("small files", "in the database (DB by default), clients with hops-client");
    }
    if (s.store().equals("mariadb")) {
      hdfs.put(HopsConfig.METADATA_ENGINE, "mysql");
      hdfs.put(HopsConfig.JDBC_URL, s.jdbcUrl());
      hdfs.put(HopsConfig.JDBC_USER, s.jdbcUser());
      hdfs.put(HopsConfig.JDBC_PASSWORD, s.jdbcPassword());
      hdfs.put(HopsConfig.POOL_SIZE, String.valueOf(HopsNamenodes.poolSize(handlers)));
      facts.put("store", "mariadb " + s.jdbcUrl());
    } else {
      hdfs.put(HopsConfig.METADATA_ENGINE, "embedded");
      hdfs.put(HopsConfig.EMBEDDED_DIR, dir.resolve("metadata").toString());
      facts.put("store", "embedded (in the namenode process), " + dir.resolve("metadata"));
    }
    s.addSecurity(hdfs, facts, false);
    s.addNamenodeSettings(hdfs, facts);
    Path conf =
        SiteFiles.write(
            s.logDir().resolve("hops-namenode-conf"), Map.of("fs.defaultFS", uri), hdfs);
    if (namespace != null) {
      facts.putAll(namespace.buildHops(hdfs));
    }
    if (bigDirectory != null) {
      facts.putAll(bigDirectory.buildHops(hdfs));
    }
    List<String> jvm = s.serverJvm(SiteFiles.namenodeJvm(s.heap()));
    long launched = System.nanoTime();
    JavaProcess nn =
        JavaProcess.start(
            "hops namenode",
            jvm,
            conf + File.pathSeparator + s.classpath(),
            HopsMain.class.getName(),
            List.of("namenode", "--conf", conf.toString()),
            s.logDir().resolve("hops-namenode.log"));
    if (namespace != null) {
      // The restart over the namespace: from the process's start to its first answer.
      Processes.awaitServing(uri, nn, "/hammer");
      facts.put(
          "namenode start",
          String.format(
              "serving %.1f s after its process started, over the namespace built above (RSS %d"
                  + " MB then)",
              (System.nanoTime() - launched) / 1e9, Processes.rssMegabytes(nn.pid())));
    }
    facts.put("namenode", "1 hops namenode, pid " + nn.pid() + ", " + SiteFiles.shown(jvm));
    facts.put("handlers", s.handlersFact(handlers));
    facts.put("namenode log", nn.log().toString());
    return Processes.withDatanode(system(), uri, nn, s, dir.resolve("data"), facts);
  }
}
