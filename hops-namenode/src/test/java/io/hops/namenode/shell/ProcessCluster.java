package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.datanode.DatanodeLauncher;
import io.hops.election.Member;
import io.hops.election.Membership;
import io.hops.namenode.cli.NamenodesCommand;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * A cluster as an operator runs it, for tests: {@code bin/hops namenode} processes over one
 * database and {@code bin/hops datanode} processes reporting to all of them, each with its own log
 * under a work directory, with what tests do to them (SIGKILL, start again, find the leader) and a
 * stock HA client of all the namenodes.
 */
final class ProcessCluster implements AutoCloseable {
  private final Path work;
  private final Map<String, String> settings = new LinkedHashMap<>();
  private final int[] rpcPorts;
  private final Process[] namenodes;
  private final List<Process> daemons = new ArrayList<>();
  private int generation;

  /**
   * {@code namenodes} namenodes over the database of {@code db} ({@code hops.metadata.*}), with
   * {@code extra} settings on top of fast heartbeats and housekeeping; not started yet.
   */
  ProcessCluster(Path work, Map<String, String> db, int namenodes, Map<String, String> extra)
      throws IOException {
    this.work = Files.createDirectories(work);
    this.rpcPorts = new int[namenodes];
    this.namenodes = new Process[namenodes];
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

  /** Starts every namenode, each once it has a port, and waits until each serves. */
  void startNamenodes() throws Exception {
    for (int i = 0; i < namenodes.length; i++) {
      startNamenode(i);
    }
  }

  /** Starts namenode {@code i} (again) and waits until it serves. */
  void startNamenode(int i) throws Exception {
    String name = "namenode-" + i + "-" + generation++;
    Process p = daemon(name, "namenode", "--conf", conf(i).toString());
    Path out = work.resolve(name + ".out");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!Files.readString(out, StandardCharsets.UTF_8).contains("namenode serving at")) {
      assertThat(p.isAlive())
          .as("%s died:%n%s", name, Processes.tail(work.resolve(name + ".err")))
          .isTrue();
      assertThat(System.nanoTime()).as("%s did not start", name).isLessThan(deadline);
      Thread.sleep(100);
    }
    namenodes[i] = p;
  }

  /** Starts {@code n} datanode processes reporting to every namenode. */
  void startDatanodes(int n) throws IOException {
    for (int d = 1; d <= n; d++) {
      List<String> args = new ArrayList<>(List.of("datanode", "--conf", conf(0).toString()));
      for (int port : rpcPorts) {
        args.add("--namenode");
        args.add("hdfs://127.0.0.1:" + port);
      }
      args.addAll(List.of("--data-dir", work.resolve("dn" + d).toString(), "--any-ports"));
      daemon("datanode-" + d, args.toArray(new String[0]));
    }
  }

  /** Kills namenode {@code i} with SIGKILL and waits until it is gone. */
  void kill(int i) throws InterruptedException {
    namenodes[i].destroyForcibly().waitFor(30, TimeUnit.SECONDS);
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
    List<String> kv = new ArrayList<>();
    settings.forEach(
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

  private Process daemon(String name, String... args) throws IOException {
    List<String> cmd = Processes.java(false);
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(work.resolve(name + ".out").toFile())
            .redirectError(work.resolve(name + ".err").toFile())
            .start();
    daemons.add(p);
    return p;
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : daemons) {
      p.destroyForcibly();
    }
    for (Process p : daemons) {
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
