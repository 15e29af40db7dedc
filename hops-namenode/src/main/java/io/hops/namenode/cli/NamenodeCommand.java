package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hops namenode}: one namenode over the configured metadata store, until killed. */
@Command(
    name = "namenode",
    description = "Run a namenode over the configured metadata store (creating the schema).")
final class NamenodeCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Override
  public Integer call() throws Exception {
    HopsNameNode nn = HopsNameNode.start(Confs.load(confDir));
    System.out.println("namenode serving at " + nn.uri());
    System.out.println("web UI at " + (nn.httpUri() == null ? "(off)" : nn.httpUri()));
    Confs.serveUntilKilled(nn);
    return 0;
  }
}
