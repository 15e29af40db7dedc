package io.hops.namenode;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * hops and Apache HDFS in one run, for the {@code ...LikeHdfsTest} classes that do each step on
 * both and compare: a hops namenode and a MiniDFSCluster, each with a client of the superuser
 * ({@code admin}) and of {@code alice} (group {@code staff}). With stock DataNodes ({@link
 * #SideBySide(String, Configuration, int, Configuration, StorageType...)}), hops has a second
 * namenode over the same store ({@link #other}) that the datanodes heartbeat too.
 */
public final class SideBySide implements AutoCloseable {
  /** One system's clients. */
  public record Side(DistributedFileSystem admin, DistributedFileSystem alice) {}

  /** A step done on each side in turn. */
  @FunctionalInterface
  public interface Step {
    Object run(Side s) throws Exception;
  }

  public final HopsTestCluster hops;

  /** hops's second namenode, where there are datanodes; else null. */
  public final HopsNameNode other;

  public final MiniDFSCluster hdfs;
  public final Side hopsSide;
  public final Side hdfsSide;

  private SideBySide(HopsTestCluster hops, HopsNameNode other, MiniDFSCluster hdfs)
      throws Exception {
    this.hops = hops;
    this.other = other;
    this.hdfs = hdfs;
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    Configuration hdfsClient = ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    this.hopsSide =
        new Side(hops.client(), as(alice, () -> FileSystem.get(hops.uri(), hops.clientConf())));
    this.hdfsSide =
        new Side(
            (DistributedFileSystem) FileSystem.get(hdfs.getURI(), hdfsClient),
            as(alice, () -> FileSystem.get(hdfs.getURI(), hdfsClient)));
  }

  /** Starts both systems; {@code name} names HDFS's test directory. */
  public static SideBySide start(String name) throws Exception {
    return start(name, new Configuration(false));
  }

  /** As {@link #start(String)}, both namenodes with the settings of {@code extra}. */
  public static SideBySide start(String name, Configuration extra) throws Exception {
    return new SideBySide(new HopsTestCluster(extra), null, ApacheHdfs.start(name, extra));
  }

  /**
   * As {@link #SideBySide(String, Configuration, int, Configuration, StorageType...)}, the
   * datanodes with their default settings and one volume each on hops's side.
   */
  public SideBySide(String name, Configuration conf, int datanodes) throws Exception {
    this(name, conf, datanodes, new Configuration(false));
  }

  /**
   * Both systems with {@code datanodes} stock DataNodes each: hops as two namenodes over one store
   * (the cluster's and {@link #other}) that every datanode heartbeats, and a MiniDFSCluster; waits
   * until hops hears every datanode. {@code conf} is on every namenode, {@code datanodeConf} on
   * every datanode (HDFS's get both: a MiniDFSCluster has one configuration). A hops datanode has
   * one volume per type of {@code volumes} (none: one volume); a MiniDFSCluster's, two.
   */
  public SideBySide(
      String name,
      Configuration conf,
      int datanodes,
      Configuration datanodeConf,
      StorageType... volumes)
      throws Exception {
    this(Started.withDatanodes(name, conf, datanodes, datanodeConf, volumes));
  }

  private SideBySide(Started s) throws Exception {
    this(s.hops, s.other, s.hdfs);
  }

  /** The systems of a side by side with datanodes, started. */
  private record Started(HopsTestCluster hops, HopsNameNode other, MiniDFSCluster hdfs) {
    static Started withDatanodes(
        String name,
        Configuration conf,
        int datanodes,
        Configuration datanodeConf,
        StorageType[] volumes)
        throws Exception {
      HopsTestCluster hops = new HopsTestCluster(conf);
      HopsNameNode other = null;
      try {
        other = hops.startAnotherNamenode();
        hops.startDatanodes(datanodes, datanodeConf, volumes, other);
        hops.waitForLive(datanodes);
        Configuration both = new Configuration(conf);
        datanodeConf.forEach(e -> both.set(e.getKey(), e.getValue()));
        return new Started(hops, other, ApacheHdfs.start(name, both, datanodes));
      } catch (Exception | Error e) {
        if (other != null) {
          other.close();
        }
        hops.close();
        throw e;
      }
    }
  }

  /** A client of hops's namenode {@code nn} (the cluster's or {@link #other}). */
  public Configuration through(HopsNameNode nn) {
    Configuration c = hops.clientConf();
    c.set("fs.defaultFS", nn.uri());
    // fsck and the other tools that speak HTTP go to the same namenode.
    c.set(
        org.apache.hadoop.hdfs.DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY,
        "127.0.0.1:" + nn.httpAddress().getPort());
    return c;
  }

  /**
   * Has HDFS read its hosts files again, as {@code dfsadmin -refreshNodes} does (which would read
   * the site files: the MiniDFSCluster's configuration is handed to it instead).
   */
  public void refreshHdfsNodes() throws IOException {
    hdfs.getNamesystem()
        .getBlockManager()
        .getDatanodeManager()
        .refreshNodes(hdfs.getConfiguration(0));
  }

  private static DistributedFileSystem as(
      UserGroupInformation ugi, PrivilegedExceptionAction<FileSystem> get) throws Exception {
    return (DistributedFileSystem) ugi.doAs(get);
  }

  /** How a failed step is compared: the exception's class and the first line of its message. */
  public static String failure(Exception e) {
    String m = String.valueOf(e.getMessage());
    return e.getClass().getName() + ": " + m.lines().findFirst().orElse("");
  }

  @Override
  public void close() throws Exception {
    for (Side s : new Side[] {hopsSide, hdfsSide}) {
      s.admin().close();
      s.alice().close();
    }
    hdfs.shutdown();
    if (other != null) {
      other.close();
    }
    hops.close();
  }
}
