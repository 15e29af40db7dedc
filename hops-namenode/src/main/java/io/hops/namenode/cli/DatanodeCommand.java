package io.hops.namenode.cli;

import io.hops.datanode.DatanodeLauncher;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops datanode}: the stock Apache DataNode, serving one namenode or, with several, all of
 * them as one HA nameservice (docs/architecture.md, "Wire compatibility"), until killed.
 */
@Command(
    name = "datanode",
    description = "Run a stock Apache DataNode for the hops namenode(s), until killed.")
final class DatanodeCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Option(
      names = "--namenode",
      paramLabel = "hdfs://HOST:PORT",
      description =
          "A namenode to serve; repeat for several (default: fs.defaultFS or the nameservice of"
              + " the configuration).")
  List<URI> namenodes = new ArrayList<>();

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where the blocks live (default: dfs.datanode.data.dir, else ./data/datanode).")
  File dataDir;

  @Option(
      names = "--bind-host",
      paramLabel = "HOST",
      description = "Address the datanode listens on and reports (default: ${DEFAULT-VALUE}).")
  String bindHost = "127.0.0.1";

  @Option(
      names = "--any-ports",
      description =
          "Listen on ports the system picks (for several datanodes on one host) instead of HDFS's"
              + " 9866, 9864 and 9867.")
  boolean anyPorts;

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.load(confDir);
    Confs.datanodeAddresses(conf, bindHost, anyPorts);
    File dir = dataDir;
    if (dir == null) {
      String configured = conf.getTrimmed("dfs.datanode.data.dir");
      dir =
          configured == null || configured.isEmpty() || configured.contains("${")
              ? new File("data/datanode")
              : new File(URI.create(configured).getPath());
    }
    DataNode dn =
        DatanodeLauncher.start(
            DatanodeLauncher.configure(conf, addresses(conf), dir.getAbsoluteFile(), bindHost));
    System.out.println(
        "datanode "
            + dn.getDisplayName()
            + " serving "
            + dn.getConf().get("fs.defaultFS")
            + " from "
            + dir.getAbsolutePath());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LocalDatanodes.shutdown(dn);
                  stopped.countDown();
                }));
    stopped.await();
    return 0;
  }

  /** The namenodes: as given, else the configuration's nameservice or default file system. */
  private List<InetSocketAddress> addresses(Configuration conf) {
    List<InetSocketAddress> out = new ArrayList<>();
    for (URI nn : namenodes) {
      out.add(address(nn));
    }
    if (!out.isEmpty()) {
      return out;
    }
    URI fs = URI.create(conf.get("fs.defaultFS"));
    String ns = fs.getHost();
    if (ns != null && conf.get("dfs.ha.namenodes." + ns) != null) {
      out.addAll(
          DFSUtilClient.getAddressesForNameserviceId(conf, ns, null, "dfs.namenode.rpc-address")
              .values());
      return out;
    }
    out.add(address(fs));
    return out;
  }

  private static InetSocketAddress address(URI nn) {
    if (!"hdfs".equals(nn.getScheme()) || nn.getHost() == null) {
      throw new IllegalArgumentException("not a namenode address (hdfs://HOST:PORT): " + nn);
    }
    return InetSocketAddress.createUnresolved(nn.getHost(), nn.getPort() < 0 ? 8020 : nn.getPort());
  }
}
