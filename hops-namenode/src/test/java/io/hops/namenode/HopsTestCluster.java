package io.hops.namenode;

import io.hops.common.HopsConfig;
import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;

/** A namenode over a fresh in-memory embedded store, and clients for it, for tests. */
public final class HopsTestCluster implements AutoCloseable {
  private static final AtomicInteger STORES = new AtomicInteger();

  private final HopsNameNode namenode;
  private final Configuration conf;
  private final List<DataNode> datanodes = new ArrayList<>();
  private final List<Configuration> datanodeConfs = new ArrayList<>();
  private Path dataRoot;
  private boolean ownsDataRoot = true;

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
    return onMariadbOrNull(new Configuration(false));
  }

  /** As {@link #onMariadbOrNull()}, with {@code extra} settings. */
  public static HopsTestCluster onMariadbOrNull(Configuration extra) throws IOException {
    Map<String, String> db = emptyMariadbOrNull();
    if (db == null) {
      return null;
    }
    Configuration c = new Configuration(extra);
    db.forEach(c::set);
    return new HopsTestCluster(c);
  }

  /**
   * The metadata settings ({@code hops.metadata.*}) of the MariaDB of
   * HOPS_TEST_MYSQL_URL/USER/PASSWORD, its schema created and every table emptied; null when none
   * is configured. For tests that start namenode processes over it.
   */
  public static Map<String, String> emptyMariadbOrNull() throws IOException {
    String url = System.getenv("HOPS_TEST_MYSQL_URL");
    if (url == null || url.isBlank()) {
      return null;
    }
    Map<String, String> db =
        Map.of(
            HopsConfig.METADATA_ENGINE,
            "mysql",
            HopsConfig.JDBC_URL,
            url,
            HopsConfig.JDBC_USER,
            System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops"),
            HopsConfig.JDBC_PASSWORD,
            System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", "hops"));
    try (io.hops.dal.Storage s = io.hops.dal.Storages.open(io.hops.dal.DalConfig.of(db))) {
      s.schema().createOrUpgrade();
      s.schema().clearAll();
    }
    return db;
  }

  /**
   * Another namenode over the same metadata store, with its own caches; not the leader while the
   * first one lives (it joins the election with a larger id).
   */
  public HopsNameNode startAnotherNamenode() throws IOException {
    return HopsNameNode.start(new Configuration(conf));
  }

  /** As {@link #startAnotherNamenode()}, with the settings of {@code extra} over the cluster's. */
  public HopsNameNode startAnotherNamenode(Configuration extra) throws IOException {
    Configuration c = new Configuration(conf);
    extra.forEach(e -> c.set(e.getKey(), e.getValue()));
    return HopsNameNode.start(c);
  }

  /**
   * Starts {@code n} stock DataNodes in this JVM, each with its own data directory, serving this
   * cluster's namenode (and {@code others}), and waits until the namenode has heard from them all.
   * Heartbeats every second; {@code extra} settings apply to every datanode.
   */
  public List<DataNode> startDatanodes(int n, Configuration extra, HopsNameNode... others)
      throws IOException {
    return startDatanodes(n, extra, new StorageType[0], others);
  }

  /**
   * Starts {@code n} datanodes as {@link #startDatanodes(int)} does, each with one data directory
   * per storage type of {@code types} ({@code [SSD]file:///.../ssd0,...}), so that they report
   * storages of those types.
   */
  public List<DataNode> startTypedDatanodes(int n, StorageType... types) throws IOException {
    return startDatanodes(n, new Configuration(false), types);
  }

  /**
   * Starts {@code n} datanodes as {@link #startDatanodes(int, Configuration, HopsNameNode...)}
   * does, each with one data directory per storage type of {@code types} (none: one default
   * directory).
   */
  public List<DataNode> startDatanodes(
      int n, Configuration extra, StorageType[] types, HopsNameNode... others) throws IOException {
    if (dataRoot == null) {
      dataRoot = Files.createTempDirectory("hops-dn-");
    }
    List<InetSocketAddress> nns = new ArrayList<>();
    nns.add(namenode.address());
    for (HopsNameNode o : others) {
      nns.add(o.address());
    }
    List<DataNode> started = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Configuration base = new Configuration(extra);
      base.setIfUnset("dfs.heartbeat.interval", "1");
      base.setIfUnset("dfs.blockreport.initialDelay", "0");
      // A namenode a test crashed is retried briefly, so that shutting the datanode down does not
      // wait for a long reconnect loop to end.
      base.setIfUnset("ipc.client.connect.max.retries", "1");
      base.setIfUnset("ipc.client.connect.retry.interval", "200");
      File dir = dataRoot.resolve("dn" + datanodes.size()).toFile();
      Configuration dnConf = DatanodeLauncher.configure(base, nns, dir, "127.0.0.1");
      if (types.length > 0) {
        dnConf.set("dfs.datanode.data.dir", typedDirs(dir, types));
      }
      DataNode dn = DatanodeLauncher.start(dnConf);
      datanodes.add(dn);
      datanodeConfs.add(dnConf);
      started.add(dn);
    }
    waitForLive(datanodes.size());
    return started;
  }

  /**
   * Datanodes started from now on keep their blocks in {@code root} ({@code dn0}, {@code dn1},
   * ...), which the caller owns and {@link #close} leaves: another cluster's datanodes over the
   * same directories are the same datanodes, with the same blocks.
   */
  public HopsTestCluster withDataRoot(Path root) {
    dataRoot = root;
    ownsDataRoot = false;
    return this;
  }

  /** {@code [TYPE]file:///dir/type0,...}: one directory under {@code dir} per storage type. */
  public static String typedDirs(File dir, StorageType... types) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < types.length; i++) {
      File d = new File(dir, types[i].name().toLowerCase(java.util.Locale.ROOT) + i);
      out.append(out.length() == 0 ? "" : ",")
          .append('[')
          .append(types[i].name())
          .append(']')
          .append(d.toURI());
    }
    return out.toString();
  }

  /**
   * Puts the data directories of the datanodes started from now on in memory ({@code /dev/shm},
   * where the machine has one): for tests that give a datanode hundreds of thousands of replicas,
   * whose files a disk creates and deletes slowly. Call before the first datanode starts.
   */
  public HopsTestCluster withDatanodesInMemory() throws IOException {
    Path shm = Path.of("/dev/shm");
    if (dataRoot == null && Files.isDirectory(shm) && Files.isWritable(shm)) {
      dataRoot = Files.createTempDirectory(shm, "hops-dn-");
    }
    return this;
  }

  /** Starts {@code n} datanodes with default settings. */
  public List<DataNode> startDatanodes(int n) throws IOException {
    return startDatanodes(n, new Configuration(false));
  }

  /**
   * Waits (up to 30 s) until every block of {@code p} has {@code n} reported replicas: a file is
   * closed once the minimum replication is reported, and the other replicas follow, as in HDFS.
   */
  public static void awaitReplicas(
      org.apache.hadoop.fs.FileSystem fs, org.apache.hadoop.fs.Path p, int n) throws IOException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (true) {
      var locations = fs.getFileBlockLocations(p, 0, Long.MAX_VALUE);
      boolean all = true;
      for (var l : locations) {
        all &= l.getHosts().length == n;
      }
      if (all) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            p
                + " does not have "
                + n
                + " replicas of every block: "
                + java.util.Arrays.toString(locations));
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException();
      }
    }
  }

  public List<DataNode> datanodes() {
    return datanodes;
  }

  /**
   * Stops datanode {@code i}, runs {@code whileStopped} on its volumes (the directories of its
   * storages, in the order of its data directories) and starts it again over them, with the same
   * configuration: the same datanode, as after a restart of its process. Returns it once it has
   * registered with this cluster's namenode again.
   */
  public DataNode restartDatanode(int i, VolumeAction whileStopped) throws IOException {
    datanodes.get(i).shutdown();
    Configuration dnConf = datanodeConfs.get(i);
    List<File> volumes = new ArrayList<>();
    for (String location : dnConf.getTrimmedStrings("dfs.datanode.data.dir")) {
      volumes.add(
          new File(
              org.apache.hadoop.hdfs.server.datanode.StorageLocation.parse(location).getUri()));
    }
    whileStopped.run(volumes);
    DataNode dn = DatanodeLauncher.start(dnConf);
    datanodes.set(i, dn);
    waitForLive(datanodes.size());
    // The namenode may still count the datanode's registration from before the restart: wait
    // for the new process to have registered (it learns its uuid then).
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (dn.getDatanodeUuid() == null) {
      if (System.nanoTime() > deadline) {
        throw new IOException("restarted datanode " + i + " did not register in 60 s");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted");
      }
    }
    return dn;
  }

  /** What a test does to a stopped datanode's volumes. */
  public interface VolumeAction {
    void run(List<File> volumes) throws IOException;
  }

  /** Waits (up to 60 s) until the namenode counts {@code n} live datanodes with storages. */
  public void waitForLive(int n) throws IOException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (true) {
      long live =
          namenode.namesystem().blocks().datanodes().live().stream()
              .filter(d -> d.heardFrom() && d.bestStorage() != null)
              .count();
      if (live >= n) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("only " + live + " of " + n + " datanodes came up");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException();
      }
    }
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
    for (DataNode dn : datanodes) {
      dn.shutdown();
    }
    namenode.close();
    if (dataRoot != null && ownsDataRoot) {
      org.apache.hadoop.fs.FileUtil.fullyDelete(dataRoot.toFile());
    }
  }
}
