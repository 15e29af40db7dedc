package io.hops.namenode.cli;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.NamenodeConfig;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops demo}: starts a namenode over the configured store on a free port, runs a few stock
 * {@code hdfs dfs} commands against it, prints what they print, and stops.
 */
@Command(
    name = "demo",
    description = "Start a namenode, run a few 'hdfs dfs' commands on it, stop.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.load(confDir);
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    try (HopsNameNode nn = HopsNameNode.start(conf)) {
      System.out.println("namenode serving at " + nn.uri());
      Configuration client = new Configuration(conf);
      client.set("fs.defaultFS", nn.uri());
      String home =
          "/user/" + System.getProperty("user.name") + "/demo-" + System.currentTimeMillis();
      List<String[]> commands =
          List.of(
              new String[] {"-mkdir", "-p", home + "/logs/2026", home + "/tables"},
              new String[] {"-touchz", home + "/logs/2026/empty.log"},
              new String[] {"-mv", home + "/logs/2026/empty.log", home + "/tables/"},
              new String[] {"-chmod", "750", home + "/tables"},
              new String[] {"-ls", "-R", home},
              new String[] {"-count", home},
              new String[] {"-rm", "-r", "-skipTrash", home + "/logs"},
              new String[] {"-ls", "-R", home});
      for (String[] args : commands) {
        System.out.println("\n$ hdfs dfs " + String.join(" ", args));
        int rc = ToolRunner.run(new FsShell(client), args);
        if (rc != 0) {
          return rc;
        }
      }
      System.out.println(
          "\nThe namespace lives in the metadata store; run it again to see it grow.");
    }
    return 0;
  }
}
