package io.hops.bench.cluster;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starting namenodes and datanodes as processes and waiting until they work. */
final class Processes {
  private static final Logger LOG = LoggerFactory.getLogger(Processes.class);

  private Processes() {}

  /** A client that gives up at once when nobody listens (the caller retries). */
  static Configuration probeConf(String uri) {
    Configuration c = new Configuration();
    c.set("fs.defaultFS", uri);
    c.setInt("ipc.client.connect.max.retries", 0);
    c.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    c.setInt("ipc.client.connect.timeout", 2000);
    BenchKerberos.probeKeys().forEach(c::set);
    return c;
  }

  /** The resident memory of process {@code pid} in MB, or -1 where /proc does not say. */
  static long rssMegabytes(long pid) {
    try {
      for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or the process is gone.
    }
    return -1;
  }

  /**
   * Waits until the namenode at {@code uri} creates a directory (so it is out of safe mode, too).
   */
  static void awaitServing(String uri, JavaProcess nn, String probeDir)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ClusterSettings.STARTUP_SECONDS);
    IOException last = null;
    while (System.nanoTime() - deadline < 0) {
      if (!nn.isAlive()) {
        throw new IOException(
            nn.name()
                + " exited while starting; its log ("
                + nn.log()
                + ") ends:\n"
                + nn.logTail(15));
      }
      try (FileSystem fs = FileSystem.newInstance(URI.create(uri), probeConf(uri))) {
        if (fs.mkdirs(new org.apache.hadoop.fs.Path(probeDir))) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(300);
    }
    throw new IOException(
        nn.name() + " did not serve within " + ClusterSettings.STARTUP_SECONDS + " s", last);
  }

  /**
   * The target a launcher hands out: its namenode, once it serves, and a stock DataNode for it
   * (unless {@code --no-datanode}). Stops what it started if any of it fails.
   */
  static ProcessTarget withDatanode(
      String system,
      String uri,
      JavaProcess nn,
      ClusterSettings s,
      Path dataDir,
      Map<String, String> facts)
      throws IOException, InterruptedException {
    List<JavaProcess> others = new ArrayList<>();
    try {
      awaitServing(uri, nn, "/hammer");
      if (s.datanodes() > 0) {
        for (int d = 1; d <= s.datanodes(); d++) {
          JavaProcess dn =
              startDatanode(
                  system,
                  uri,
                  Map.of("dfs.namenode.rpc-address", URI.create(uri).getAuthority()),
                  s,
                  d == 1 ? dataDir : dataDir.resolveSibling(dataDir.getFileName() + "-" + d),
                  d,
                  facts);
          if (dn == null) {
            break;
          }
          others.add(dn);
        }
      } else {
        facts.put("datanode", "none (--no-datanode)");
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      others.forEach(JavaProcess::close);
      nn.close();
      throw e;
    }
    Map<String, String> client = new java.util.LinkedHashMap<>(s.clientSecurity());
    // Every datanode holds a replica, up to HDFS's default of 3.
    client.put("dfs.replication", String.valueOf(Math.max(1, Math.min(3, others.size()))));
    if (s.smallFiles() && system.equals("hops")) {
      client.put("fs.hdfs.impl", "io.hops.client.HopsDistributedFileSystem");
    }
    return new ProcessTarget(system, uri, client, List.of(nn), others, facts);
  }

  /**
   * Starts a stock DataNode for the namenode(s) that {@code namenodeKeys} name (one {@code
   * dfs.namenode.rpc-address}, or an HA nameservice) and waits until the namenode at {@code uri}
   * lists it. Returns null, having stopped it, if it does not (hops may not speak the datanode
   * protocol yet). The {@code number}-th datanode (from 1) waits for {@code number} live ones.
   */
  static JavaProcess startDatanode(
      String system,
      String uri,
      Map<String, String> namenodeKeys,
      ClusterSettings s,
      Path dataDir,
      int number,
      Map<String, String> facts)
      throws IOException, InterruptedException {
    String suffix = number == 1 ? "" : "-" + number;
    int xfer = SiteFiles.freePort();
    int http = SiteFiles.freePort();
    int ipc = SiteFiles.freePort();
    Map<String, String> hdfs = new java.util.LinkedHashMap<>(namenodeKeys);
    hdfs.putAll(
        Map.of(
            "dfs.datanode.data.dir", dataDir.toUri().toString(),
            "dfs.datanode.address", SiteFiles.loopback(xfer),
            "dfs.datanode.http.address", SiteFiles.loopback(http),
            "dfs.datanode.ipc.address", SiteFiles.loopback(ipc),
            "dfs.datanode.hostname", "127.0.0.1",
            "dfs.replication", "1"));
    s.addSecurity(hdfs, facts, true);
    Path conf =
        SiteFiles.write(
            s.logDir().resolve(system + "-datanode" + suffix + "-conf"),
            Map.of("fs.defaultFS", uri),
            hdfs);
    JavaProcess dn =
        JavaProcess.start(
            system + " datanode",
            s.serverJvm(List.of("-Xmx1g")),
            conf + java.io.File.pathSeparator + s.classpath(),
            "org.apache.hadoop.hdfs.server.datanode.DataNode",
            List.of(),
            s.logDir().resolve(system + "-datanode" + suffix + ".log"));
    facts.put("datanode" + suffix + " log", dn.log().toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ClusterSettings.DATANODE_SECONDS);
    String why = "it did not register within " + ClusterSettings.DATANODE_SECONDS + " s";
    while (System.nanoTime() - deadline < 0) {
      if (!dn.isAlive()) {
        why = "it exited: " + dn.logTail(1);
        break;
      }
      if (registered(uri, dn, number)) {
        facts.put("datanode" + suffix, "stock DataNode, registered");
        return dn;
      }
      // It retries every 5 s for ever; three failures in a row mean the namenode refuses it.
      if (dn.logCount("Problem connecting to server") >= 3) {
        why = "it could not connect to the namenode three times";
        break;
      }
      Thread.sleep(500);
    }
    LOG.debug("{}: running without a datanode: {}", system, why);
    facts.put("datanode" + suffix, "none (" + why + ")");
    dn.close();
    return null;
  }

  /**
   * Whether the namenode lists {@code live} datanodes, or the datanode's log says it registered.
   */
  private static boolean registered(String uri, JavaProcess dn, int live) {
    try (FileSystem fs = FileSystem.newInstance(URI.create(uri), probeConf(uri))) {
      if (fs instanceof DistributedFileSystem dfs
          && dfs.getDataNodeStats(DatanodeReportType.LIVE).length >= live) {
        return true;
      }
    } catch (IOException | RuntimeException e) {
      // a namenode without datanode reports: the datanode's own log says whether it registered
    }
    return dn.logContains("successfully registered with NN");
  }
}
