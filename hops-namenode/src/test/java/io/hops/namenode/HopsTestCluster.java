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
    conf.set(
        HopsConfig.EMBEDDED_DIR,
        "mem:cluster-" + STORES.incrementAndGet() + "-" + System.nanoTime());
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setIfUnset("dfs.namenode.handler.count", "16");
    namenode = HopsNameNode.start(conf);
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
