package io.hops.bench.cluster;

import io.hops.client.HopsClientConfig;
import io.hops.client.HopsFailoverProxyProvider;
import io.hops.common.HopsConfig;
import io.hops.datanode.DatanodeLauncher;
import io.hops.election.Member;
import io.hops.namenode.cli.HopsMain;
import io.hops.namenode.cli.NamenodesCommand;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Several hops namenode processes ({@code HopsMain namenode}) over one MariaDB, and stock DataNodes
 * that report to all of them. Clients see one HA nameservice, {@value #NAMESERVICE}, reached
 * through hops-client's {@link HopsFailoverProxyProvider} (round-robin). A namenode can be killed
 * (SIGKILL) and restarted with the same ports, as an operator's supervisor would.
 */
public final class HopsNamenodes implements Target {
  /** The handler count of a hops namenode over MariaDB when none is given. */
  private static final int SQL_STOCK_HANDLERS =
      NamenodeConfig.defaultHandlerCount("mysql", Runtime.getRuntime().availableProcessors());

  public static final String NAMESERVICE = DatanodeLauncher.NAMESERVICE;

  private final ClusterSettings s;
  private final Path dir;
  private final int[] rpcPorts;
  private final int[] httpPorts;
  private final JavaProcess[] namenodes;
  private final List<JavaProcess> datanodes = new ArrayList<>();
  private final Map<String, String> facts = new LinkedHashMap<>();
  private int starts;

  private HopsNamenodes(ClusterSettings s, Path dir, int n) throws IOException {
    this.s = s;
    this.dir = dir;
    this.rpcPorts = new int[n];
    this.httpPorts = new int[n];
    this.namenodes = new JavaProcess[n];
    for (int i = 0; i < n; i++) {
      rpcPorts[i] = SiteFiles.freePort();
      httpPorts[i] = SiteFiles.freePort();
    }
  }

  /**
   * Starts {@code s.namenodes()} namenodes (the first alone: it creates the schema) and datanodes.
   */
  public static HopsNamenodes start(ClusterSettings s) throws IOException, InterruptedException {
    if (!"mariadb".equals(s.store())) {
      throw new IllegalArgumentException(
          "several namenodes share one database: --namenodes needs --db mariadb");
    }
    HopsNamenodes c =
        new HopsNamenodes(s, Files.createDirectories(s.workDir().resolve("hops")), s.namenodes());
    try {
      c.namenodes[0] = c.launch(0);
      Processes.awaitServing(c.directUri(0), c.namenodes[0], "/hammer");
      for (int i = 1; i < c.size(); i++) {
        c.namenodes[i] = c.launch(i);
      }
      for (int i = 1; i < c.size(); i++) {
        Processes.awaitServing(c.directUri(i), c.namenodes[i], "/hammer");
      }
      c.startDatanodes();
    } catch (IOException | InterruptedException | RuntimeException e) {
      c.close();
      throw e;
    }
    c.facts.put("store", "mariadb " + s.jdbcUrl());
    c.facts.put(
        "namenodes",
        c.size()
            + " hops namenode processes, "
            + SiteFiles.shown(SiteFiles.namenodeJvm(s.heap()))
            + ", handlers "
            + s.handlersFact(s.handlersOr(SQL_STOCK_HANDLERS)));
    c.facts.put("clients", "hops-client HopsFailoverProxyProvider, round-robin");
    return c;
  }

  private void startDatanodes() throws IOException, InterruptedException {
    Configuration ha = new Configuration(false);
    DatanodeLauncher.setNamenodes(ha, rpcAddresses());
    Map<String, String> keys = new LinkedHashMap<>();
    ha.forEach(e -> keys.put(e.getKey(), e.getValue()));
    for (int d = 1; d <= s.datanodes(); d++) {
      JavaProcess dn = null;
      // Its ports are free when picked, not always when bound (other processes on this machine).
      for (int attempt = 0; attempt < 3 && dn == null; attempt++) {
        dn =
            Processes.startDatanode(
                "hops", directUri(0), keys, s, dir.resolve("data-" + d), d, facts);
      }
      if (dn == null) {
        throw new IOException("datanode " + d + " did not register: " + facts);
      }
      datanodes.add(dn);
    }
  }

  /** A pool that serves the namenode's threads (it refuses to start otherwise), at least 32. */
  static int poolSize(int handlers) {
    return Math.max(
        HopsConfig.POOL_SIZE_DEFAULT,
        NamenodeConfig.connectionsNeeded(handlers, NamenodeConfig.SUBTREE_THREADS_DEFAULT));
  }

  private JavaProcess launch(int i) throws IOException {
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put(NamenodeConfig.RPC_PORT, String.valueOf(rpcPorts[i]));
    hdfs.put(NamenodeConfig.HTTP_PORT, String.valueOf(httpPorts[i]));
    hdfs.put("dfs.namenode.rpc-bind-host", "127.0.0.1");
    int handlers = s.handlers(hdfs, SQL_STOCK_HANDLERS);
    hdfs.put(HopsConfig.METADATA_ENGINE, "mysql");
    hdfs.put(HopsConfig.POOL_SIZE, String.valueOf(poolSize(handlers)));
    hdfs.put(HopsConfig.JDBC_URL, s.jdbcUrl());
    hdfs.put(HopsConfig.JDBC_USER, s.jdbcUser());
    hdfs.put(HopsConfig.JDBC_PASSWORD, s.jdbcPassword());
    hdfs.put("dfs.heartbeat.interval", "1");
    s.addNamenodeSettings(hdfs, facts);
    Path conf =
        SiteFiles.write(
            s.logDir().resolve("hops-namenode-" + i + "-conf"),
            Map.of("fs.defaultFS", directUri(i)),
            hdfs);
    String name = "hops namenode " + i + " (start " + ++starts + ")";
    JavaProcess nn =
        JavaProcess.start(
            name,
            SiteFiles.namenodeJvm(s.heap()),
            conf + File.pathSeparator + s.classpath(),
            HopsMain.class.getName(),
            List.of("namenode", "--conf", conf.toString()),
            s.logDir().resolve("hops-namenode-" + i + ".log"));
    facts.put("namenode " + i, directUri(i) + ", pid " + nn.pid() + ", log " + nn.log());
    return nn;
  }

  public int size() {
    return namenodes.length;
  }

  /** The namenode {@code i} alone: {@code hdfs://127.0.0.1:PORT}. */
  public String directUri(int i) {
    return "hdfs://127.0.0.1:" + rpcPorts[i];
  }

  public List<InetSocketAddress> rpcAddresses() {
    List<InetSocketAddress> out = new ArrayList<>();
    for (int port : rpcPorts) {
      out.add(new InetSocketAddress("127.0.0.1", port));
    }
    return out;
  }

  /** Kills namenode {@code i} with SIGKILL: no goodbye to the election, connections cut. */
  public void kill(int i) throws InterruptedException {
    namenodes[i].kill();
  }

  /** Starts namenode {@code i} again on its ports and waits until it serves. */
  public void restart(int i) throws IOException, InterruptedException {
    namenodes[i] = launch(i);
    Processes.awaitServing(directUri(i), namenodes[i], "/hammer");
  }

  /** The index of the leader as the first namenode that answers sees it, or -1. */
  public int leaderIndex() {
    Configuration conf = Processes.probeConf(directUri(0));
    for (int i = 0; i < size(); i++) {
      if (!namenodes[i].isAlive()) {
        continue;
      }
      try {
        Member leader = NamenodesCommand.fetch(rpcAddresses().get(i), conf).leader();
        if (leader == null) {
          continue;
        }
        for (int j = 0; j < size(); j++) {
          if (leader.rpcAddress().endsWith(":" + rpcPorts[j])) {
            return j;
          }
        }
      } catch (IOException e) {
        // this one is not serving: ask the next
      }
    }
    return -1;
  }

  @Override
  public String system() {
    return "hops";
  }

  @Override
  public String uri() {
    return "hdfs://" + NAMESERVICE;
  }

  /**
   * The HA nameservice of all namenodes (even of one, so that 1, 2 and 3 namenodes are reached
   * alike), through hops-client, round-robin.
   */
  @Override
  public Map<String, String> clientConf() {
    Map<String, String> conf = new LinkedHashMap<>();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < size(); i++) {
      ids.add("nn" + i);
      conf.put(
          "dfs.namenode.rpc-address." + NAMESERVICE + ".nn" + i, SiteFiles.loopback(rpcPorts[i]));
    }
    conf.put("dfs.nameservices", NAMESERVICE);
    conf.put("dfs.ha.namenodes." + NAMESERVICE, String.join(",", ids));
    conf.put(
        "dfs.client.failover.proxy.provider." + NAMESERVICE,
        HopsFailoverProxyProvider.class.getName());
    conf.put(HopsClientConfig.NAMENODE_SELECTION, "round-robin");
    conf.put("dfs.replication", "1");
    // complete() answers false until the owner of the datanode's reports has applied the new
    // replica; when that owner has just died, that waits for the handover (eviction, re-register,
    // full report: a few seconds). HDFS's client asks again after 0.4, 0.8, ... 6.4 s and then
    // gives up; asking at least every second for ~18 s bounds the extra wait and never gives up
    // within a handover (docs/configuration.md, "hops-client").
    conf.put("dfs.client.block.write.locateFollowingBlock.retries", "20");
    conf.put("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "200");
    conf.put("dfs.client.block.write.locateFollowingBlock.max.delay.ms", "1000");
    return conf;
  }

  @Override
  public List<Long> namenodePids() {
    List<Long> pids = new ArrayList<>();
    for (JavaProcess nn : namenodes) {
      pids.add(nn.pid());
    }
    return pids;
  }

  @Override
  public List<String> namenodeWebAddresses() {
    List<String> out = new ArrayList<>();
    for (int port : httpPorts) {
      out.add(SiteFiles.loopback(port));
    }
    return out;
  }

  @Override
  public MariaDbCounters database() {
    return new MariaDbCounters(s.jdbcUrl(), s.jdbcUser(), s.jdbcPassword());
  }

  @Override
  public Map<String, String> facts() {
    return facts;
  }

  @Override
  public void close() {
    datanodes.forEach(JavaProcess::close);
    for (JavaProcess nn : namenodes) {
      if (nn != null) {
        nn.close();
      }
    }
  }
}
