package io.hops.bench.cluster;

import io.hops.bench.namespace.BigDirectory;
import io.hops.bench.namespace.BigNamespace;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An Apache HDFS NameNode process (formatted first) and a DataNode process, both from the
 * hadoop-hdfs jar, with the same heap and handler count as the hops namenode.
 */
public final class HdfsLauncher implements TargetLauncher {
  private static final String NAMENODE = "org.apache.hadoop.hdfs.server.namenode.NameNode";

  private final ClusterSettings s;
  private final BigNamespace namespace;
  private final BigDirectory bigDirectory;

  public HdfsLauncher(ClusterSettings settings) {
    this(settings, null, null);
  }

  /**
   * With {@code namespace} (null: none) made through the client once the cluster serves, and {@code
   * bigDirectory} (null: none) made in a NameNode in this process and saved as the image the
   * NameNode process starts from.
   */
  public HdfsLauncher(ClusterSettings settings, BigNamespace namespace, BigDirectory bigDirectory) {
    this.s = settings;
    this.namespace = namespace;
    this.bigDirectory = bigDirectory;
  }

  @Override
  public String system() {
    return "hdfs";
  }

  @Override
  public Target start() throws IOException, InterruptedException {
    Path dir = Files.createDirectories(s.workDir().resolve("hdfs"));
    int rpc = SiteFiles.freePort();
    int http = SiteFiles.freePort();
    String uri = "hdfs://127.0.0.1:" + rpc;
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put("dfs.namenode.rpc-address", SiteFiles.loopback(rpc));
    hdfs.put("dfs.namenode.http-address", SiteFiles.loopback(http));
    hdfs.put("dfs.namenode.secondary.http-address", SiteFiles.loopback(0));
    hdfs.put("dfs.namenode.name.dir", dir.resolve("name").toUri().toString());
    int handlers =
        s.handlers(hdfs, org.apache.hadoop.hdfs.DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_DEFAULT);
    hdfs.put("dfs.namenode.safemode.extension", "0");
    hdfs.put("dfs.namenode.safemode.min.datanodes", "0");
    hdfs.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    hdfs.put("dfs.replication", "1");
    Map<String, String> facts = new LinkedHashMap<>();
    s.addSecurity(hdfs, facts, false);
    s.addNamenodeSettings(hdfs, facts);
    Path conf =
        SiteFiles.write(
            s.logDir().resolve("hdfs-namenode-conf"),
            Map.of("fs.defaultFS", uri, "hadoop.tmp.dir", dir.resolve("tmp").toString()),
            hdfs);
    String classpath = conf + File.pathSeparator + s.classpath();
    List<String> jvm = new ArrayList<>(s.serverJvm(SiteFiles.heap(s.heap())));
    jvm.add(SiteFiles.QUIET_LOGGING);
    if (bigDirectory != null) {
      facts.putAll(bigDirectory.buildHdfs(dir.resolve("name").toFile()));
    } else {
      format(jvm, classpath);
    }
    JavaProcess nn =
        JavaProcess.start(
            "hdfs namenode",
            jvm,
            classpath,
            NAMENODE,
            List.of(),
            s.logDir().resolve("hdfs-namenode.log"));
    facts.put("store", "Apache HDFS NameNode: in memory, edit log in " + dir.resolve("name"));
    facts.put("namenode", "1 Apache HDFS NameNode, pid " + nn.pid() + ", " + SiteFiles.shown(jvm));
    facts.put("handlers", s.handlersFact(handlers));
    facts.put("namenode log", nn.log().toString());
    ProcessTarget target = Processes.withDatanode(system(), uri, nn, s, dir.resolve("data"), facts);
    if (namespace != null) {
      try {
        facts.putAll(namespace.buildThroughClient(uri, target.clientConf()));
      } catch (IOException | InterruptedException | RuntimeException e) {
        target.close();
        throw e;
      }
    }
    return target;
  }

  private void format(List<String> jvm, String classpath) throws IOException, InterruptedException {
    try (JavaProcess format =
        JavaProcess.start(
            "hdfs format",
            jvm,
            classpath,
            NAMENODE,
            List.of("-format", "-nonInteractive"),
            s.logDir().resolve("hdfs-format.log"))) {
      int rc = format.waitFor(ClusterSettings.STARTUP_SECONDS, TimeUnit.SECONDS);
      if (rc != 0) {
        throw new IOException("formatting the HDFS NameNode failed:\n" + format.logTail(15));
      }
    }
  }
}
