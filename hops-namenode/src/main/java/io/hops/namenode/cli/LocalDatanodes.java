package io.hops.namenode.cli;

import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.blocks.DatanodeManager;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.net.NetUtils;

/**
 * Stock DataNodes in this process for {@code hops cluster} and {@code hops demo}: {@code
 * DIR/datanode-1}, {@code DIR/datanode-2}, ... beside the metadata store, so their blocks outlive
 * the process as the namespace does.
 */
final class LocalDatanodes implements AutoCloseable {
  private static final long WAIT_SECONDS = 60;

  private final List<DataNode> nodes = new ArrayList<>();

  /** Starts {@code n} datanodes for {@code nn} and waits until it has heard from them all. */
  static LocalDatanodes start(Configuration conf, HopsNameNode nn, File dataDir, int n)
      throws IOException {
    return start(conf, List.of(nn), dataDir, n);
  }

  /**
   * Starts {@code n} datanodes reporting to every namenode of {@code nns} (one HA nameservice) and
   * waits until the first has heard from them all.
   */
  static LocalDatanodes start(Configuration conf, List<HopsNameNode> nns, File dataDir, int n)
      throws IOException {
    return start(conf, nns.get(0), nns.stream().map(HopsNameNode::address).toList(), dataDir, n);
  }

  /**
   * Starts {@code n} datanodes reporting to every namenode at {@code addresses} and waits until
   * {@code nn} (one of them, in this process) has heard from them all.
   */
  static LocalDatanodes start(
      Configuration conf,
      HopsNameNode nn,
      List<java.net.InetSocketAddress> addresses,
      File dataDir,
      int n)
      throws IOException {
    return start(conf, nn, addresses, dataDir, n, false);
  }

  /**
   * As {@link #start(Configuration, HopsNameNode, List, File, int)}; with {@code named}, datanode i
   * registers as host {@code datanode-i} (an alias of 127.0.0.1 in this process, as MiniDFSCluster
   * names its datanodes), so that a topology mapping can tell them apart.
   */
  static LocalDatanodes start(
      Configuration conf,
      HopsNameNode nn,
      List<java.net.InetSocketAddress> addresses,
      File dataDir,
      int n,
      boolean named)
      throws IOException {
    LocalDatanodes dns = new LocalDatanodes();
    try {
      for (int i = 1; i <= n; i++) {
        File dir = new File(dataDir, "datanode-" + i).getAbsoluteFile();
        Configuration c = new Configuration(conf);
        Confs.datanodeAddresses(c, "127.0.0.1", true);
        if (named) {
          c.set("dfs.datanode.hostname", hostName(i));
          NetUtils.addStaticResolution(hostName(i), "127.0.0.1");
        }
        dns.nodes.add(
            DatanodeLauncher.start(DatanodeLauncher.configure(c, addresses, dir, "127.0.0.1")));
      }
      dns.waitForLive(nn, n, dataDir);
      return dns;
    } catch (IOException | RuntimeException e) {
      dns.close();
      throw e;
    }
  }

  private void waitForLive(HopsNameNode nn, int n, File dataDir) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    DatanodeManager dm = nn.datanodes();
    while (dm.live().stream().filter(d -> d.heardFrom() && d.bestStorage() != null).count() < n) {
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "the datanodes did not all register within "
                + WAIT_SECONDS
                + " s (see the log above). If the metadata store was made anew, the old "
                + dataDir
                + "/datanode-* directories belong to another namespace: delete them.");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for the datanodes");
      }
    }
  }

  /** The host name datanode {@code i} (from 1) registers with when its datanodes are named. */
  static String hostName(int i) {
    return "datanode-" + i;
  }

  List<DataNode> nodes() {
    return nodes;
  }

  @Override
  public void close() {
    for (DataNode dn : nodes) {
      shutdown(dn);
    }
  }

  /**
   * Stops a datanode. From a JVM shutdown hook (Ctrl-C) the DataNode cannot unregister its own
   * hooks and says so with an IllegalStateException; it has stopped all the same.
   */
  static void shutdown(DataNode dn) {
    try {
      dn.shutdown();
    } catch (IllegalStateException e) {
      // "Shutdown in progress, cannot remove a shutdownHook"
    }
  }
}
