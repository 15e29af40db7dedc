package io.hops.namenode;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** Apache HDFS in the same test run, for side-by-side comparisons with hops. */
public final class ApacheHdfs {
  private ApacheHdfs() {}

  /** A NameNode with no datanodes, its storage under {@code target/minidfs-NAME-*}. */
  public static MiniDFSCluster start(String name) throws IOException {
    return start(name, new Configuration(false));
  }

  /** As {@link #start(String)}, with {@code extra} settings for the NameNode. */
  public static MiniDFSCluster start(String name, Configuration extra) throws IOException {
    return start(name, extra, 0);
  }

  /** As {@link #start(String, Configuration)}, with {@code datanodes} stock DataNodes. */
  public static MiniDFSCluster start(String name, Configuration extra, int datanodes)
      throws IOException {
    Configuration conf = new Configuration();
    extra.forEach(e -> conf.set(e.getKey(), e.getValue()));
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-" + name + "-" + System.nanoTime()).getAbsolutePath());
    MiniDFSCluster hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(datanodes).build();
    hdfs.waitActive();
    return hdfs;
  }

  /**
   * Client settings for it: no cached FileSystem instances, and a usable default replication
   * (MiniDFSCluster sets dfs.replication to its number of datanodes, 0 here).
   */
  public static Configuration clientConf(MiniDFSCluster hdfs, int replication) {
    Configuration c = new Configuration(hdfs.getConfiguration(0));
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("dfs.replication", replication);
    return c;
  }
}
