package io.hops.datanode;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.StorageLocation;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the stock Apache DataNode against hops namenodes (docs/architecture.md, "Wire
 * compatibility"). With one namenode the datanode serves it as {@code fs.defaultFS}; with several
 * they form one HA nameservice, {@value #NAMESERVICE}, so the datanode heartbeats every namenode
 * and obeys the one that reports ACTIVE (the leader). Nothing of the DataNode is changed: this only
 * writes its configuration.
 */
public final class DatanodeLauncher {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeLauncher.class);

  /** The nameservice of a cluster of several namenodes. */
  public static final String NAMESERVICE = "hops";

  private DatanodeLauncher() {}

  /**
   * A datanode configuration: {@code base} plus the namenodes, the data directory, and ports on
   * {@code bindHost} picked by the system (unless {@code base} sets them).
   */
  public static Configuration configure(
      Configuration base, List<InetSocketAddress> namenodes, File dataDir, String bindHost) {
    Configuration conf = new Configuration(base);
    setNamenodes(conf, namenodes);
    conf.set("dfs.datanode.data.dir", dataDir.toURI().toString());
    conf.setIfUnset("dfs.datanode.address", bindHost + ":0");
    conf.setIfUnset("dfs.datanode.http.address", bindHost + ":0");
    conf.setIfUnset("dfs.datanode.ipc.address", bindHost + ":0");
    conf.setIfUnset("dfs.datanode.hostname", bindHost);
    return conf;
  }

  /**
   * Points a configuration (a datanode's or a client's) at the namenodes: one as {@code
   * fs.defaultFS}, several as the HA nameservice {@value #NAMESERVICE}.
   */
  public static void setNamenodes(Configuration conf, List<InetSocketAddress> namenodes) {
    if (namenodes.isEmpty()) {
      throw new IllegalArgumentException("a datanode needs at least one namenode");
    }
    if (namenodes.size() == 1) {
      conf.set("fs.defaultFS", "hdfs://" + hostPort(namenodes.get(0)));
      return;
    }
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < namenodes.size(); i++) {
      String id = "nn" + i;
      ids.add(id);
      conf.set("dfs.namenode.rpc-address." + NAMESERVICE + "." + id, hostPort(namenodes.get(i)));
    }
    conf.set("dfs.nameservices", NAMESERVICE);
    conf.set("dfs.ha.namenodes." + NAMESERVICE, String.join(",", ids));
    conf.set(
        "dfs.client.failover.proxy.provider." + NAMESERVICE,
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    conf.set("fs.defaultFS", "hdfs://" + NAMESERVICE);
  }

  /** Starts a datanode in this JVM; it runs until {@link DataNode#shutdown()}. */
  public static DataNode start(Configuration conf) throws IOException {
    // Each location may name its storage type ([SSD]file:///...), as HDFS's data.dir allows. One
    // that exists but is no directory is left to the DataNode's own check: a failed volume,
    // tolerated up to dfs.datanode.failed.volumes.tolerated.
    for (String location : conf.getTrimmedStrings("dfs.datanode.data.dir")) {
      File dir = new File(StorageLocation.parse(location).getUri());
      if (!dir.exists() && !dir.mkdirs()) {
        throw new IOException("cannot create the data directory " + dir);
      }
    }
    // Several datanodes in one JVM (tests, bin/hops cluster) register the same metrics sources.
    DefaultMetricsSystem.setMiniClusterMode(true);
    DataNode dn = DataNode.createDataNode(new String[0], conf);
    if (dn == null) {
      throw new IOException("the datanode did not start (see its log)");
    }
    LOG.info(
        "datanode {} serving {} from {}",
        dn.getDisplayName(),
        conf.get("fs.defaultFS"),
        conf.get("dfs.datanode.data.dir"));
    return dn;
  }

  private static String hostPort(InetSocketAddress a) {
    return a.getHostString() + ":" + a.getPort();
  }
}
