package io.hops.namenode;

import io.hops.common.HopsConfig;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/** A namenode over a fresh in-memory embedded store, and clients for it, for tests. */
public final class HopsTestCluster implements AutoCloseable {
  private static final AtomicInteger STORES = new AtomicInteger();

  private final HopsNameNode namenode;
  private final Configuration conf;

  public HopsTestCluster() throws IOException {
    this(new Configuration(false));
  }

  public HopsTestCluster(Configuration extra) throws IOException {
    conf = new Configuration(extra);
    if (conf.get(HopsConfig.METADATA_ENGINE) == null) {
      conf.set(
          HopsConfig.EMBEDDED_DIR,
          "mem:cluster-" + STORES.incrementAndGet() + "-" + System.nanoTime());
    }
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setIfUnset("dfs.namenode.handler.count", "16");
    namenode = HopsNameNode.start(conf);
  }

  /**
   * A cluster over the MariaDB of HOPS_TEST_MYSQL_URL/USER/PASSWORD with an empty namespace, or
   * null when none is configured (CI configures one).
   */
  public static HopsTestCluster onMariadbOrNull() throws IOException {
    String url = System.getenv("HOPS_TEST_MYSQL_URL");
    if (url == null || url.isBlank()) {
      return null;
    }
    Configuration c = new Configuration(false);
    c.set(HopsConfig.METADATA_ENGINE, "mysql");
    c.set(HopsConfig.JDBC_URL, url);
    c.set(HopsConfig.JDBC_USER, System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops"));
    c.set(
        HopsConfig.JDBC_PASSWORD, System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", "hops"));
    try (io.hops.dal.Storage s = io.hops.dal.Storages.open(HopsNameNode.dalConfig(c))) {
      s.schema().createOrUpgrade();
      s.schema().clearAll();
    }
    return new HopsTestCluster(c);
  }

  /** Another namenode over the same metadata store, with its own caches. */
  public HopsNameNode startAnotherNamenode() throws IOException {
    return HopsNameNode.start(conf);
  }

  /** A stock client of a given namenode. */
  public DistributedFileSystem client(HopsNameNode nn) throws IOException {
    Configuration c = clientConf();
    c.set("fs.defaultFS", nn.uri());
    return (DistributedFileSystem) FileSystem.get(URI.create(nn.uri()), c);
  }

  public HopsNameNode namenode() {
    return namenode;
  }

  public URI uri() {
    return URI.create(namenode.uri());
  }

  /** Client configuration: fast retries, no caching of FileSystem instances. */
  public Configuration clientConf() {
    Configuration c = new Configuration();
    c.set("fs.defaultFS", namenode.uri());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("ipc.client.connect.max.retries", 2);
    return c;
  }

  /** A new stock HDFS client. */
  public DistributedFileSystem client() throws IOException {
    return (DistributedFileSystem) FileSystem.get(uri(), clientConf());
  }

  @Override
  public void close() {
    namenode.close();
  }
}
