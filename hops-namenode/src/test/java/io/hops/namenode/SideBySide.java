package io.hops.namenode;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.LinkedHashMap;
import java.util.Map;
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
  /**
   * One system's clients: the superuser's ({@code admin}), {@code alice}'s (group {@code staff}),
   * and any other user's on demand ({@link #as}); each is made once and closed with the side.
   */
  public static final class Side implements AutoCloseable {
    private final String name;
    private final URI uri;
    private final Configuration conf;
    private final DistributedFileSystem admin;
    private final Map<String, DistributedFileSystem> users = new LinkedHashMap<>();

    Side(String name, URI uri, Configuration conf) throws Exception {
      this.name = name;
      this.uri = uri;
      this.conf = conf;
      this.admin = (DistributedFileSystem) FileSystem.get(uri, conf);
    }

    /** {@code hops} or {@code hdfs}. */
    public String name() {
      return name;
    }

    /** The client configuration of this side (a copy). */
    public Configuration conf() {
      return new Configuration(conf);
    }

    public URI uri() {
      return uri;
    }

    /** The superuser's client. */
    public DistributedFileSystem admin() {
      return admin;
    }

    /** alice's client (groups {@code staff}). */
    public DistributedFileSystem alice() throws IOException {
      return as("alice", "staff");
    }

    /**
     * A client of {@code user} in {@code groups}, made at the first call (after both namenodes
     * started: starting one resets the JVM's group mapping).
     */
    public synchronized DistributedFileSystem as(String user, String... groups) throws IOException {
      DistributedFileSystem fs = users.get(user);
      if (fs == null) {
        UserGroupInformation ugi = UserGroupInformation.createUserForTesting(user, groups);
        try {
          fs =
              (DistributedFileSystem)
                  ugi.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.get(uri, conf));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException(e.toString());
        }
        users.put(user, fs);
      }
      return fs;
    }

    /** Another superuser client, with a client name of its own; the caller closes it. */
    public DistributedFileSystem newAdmin() throws IOException {
      return (DistributedFileSystem) FileSystem.newInstance(uri, conf);
    }

    @Override
    public synchronized void close() throws IOException {
      admin.close();
      for (DistributedFileSystem fs : users.values()) {
        fs.close();
      }
    }
  }

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
    this.hopsSide = new Side("hops", hops.uri(), hops.clientConf());
    this.hdfsSide =
        new Side(
            "hdfs",
            hdfs.getURI(),
            ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT));
    hopsSide.alice();
    hdfsSide.alice();
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

  /**
   * How a failed step is compared: the exception's class and the first line of its message (Hadoop
   * IPC appends the server's stack trace to the message).
   */
  public static String failure(Exception e) {
    String m = String.valueOf(e.getMessage());
    return e.getClass().getName() + ": " + m.lines().findFirst().orElse("");
  }

  /** A step's outcome as compared: {@code returned} and its result, or its {@link #failure}. */
  public static String outcome(Step step, Side s) {
    try {
      return "returned " + step.run(s);
    } catch (Exception e) {
      return failure(e);
    }
  }

  @Override
  public void close() throws Exception {
    hopsSide.close();
    hdfsSide.close();
    hdfs.shutdown();
    if (other != null) {
      other.close();
    }
    hops.close();
  }
}
