package io.hops.namenode.contract;

import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.fs.contract.ContractOptions;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * Hadoop's file system contract for hops over WebHDFS ({@code webhdfs://}, Hadoop's own
 * WebHdfsFileSystem against the namenode's HTTP port, data through the datanodes' WebHDFS): the
 * options of {@code contract/webhdfs.xml} (HDFS's, less what the WebHDFS client itself does not
 * offer), and one namenode with three stock datanodes per test class.
 */
public class HopsWebHdfsContract extends AbstractFSContract {
  public static final String CONTRACT_WEBHDFS_XML = "contract/webhdfs.xml";

  /** The block size HDFSContract runs with. */
  public static final int BLOCK_SIZE = 1024;

  /** Datanodes of the contract cluster (HDFS's contract cluster has two). */
  public static final int DATANODES = 3;

  private static HopsTestCluster cluster;
  private static FileSystem fs;

  public HopsWebHdfsContract(Configuration conf) {
    super(conf);
    addConfResource(CONTRACT_WEBHDFS_XML);
  }

  public static synchronized void createCluster() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setInt(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK_SIZE);
    // Hadoop's own test hdfs-site.xml lifts the minimum so that tiny blocks are allowed.
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(DATANODES);
    Configuration client = cluster.clientConf();
    client.setInt(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK_SIZE);
    client.setBoolean("fs.webhdfs.impl.disable.cache", true);
    var http = cluster.namenode().httpAddress();
    fs =
        FileSystem.get(
            java.net.URI.create("webhdfs://" + http.getHostString() + ":" + http.getPort()),
            client);
  }

  public static synchronized void destroyCluster() throws IOException {
    if (fs != null) {
      fs.close();
      fs = null;
    }
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }

  /**
   * Skips a contract test that fails in the same way against Apache HDFS's WebHDFS (checked by
   * running these suites against a MiniDFSCluster's {@code webhdfs://}): a limit of Hadoop's
   * WebHdfsFileSystem client, not of the server.
   */
  public static void skipClientLimitation(String why) {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        false, "fails identically against HDFS's WebHDFS: " + why);
  }

  @Override
  public void init() throws IOException {
    super.init();
    if (!isSupported(ContractOptions.IS_CASE_SENSITIVE, false)) {
      throw new IllegalStateException("contract options not loaded");
    }
  }

  @Override
  public synchronized FileSystem getTestFileSystem() throws IOException {
    if (fs == null) {
      throw new IllegalStateException("hops cluster not created");
    }
    return fs;
  }

  @Override
  public String getScheme() {
    return "webhdfs";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
