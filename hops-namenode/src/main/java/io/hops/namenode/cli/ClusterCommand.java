package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops cluster}: a local cluster in one process. For now the embedded store and one
 * namenode; datanodes join when the data path lands.
 */
@Command(
    name = "cluster",
    description = "Run a local cluster: the embedded store and a namenode (datanodes: later).")
final class ClusterCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Override
  public Integer call() throws Exception {
    HopsNameNode nn = HopsNameNode.start(Confs.load(confDir));
    System.out.println("hops cluster running; namenode at " + nn.uri());
    System.out.println("try, in another terminal:");
    System.out.println("  bin/hops dfs -mkdir -p /user/$USER/demo");
    System.out.println("  bin/hops dfs -touchz /user/$USER/demo/empty");
    System.out.println("  bin/hops dfs -ls -R /");
    System.out.println("stop with Ctrl-C");
    Confs.serveUntilKilled(nn);
    return 0;
  }
}
