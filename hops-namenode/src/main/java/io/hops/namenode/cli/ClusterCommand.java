package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import java.io.File;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops cluster}: a whole local cluster in one process: the configured metadata store
 * (embedded by default), one namenode with its web UI, and three stock DataNodes with their own
 * data directories.
 */
@Command(
    name = "cluster",
    description =
        "Run a local cluster in one process: the metadata store, a namenode (RPC and web UI) and"
            + " 3 datanodes, until Ctrl-C.")
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

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.load(confDir);
    HopsNameNode nn = HopsNameNode.start(conf);
    LocalDatanodes dns;
    try {
      dns = LocalDatanodes.start(conf, nn, dataDir, datanodes);
    } catch (Exception e) {
      nn.close();
      throw e;
    }
    String withConf = confDir.equals("conf") ? "" : " --conf " + confDir;
    System.out.println();
    System.out.println("hops cluster running");
    System.out.println("  namenode   " + nn.uri());
    System.out.println("  web UI     " + (nn.httpUri() == null ? "off" : nn.httpUri()));
    System.out.println(
        "  datanodes  " + datanodes + ", blocks in " + dataDir.getAbsolutePath() + "/datanode-N");
    System.out.println("try, in another terminal:");
    System.out.println("  bin/hops dfs" + withConf + " -mkdir -p /user/$USER");
    System.out.println("  bin/hops dfs" + withConf + " -put README.md /user/$USER/");
    System.out.println("  bin/hops dfs" + withConf + " -cat /user/$USER/README.md");
    System.out.println("  bin/hops dfsadmin" + withConf + " -report");
    System.out.println("  bin/hops fsck" + withConf + " / -files -blocks -locations");
    System.out.println("stop with Ctrl-C");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  dns.close();
                  nn.close();
                  stopped.countDown();
                }));
    stopped.await();
    return 0;
  }
}
