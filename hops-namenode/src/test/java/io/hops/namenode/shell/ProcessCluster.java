package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.datanode.DatanodeLauncher;
import io.hops.election.Member;
import io.hops.election.Membership;
import io.hops.namenode.cli.NamenodesCommand;
import io.hops.namenode.data.TcpCut;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * A cluster as an operator runs it, for tests: {@code bin/hops namenode} processes over one
 * database and {@code bin/hops datanode} processes reporting to all of them, each with its own log
 * under a work directory, with what tests do to them (SIGKILL, SIGSTOP, start again, possibly with
 * another release's build, find the leader) and a stock HA client of all the namenodes. Optionally
 * each namenode reaches the database through a forwarder of its own ({@link TcpCut}), which a test
 * freezes to stall that namenode's database or partition it.
 */
final class ProcessCluster implements AutoCloseable {
  private final Path work;
  private final Map<String, String> settings = new LinkedHashMap<>();
  private final int[] rpcPorts;
  private final Process[] namenodes;
  private final String[] names;
  private final TcpCut[] forwarders;
  private final List<Process> daemons = new ArrayList<>();
  private int generation;
  private int datanodes;

  /**
   * {@code namenodes} namenodes over the database of {@code db} ({@code hops.metadata.*}), with
   * {@code extra} settings on top of fast heartbeats and housekeeping; not started yet.
   */
  ProcessCluster(Path work, Map<String, String> db, int namenodes, Map<String, String> extra)
      throws IOException {
    this(work, db, namenodes, extra, new TcpCut[0]);
  }

  /**
   * As {@link #ProcessCluster(Path, Map, int, Map)}, each namenode reaching the MariaDB of {@code
   * db} through a forwarder of its own ({@link #forwarder}).
   */
  static ProcessCluster throughForwarders(
      Path work, Map<String, String> db, int namenodes, Map<String, String> extra)
      throws IOException {
    URI address = URI.create(db.get(HopsConfig.JDBC_URL).substring("jdbc:".length()));
    TcpCut[] forwarders = new TcpCut[namenodes];
    for (int i = 0; i < namenodes; i++) {
      forwarders[i] = new TcpCut(new InetSocketAddress(address.getHost(), address.getPort()));
    }
    return new ProcessCluster(work, db, namenodes, extra, forwarders);
  }

  private ProcessCluster(
      Path work,
      Map<String, String> db,
      int namenodes,
      Map<String, String> extra,
      TcpCut[] forwarders)
      throws IOException {
    this.work = Files.createDirectories(work);
    this.rpcPorts = new int[namenodes];
    this.namenodes = new Process[namenodes];
    this.names = new String[namenodes];
    this.forwarders = forwarders;
    settings.putAll(db);
    settings.put("hops.metadata.pool.size", "24");
    settings.put("hops.namenode.housekeeping.interval.ms", "500");
    settings.put("dfs.namenode.fs-limits.min-block-size", "1024");
    settings.put("dfs.heartbeat.interval", "1");
    settings.put("ipc.client.connect.max.retries", "2");
    settings.put("ipc.client.connect.retry.interval", "200");
    settings.putAll(extra);
    for (int i = 0; i < namenodes; i++) {
      rpcPorts[i] = Processes.freePort();
      writeConf(i, Processes.freePort());
    }
  }

  Path work() {
    return work;
  }

  Path conf(int i) {
    return work.resolve("conf-" + i);
  }

  int namenodes() {
    return namenodes.length;
  }

  int rpcPort(int i) {
    return rpcPorts[i];
  }

  /**
   * Starts every namenode and waits until each serves: the first alone (it meets an empty database
   * and leads), then the others at once, as an operator starting standbys would (one JVM start
   * instead of one each).
   */
  void startNamenodes() throws Exception {
    startNamenode(0);
    startNamenodesFrom(1);
  }

  /** Starts namenodes {@code first} to the last (again) at once, and waits until each serves. */
  void startNamenodesFrom(int first) throws Exception {
    List<String> java = Processes.java(false);
    List<Process> started = new ArrayList<>();
    for (int i = first; i < namenodes.length; i++) {
      started.add(launchNamenode(i, java));
    }
    for (int i = first; i < namenodes.length; i++) {
      awaitServing(i, started.get(i - first));
    }
  }

  /** Starts namenode {@code i} (again) and waits until it serves. */
  void startNamenode(int i) throws Exception {
    startNamenode(i, Processes.java(false));
  }

  /**
   * Starts namenode {@code i} (again) with {@code java} (the command that runs a build's {@code
   * bin/hops} main class: {@link Processes#java}, with options of the test's, or another release's)
   * and waits until it serves.
   */
  void startNamenode(int i, List<String> java) throws Exception {
    awaitServing(i, launchNamenode(i, java));
  }

  /** Waits (90 s at most) until namenode {@code i}, process {@code p}, serves. */
  private void awaitServing(int i, Process p) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!Files.readString(work.resolve(names[i] + ".out"), StandardCharsets.UTF_8)
        .contains("namenode serving at")) {
      assertThat(p.isAlive()).as("%s died:%n%s", names[i], Processes.tail(log(i))).isTrue();
      assertThat(System.nanoTime()).as("%s did not start", names[i]).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /** Starts namenode {@code i} with {@code java}, and does not wait: for one that must refuse. */
  Process launchNamenode(int i, List<String> java) throws IOException {
    names[i] = "namenode-" + i + "-" + generation++;
    List<String> cmd = new ArrayList<>(java);
    cmd.addAll(List.of("namenode", "--conf", conf(i).toString()));
    namenodes[i] = daemon(names[i], cmd);
    return namenodes[i];
  }

  /** The log (standard error, where slf4j-simple writes) of namenode {@code i}'s latest process. */
  Path log(int i) {
    return work.resolve(names[i] + ".err");
  }

  /** All that namenode {@code i}'s latest process wrote, its standard output then its log. */
  String output(int i) throws IOException {
    return Files.readString(work.resolve(names[i] + ".out"), StandardCharsets.UTF_8)
        + Files.readString(log(i), StandardCharsets.UTF_8);
  }

  /** The forwarder between namenode {@code i} and the database (see {@link #throughForwarders}). */
  TcpCut forwarder(int i) {
    return forwarders[i];
  }

  /** Starts {@code n} datanode processes reporting to every namenode. */
  void startDatanodes(int n) throws IOException {
    for (int d = datanodes + 1; d <= datanodes + n; d++) {
      List<String> args = new ArrayList<>(List.of("datanode", "--conf", conf(0).toString()));
      for (int port : rpcPorts) {
        args.add("--namenode");
        args.add("hdfs://127.0.0.1:" + port);
      }
      args.addAll(List.of("--data-dir", work.resolve("dn" + d).toString(), "--any-ports"));
      List<String> cmd = Processes.java(false);
      cmd.addAll(args);
      daemon("datanode-" + d, cmd);
    }
    datanodes += n;
  }

  /** Waits (90 s at most) until {@code fs}'s namenode hears every datanode started, with space. */
  void awaitLiveDatanodes(FileSystem fs) throws Exception {
    DistributedFileSystem dfs = (DistributedFileSystem) fs;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (Arrays.stream(dfs.getDataNodeStats(DatanodeReportType.LIVE))
            .filter(d -> d.getCapacity() > 0)
            .count()
        < datanodes) {
      assertThat(System.nanoTime()).as("datanodes did not come up").isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  /** Kills namenode {@code i} with SIGKILL and waits until it is gone. */
  void kill(int i) throws InterruptedException {
    namenodes[i].destroyForcibly().waitFor(30, TimeUnit.SECONDS);
  }

  /** Stops namenode {@code i} as an operator does (SIGTERM), and waits until it is gone. */
  void stop(int i) throws InterruptedException {
    namenodes[i].destroy();
    assertThat(namenodes[i].waitFor(30, TimeUnit.SECONDS))
        .as("a stopped namenode is gone")
        .isTrue();
  }

  /** Kills every namenode with SIGKILL at once, and waits until they are all gone. */
  void killAll() throws InterruptedException {
    for (Process p : namenodes) {
      p.destroyForcibly();
    }
    for (Process p : namenodes) {
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("a killed namenode is gone").isTrue();
    }
  }

  /** Sends {@code signal} ({@code STOP}, {@code CONT}, ...) to namenode {@code i}. */
  void signal(int i, String signal) throws Exception {
    new ProcessBuilder("kill", "-" + signal, Long.toString(namenodes[i].pid())).start().waitFor();
  }

  /** The index of the leader, asked of any namenode that answers (within 30 s). */
  int leaderIndex() throws Exception {
    Configuration conf = new Configuration(false);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      for (int port : rpcPorts) {
        try {
          Membership m = NamenodesCommand.fetch(new InetSocketAddress("127.0.0.1", port), conf);
          Member leader = m.leader();
          if (leader != null) {
            int leaderPort = Integer.parseInt(leader.rpcAddress().replaceAll(".*:", ""));
            for (int i = 0; i < rpcPorts.length; i++) {
              if (rpcPorts[i] == leaderPort) {
                return i;
              }
            }
          }
        } catch (IOException e) {
          // that one is down: ask another
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no leader within 30 s");
  }

  /** A stock client of every namenode (an HA nameservice), failing over quickly. */
  Configuration haClient() {
    Configuration client = new Configuration(false);
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (int port : rpcPorts) {
      addresses.add(new InetSocketAddress("127.0.0.1", port));
    }
    DatanodeLauncher.setNamenodes(client, addresses);
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    client.setInt("ipc.client.connect.max.retries", 1);
    client.setInt("ipc.client.connect.retry.interval", 100);
    client.setInt("dfs.client.failover.max.attempts", 30);
    client.setInt("dfs.client.failover.sleep.base.millis", 100);
    client.setInt("dfs.client.failover.sleep.max.millis", 1000);
    return client;
  }

  /** A stock client of namenode {@code i} alone. */
  Configuration clientOf(int i) {
    Configuration client = new Configuration(false);
    client.set("fs.defaultFS", "hdfs://127.0.0.1:" + rpcPorts[i]);
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    return client;
  }

  private void writeConf(int i, int httpPort) throws IOException {
    Path dir = Files.createDirectories(conf(i));
    Files.writeString(
        dir.resolve("core-site.xml"),
        Processes.site("fs.defaultFS", "hdfs://127.0.0.1:" + rpcPorts[i]),
        StandardCharsets.UTF_8);
    Map<String, String> own = new LinkedHashMap<>(settings);
    if (forwarders.length > 0) {
      String url = own.get(HopsConfig.JDBC_URL);
      URI address = URI.create(url.substring("jdbc:".length()));
      own.put(
          HopsConfig.JDBC_URL,
          url.replace(
              address.getHost() + ":" + address.getPort(), "127.0.0.1:" + forwarders[i].port()));
    }
    List<String> kv = new ArrayList<>();
    own.forEach(
        (k, v) -> {
          kv.add(k);
          kv.add(v);
        });
    kv.addAll(
        List.of(
            "hops.namenode.rpc.port",
            Integer.toString(rpcPorts[i]),
            "hops.namenode.http.port",
            Integer.toString(httpPort)));
    Files.writeString(
        dir.resolve("hdfs-site.xml"),
        Processes.site(kv.toArray(new String[0])),
        StandardCharsets.UTF_8);
  }

  private Process daemon(String name, List<String> cmd) throws IOException {
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(work.resolve(name + ".out").toFile())
            .redirectError(work.resolve(name + ".err").toFile())
            .start();
    daemons.add(p);
    return p;
  }

  @Override
  public void close() throws InterruptedException, IOException {
    for (Process p : daemons) {
      p.destroyForcibly();
    }
    for (Process p : daemons) {
      p.waitFor(10, TimeUnit.SECONDS);
    }
    for (TcpCut f : forwarders) {
      f.close();
    }
  }
}
