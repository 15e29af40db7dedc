package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.TableMapping;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops cluster}: a whole local cluster in one process: the configured metadata store
 * (embedded by default), one or more namenodes with their web UIs (the first on the configured
 * ports, the others on the next ports up), and stock DataNodes with their own data directories,
 * reporting to every namenode.
 */
@Command(
    name = "cluster",
    description =
        "Run a local cluster in one process: the metadata store, namenodes (RPC and web UI) and"
            + " datanodes, until Ctrl-C.")
final class ClusterCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where the datanodes keep blocks: DIR/datanode-N (default: ${DEFAULT-VALUE}).")
  File dataDir = new File("data");

  @Option(
      names = "--datanodes",
      paramLabel = "N",
      description = "How many datanodes (default: ${DEFAULT-VALUE}).")
  int datanodes = 3;

  @Option(
      names = "--namenodes",
      paramLabel = "N",
      description =
          "How many namenodes (default: ${DEFAULT-VALUE}); they elect a leader among themselves.")
  int namenodes = 1;

  @Option(
      names = "--racks",
      paramLabel = "R",
      description =
          "Spread the datanodes over R racks, /rack-1 to /rack-R, by a table mapping written to"
              + " DATA_DIR/topology.table (default: one rack, /default-rack).")
  int racks = 0;

  @Option(
      names = "--secure",
      description =
          "Kerberize the cluster: an embedded KDC, keytabs, krb5.conf and a client configuration"
              + " under DATA_DIR/secure; Kerberos RPC, block tokens, SASL data transfer, SPNEGO.")
  boolean secure;

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.load(confDir);
    SecureLocalCluster kerberos = secure ? SecureLocalCluster.start(dataDir) : null;
    try {
      return run(conf, kerberos);
    } finally {
      if (kerberos != null) {
        kerberos.close();
      }
    }
  }

  private Integer run(Configuration conf, SecureLocalCluster kerberos) throws Exception {
    Configuration dnConf = conf;
    if (kerberos != null) {
      kerberos.secure(conf);
      dnConf = kerberos.datanodes(conf);
    }
    if (racks > 0) {
      writeTopology(conf);
    }
    List<HopsNameNode> nns = new ArrayList<>();
    List<Process> children = new ArrayList<>();
    List<InetSocketAddress> addresses = new ArrayList<>();
    LocalDatanodes dns;
    try {
      HopsNameNode first = HopsNameNode.start(conf);
      nns.add(first);
      addresses.add(first.address());
      boolean embedded = first.storage().engine().equals("embedded");
      for (int i = 1; i < namenodes; i++) {
        Configuration c = portsOf(conf, i);
        if (embedded) {
          // One process may open an embedded store once: the others share its storage.
          HopsNameNode nn = HopsNameNode.start(c, first.storage());
          nns.add(nn);
          addresses.add(nn.address());
        } else {
          // A server database: the other namenodes are processes of their own, as in production.
          children.add(startProcess(c, i));
          addresses.add(
              new InetSocketAddress(
                  first.address().getHostString(),
                  c.getInt(NamenodeConfig.RPC_PORT, NamenodeConfig.RPC_PORT_DEFAULT)));
        }
      }
      dns = LocalDatanodes.start(dnConf, first, addresses, dataDir, datanodes, racks > 0);
      if (kerberos != null) {
        Configuration names = new Configuration(false);
        io.hops.datanode.DatanodeLauncher.setNamenodes(names, addresses);
        java.util.Map<String, String> ns = new java.util.TreeMap<>();
        names.forEach(e -> ns.put(e.getKey(), e.getValue()));
        kerberos.writeClientFiles(ns, java.net.URI.create(first.uri()));
      }
    } catch (Exception e) {
      children.forEach(Process::destroy);
      for (int i = nns.size() - 1; i >= 0; i--) {
        nns.get(i).close();
      }
      throw e;
    }
    String withConf = confDir.equals("conf") ? "" : " --conf " + confDir;
    System.out.println();
    System.out.println("hops cluster running");
    for (HopsNameNode nn : nns) {
      System.out.println(
          "  namenode   "
              + nn.uri()
              + "  web UI "
              + (nn.httpUri() == null ? "off" : nn.httpUri())
              + (nn.election().isLeader() ? "  (leader)" : ""));
    }
    for (int i = 0; i < children.size(); i++) {
      InetSocketAddress a = addresses.get(nns.size() + i);
      System.out.println(
          "  namenode   hdfs://"
              + a.getHostString()
              + ":"
              + a.getPort()
              + "  (process "
              + children.get(i).pid()
              + ", log "
              + new File(dataDir, "namenode-" + (nns.size() + i) + ".log").getPath()
              + ")");
    }
    System.out.println(
        "  datanodes  " + datanodes + ", blocks in " + dataDir.getAbsolutePath() + "/datanode-N");
    if (racks > 0) {
      System.out.println(
          "  racks      "
              + racks
              + ", datanode-N on /rack-((N-1) mod "
              + racks
              + " + 1), mapped by "
              + new File(dataDir, "topology.table").getAbsolutePath());
    }
    if (nns.get(0).safeMode().inStartupSafeMode()) {
      System.out.println(
          "  safe mode  ON while the cluster starts: writes wait until the datanodes' blocks are"
              + " counted (bin/hops dfsadmin"
              + withConf
              + " -safemode wait)");
    }
    if (kerberos != null) {
      // Every call needs credentials: the secure lines replace the plain bin/hops ones.
      kerberos.instructions().forEach(l -> System.out.println("  " + l));
    } else {
      printTry(withConf);
    }
    System.out.println("stop with Ctrl-C");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  dns.close();
                  children.forEach(Process::destroy);
                  for (int i = nns.size() - 1; i >= 0; i--) {
                    nns.get(i).close();
                  }
                  stopped.countDown();
                }));
    stopped.await();
    return 0;
  }

  /** The plain cluster's first commands to try. */
  private void printTry(String withConf) {
    System.out.println("try, in another terminal:");
    System.out.println("  bin/hops dfs" + withConf + " -mkdir -p /user/$USER");
    System.out.println("  bin/hops dfs" + withConf + " -put README.md /user/$USER/");
    System.out.println("  bin/hops dfs" + withConf + " -cat /user/$USER/README.md");
    System.out.println("  bin/hops dfsadmin" + withConf + " -report");
    if (racks > 0) {
      System.out.println("  bin/hops dfsadmin" + withConf + " -printTopology");
    }
    System.out.println("  bin/hops fsck" + withConf + " / -files -blocks -locations");
    System.out.println("  bin/hops namenodes" + withConf);
  }

  /**
   * Writes the table that puts datanode i on rack {@code (i-1) mod R + 1} and points the namenodes
   * at it: Hadoop's TableMapping, asked for the datanodes' host names (they share one address).
   */
  private void writeTopology(Configuration conf) throws IOException {
    if (!dataDir.isDirectory() && !dataDir.mkdirs()) {
      throw new IOException("cannot create " + dataDir);
    }
    File table = new File(dataDir, "topology.table").getAbsoluteFile();
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= datanodes; i++) {
      lines
          .append(LocalDatanodes.hostName(i))
          .append(' ')
          .append("/rack-")
          .append((i - 1) % racks + 1)
          .append('\n');
    }
    java.nio.file.Files.writeString(table.toPath(), lines);
    conf.set(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
        TableMapping.class.getName());
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY, table.getPath());
    conf.setBoolean(NamenodeConfig.TOPOLOGY_RESOLVE_HOSTNAMES, true);
  }

  /**
   * The i-th namenode's configuration: the configured RPC and HTTP ports plus i (0: any stays 0).
   */
  private static Configuration portsOf(Configuration conf, int i) {
    if (i == 0) {
      return conf;
    }
    Configuration c = new Configuration(conf);
    int rpc = conf.getInt(NamenodeConfig.RPC_PORT, NamenodeConfig.RPC_PORT_DEFAULT);
    int http = conf.getInt(NamenodeConfig.HTTP_PORT, NamenodeConfig.HTTP_PORT_DEFAULT);
    c.setInt(NamenodeConfig.RPC_PORT, rpc == 0 ? 0 : rpc + i);
    c.setInt(NamenodeConfig.HTTP_PORT, http <= 0 ? http : http + i);
    return c;
  }

  /**
   * Starts the i-th namenode as a process of its own ({@code bin/hops namenode}) with the given
   * settings, logging to {@code DATA_DIR/namenode-i.log}, and waits until it serves.
   */
  private Process startProcess(Configuration c, int i) throws IOException, InterruptedException {
    File dir = new File(dataDir, "namenode-" + i + "-conf");
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    Configuration site = new Configuration(false);
    for (java.util.Map.Entry<String, String> e : c) {
      if (!NamenodeConfig.isDefault(c, e.getKey())) {
        site.set(e.getKey(), e.getValue());
      }
    }
    site.setInt(NamenodeConfig.RPC_PORT, c.getInt(NamenodeConfig.RPC_PORT, 0));
    site.setInt(NamenodeConfig.HTTP_PORT, c.getInt(NamenodeConfig.HTTP_PORT, 0));
    try (java.io.OutputStream out = new java.io.FileOutputStream(new File(dir, "hdfs-site.xml"))) {
      site.writeXml(out);
    }
    File log = new File(dataDir, "namenode-" + i + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    cmd.addAll(NamenodeJvm.OPTIONS);
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            HopsMain.class.getName(),
            "namenode",
            "--conf",
            dir.getPath()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (!java.nio.file.Files.readString(log.toPath()).contains("namenode serving at")) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroy();
        throw new IOException("namenode " + i + " did not start; see " + log);
      }
      Thread.sleep(100);
    }
    return p;
  }
}
