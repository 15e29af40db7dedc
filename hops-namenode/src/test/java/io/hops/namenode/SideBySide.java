package io.hops.namenode;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
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
 * #start(String, Configuration, int, Configuration, StorageType...)}), hops has a second namenode
 * over the same store ({@link #other}) that the datanodes heartbeat too.
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
    private final Deque<Closeable> kept = new ArrayDeque<>();
    private DistributedFileSystem secondAdmin;

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

    /**
     * A second superuser client, a second writer (its own client name, so its own leases), made at
     * the first call and closed with the side.
     */
    public synchronized DistributedFileSystem secondAdmin() throws IOException {
      if (secondAdmin == null) {
        secondAdmin = keep(newAdmin());
      }
      return secondAdmin;
    }

    /**
     * {@code resource} (a stream left open for the class's tests, a client) closed with the side,
     * the last kept first and before the side's own clients.
     */
    public synchronized <T extends Closeable> T keep(T resource) {
      kept.push(resource);
      return resource;
    }

    @Override
    public synchronized void close() throws IOException {
      while (!kept.isEmpty()) {
        kept.pop().close();
      }
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

  private SideBySide(
      HopsTestCluster hops, HopsNameNode other, MiniDFSCluster hdfs, Consumer<Configuration> client)
      throws Exception {
    this.hops = hops;
    this.other = other;
    this.hdfs = hdfs;
    Configuration hopsClient = through(hops.namenode());
    Configuration hdfsClient = ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    client.accept(hopsClient);
    client.accept(hdfsClient);
    this.hopsSide = new Side("hops", hops.uri(), hopsClient);
    this.hdfsSide = new Side("hdfs", hdfs.getURI(), hdfsClient);
    hopsSide.alice();
    hdfsSide.alice();
  }

  /** Starts both systems; {@code name} names HDFS's test directory. */
  public static SideBySide start(String name) throws Exception {
    return start(name, new Configuration(false));
  }

  /** As {@link #start(String)}, both namenodes with the settings of {@code extra}. */
  public static SideBySide start(String name, Configuration extra) throws Exception {
    return named(name).conf(extra).start();
  }

  /** What to start, said option by option; {@code name} names HDFS's test directory. */
  public static Options named(String name) {
    return new Options(name);
  }

  /**
   * The options of a side by side: each namenode's settings, stock DataNodes, and the clients'
   * settings. Without datanodes hops has one namenode; with them a second one too ({@link #other}),
   * which the datanodes heartbeat as well, unless {@link #oneNamenode}.
   */
  public static final class Options {
    private final String name;
    private Configuration hopsConf = new Configuration(false);
    private Configuration hdfsConf = new Configuration(false);
    private int datanodes;
    private Configuration datanodeConf = new Configuration(false);
    private StorageType[] volumes = new StorageType[0];
    private boolean otherNamenode = true;
    private Consumer<Configuration> client = c -> {};

    private Options(String name) {
      this.name = name;
    }

    /** Settings of every namenode, on both sides. */
    public Options conf(Configuration conf) {
      return hopsConf(conf).hdfsConf(conf);
    }

    /** Settings of hops's namenodes only. */
    public Options hopsConf(Configuration conf) {
      this.hopsConf = conf;
      return this;
    }

    /** Settings of HDFS's namenode (and, as a MiniDFSCluster has one configuration, datanodes). */
    public Options hdfsConf(Configuration conf) {
      this.hdfsConf = conf;
      return this;
    }

    /**
     * {@code n} stock DataNodes a side, with the settings of {@code conf} on each (HDFS's cluster
     * gets them too); a hops datanode has one volume per type of {@code volumes} (none: one
     * volume), a MiniDFSCluster's two.
     */
    public Options datanodes(int n, Configuration conf, StorageType... volumes) {
      this.datanodes = n;
      this.datanodeConf = conf;
      this.volumes = volumes;
      return this;
    }

    /** {@code n} stock DataNodes a side with their default settings. */
    public Options datanodes(int n) {
      return datanodes(n, new Configuration(false));
    }

    /** hops's datanodes serve the cluster's one namenode, without {@link #other}. */
    public Options oneNamenode() {
      this.otherNamenode = false;
      return this;
    }

    /** Changes the client settings of both sides (each side's copy) before any client is made. */
    public Options client(Consumer<Configuration> change) {
      this.client = change;
      return this;
    }

    /** Starts both systems; waits until hops hears every datanode. */
    public SideBySide start() throws Exception {
      HopsTestCluster hops = new HopsTestCluster(hopsConf);
      HopsNameNode other = null;
      try {
        if (datanodes > 0) {
          other = otherNamenode ? hops.startAnotherNamenode() : null;
          HopsNameNode[] others = other == null ? new HopsNameNode[0] : new HopsNameNode[] {other};
          hops.startDatanodes(datanodes, datanodeConf, volumes, others);
          hops.waitForLive(datanodes);
        }
        Configuration both = new Configuration(hdfsConf);
        datanodeConf.forEach(e -> both.set(e.getKey(), e.getValue()));
        return new SideBySide(hops, other, ApacheHdfs.start(name, both, datanodes), client);
      } catch (Exception | Error e) {
        if (other != null) {
          other.close();
        }
        hops.close();
        throw e;
      }
    }
  }

  /**
   * As {@link #start(String, Configuration, int, Configuration, StorageType...)}, the datanodes
   * with their default settings and one volume each on hops's side.
   */
  public static SideBySide start(String name, Configuration conf, int datanodes) throws Exception {
    return named(name).conf(conf).datanodes(datanodes).start();
  }

  /**
   * Both systems with {@code datanodes} stock DataNodes each: hops as two namenodes over one store
   * (the cluster's and {@link #other}) that every datanode heartbeats, and a MiniDFSCluster; waits
   * until hops hears every datanode. {@code conf} is on every namenode, {@code datanodeConf} on
   * every datanode (HDFS's get both: a MiniDFSCluster has one configuration). A hops datanode has
   * one volume per type of {@code volumes} (none: one volume); a MiniDFSCluster's, two.
   */
  public static SideBySide start(
      String name,
      Configuration conf,
      int datanodes,
      Configuration datanodeConf,
      StorageType... volumes)
      throws Exception {
    return named(name).conf(conf).datanodes(datanodes, datanodeConf, volumes).start();
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
