package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/** Loads {@code DIR/core-site.xml} and {@code DIR/hdfs-site.xml}; missing files mean defaults. */
final class Confs {
  static final String DEFAULT_FS = "hdfs://127.0.0.1:8020";

  private Confs() {}

  /** Blocks until the process is asked to stop, then closes the namenode. */
  static void serveUntilKilled(HopsNameNode nn) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  nn.close();
                  stopped.countDown();
                }));
    stopped.await();
  }

  /**
   * A client's configuration: {@link #load}, plus the namenode's web address for {@code fsck} from
   * {@code hops.namenode.http.port} unless {@code dfs.namenode.http-address} is set (the wildcard
   * host stands for the namenode's own host, as in HDFS).
   */
  static Configuration clientConf(String dir) {
    Configuration conf = load(dir);
    if (conf.get(NamenodeConfig.HTTP_PORT) != null
        && NamenodeConfig.isDefault(conf, DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY)) {
      conf.set(
          DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY,
          "0.0.0.0:" + conf.getInt(NamenodeConfig.HTTP_PORT, NamenodeConfig.HTTP_PORT_DEFAULT));
    }
    return conf;
  }

  /**
   * The datanode's three addresses on {@code host}: with {@code anyPorts}, ports the system picks
   * (several datanodes on one host), else HDFS's (9866, 9864, 9867). Addresses the site files set
   * are kept.
   */
  static void datanodeAddresses(Configuration conf, String host, boolean anyPorts) {
    String[][] keys = {
      {"dfs.datanode.address", "9866"},
      {"dfs.datanode.http.address", "9864"},
      {"dfs.datanode.ipc.address", "9867"}
    };
    for (String[] k : keys) {
      if (NamenodeConfig.isDefault(conf, k[0])) {
        conf.set(k[0], host + ":" + (anyPorts ? "0" : k[1]));
      }
    }
  }

  static Configuration load(String dir) {
    Configuration conf = new HdfsConfiguration();
    for (String name : new String[] {"core-site.xml", "hdfs-site.xml"}) {
      Path file = Path.of(dir).resolve(name);
      if (Files.isRegularFile(file)) {
        conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
      }
    }
    if (conf.get("fs.defaultFS", "file:///").startsWith("file:")) {
      conf.set("fs.defaultFS", DEFAULT_FS);
    }
    return conf;
  }
}
