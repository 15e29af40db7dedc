package io.hops.namenode.cli;

import io.hops.dal.Storage;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.NamenodeConfig;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops cluster}: a whole local cluster in one process: the configured metadata store
 * (embedded by default), one or more namenodes with their web UIs (the first on the configured
 * ports, the others on the next ports up), and stock DataNodes with their own data directories,
 * reporting to every namenode.
 */
@Command(
    name = "cluster",
    description =
        "Run a local cluster in one process: the metadata store, namenodes (RPC and web UI) and"
            + " datanodes, until Ctrl-C.")
final class ClusterCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where the datanodes keep blocks: DIR/datanode-N (default: ${DEFAULT-VALUE}).")
  File dataDir = new File("data");

  @Option(
      names = "--datanodes",
      paramLabel = "N",
      description = "How many datanodes (default: ${DEFAULT-VALUE}).")
  int datanodes = 3;

  @Option(
      names = "--namenodes",
      paramLabel = "N",
      description =
          "How many namenodes (default: ${DEFAULT-VALUE}); they elect a leader among themselves.")
  int namenodes = 1;

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.load(confDir);
    List<HopsNameNode> nns = new ArrayList<>();
    LocalDatanodes dns;
    try {
      Storage shared = null;
      for (int i = 0; i < namenodes; i++) {
        Configuration c = portsOf(conf, i);
        if (i == 0) {
          nns.add(HopsNameNode.start(c));
          shared = nns.get(0).namesystem().storage();
        } else if (nns.get(0).namesystem().storage().engine().equals("embedded")) {
          // One process may open an embedded store once: the others share its storage.
          nns.add(HopsNameNode.start(c, shared));
        } else {
          nns.add(HopsNameNode.start(c));
        }
      }
      dns = LocalDatanodes.start(conf, nns, dataDir, datanodes);
    } catch (Exception e) {
      for (int i = nns.size() - 1; i >= 0; i--) {
        nns.get(i).close();
      }
      throw e;
    }
    String withConf = confDir.equals("conf") ? "" : " --conf " + confDir;
    System.out.println();
    System.out.println("hops cluster running");
    for (HopsNameNode nn : nns) {
      System.out.println(
          "  namenode   "
              + nn.uri()
              + "  web UI "
              + (nn.httpUri() == null ? "off" : nn.httpUri())
              + (nn.election().isLeader() ? "  (leader)" : ""));
    }
    System.out.println(
        "  datanodes  " + datanodes + ", blocks in " + dataDir.getAbsolutePath() + "/datanode-N");
    System.out.println("try, in another terminal:");
    System.out.println("  bin/hops dfs" + withConf + " -mkdir -p /user/$USER");
    System.out.println("  bin/hops dfs" + withConf + " -put README.md /user/$USER/");
    System.out.println("  bin/hops dfs" + withConf + " -cat /user/$USER/README.md");
    System.out.println("  bin/hops dfsadmin" + withConf + " -report");
    System.out.println("  bin/hops fsck" + withConf + " / -files -blocks -locations");
    System.out.println("  bin/hops namenodes" + withConf);
    System.out.println("stop with Ctrl-C");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  dns.close();
                  for (int i = nns.size() - 1; i >= 0; i--) {
                    nns.get(i).close();
                  }
                  stopped.countDown();
                }));
    stopped.await();
    return 0;
  }

  /**
   * The i-th namenode's configuration: the configured RPC and HTTP ports plus i (0: any stays 0).
   */
  private static Configuration portsOf(Configuration conf, int i) {
    if (i == 0) {
      return conf;
    }
    Configuration c = new Configuration(conf);
    int rpc = conf.getInt(NamenodeConfig.RPC_PORT, NamenodeConfig.RPC_PORT_DEFAULT);
    int http = conf.getInt(NamenodeConfig.HTTP_PORT, NamenodeConfig.HTTP_PORT_DEFAULT);
    c.setInt(NamenodeConfig.RPC_PORT, rpc == 0 ? 0 : rpc + i);
    c.setInt(NamenodeConfig.HTTP_PORT, http <= 0 ? http : http + i);
    return c;
  }
}
