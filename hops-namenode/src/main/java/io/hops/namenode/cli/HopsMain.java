package io.hops.namenode.cli;

import java.util.Arrays;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code bin/hops}: the DAL commands ({@code format}, {@code db-info}, {@code dal-demo}), the
 * daemons ({@code namenode}, {@code datanode}, {@code cluster}), {@code demo}, and the stock Hadoop
 * tools pointed at hops: {@code dfs} (FsShell), {@code dfsadmin} (DFSAdmin) and {@code fsck}
 * (DFSck), configured from {@code conf/} like the daemons.
 */
public final class HopsMain {
  private HopsMain() {}

  private static final String LOG = "org.slf4j.simpleLogger.";

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("demo")) {
      // The demo's own output is the point: only errors from the daemons (and not the DataNode's
      // complaint about being stopped at the end).
      quiet(LOG + "defaultLogLevel", "error");
      quiet(LOG + "log.org.apache.hadoop", "error");
      quiet(LOG + "log.org.apache.hadoop.hdfs.server.datanode.DataNode", "off");
    }
    if (args.length > 0 && TOOLS.contains(args[0])) {
      System.exit(tool(args[0], Arrays.copyOfRange(args, 1, args.length)));
    }
    System.exit(commandLine().execute(args));
  }

  /** Every command of {@code bin/hops} (the stock tools only listed), ready to execute or parse. */
  static CommandLine commandLine() {
    CommandLine cmd = HopsCli.commandLine();
    cmd.addSubcommand("namenode", new NamenodeCommand());
    cmd.addSubcommand("datanode", new DatanodeCommand());
    cmd.addSubcommand("cluster", new ClusterCommand());
    cmd.addSubcommand("namenodes", new NamenodesCommand());
    cmd.addSubcommand("demo", new DemoCommand());
    cmd.addSubcommand("fsck-namespace", new FsckNamespaceCommand());
    cmd.addSubcommand("export", new ExportCommand());
    cmd.addSubcommand("import", new ImportCommand());
    // Listed for --help only: their arguments are the stock tools', so main() hands them over.
    cmd.addSubcommand("dfs", listed("The stock 'hdfs dfs' shell: bin/hops dfs [--conf DIR] -ls /"));
    cmd.addSubcommand(
        "dfsadmin",
        listed(
            "The stock 'hdfs dfsadmin': bin/hops dfsadmin [--conf DIR] -report | -safemode get"));
    cmd.addSubcommand(
        "fsck", listed("The stock 'hdfs fsck': bin/hops fsck [--conf DIR] / [-files -blocks]"));
    return cmd;
  }

  private static final java.util.Set<String> TOOLS = java.util.Set.of("dfs", "dfsadmin", "fsck");

  private static void quiet(String property, String level) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, level);
    }
  }

  private static CommandLine listed(String description) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection((Callable<Integer>) () -> 0);
    spec.usageMessage().description(description);
    return new CommandLine(spec);
  }

  /** Runs a stock tool with the configuration of a leading {@code --conf DIR} (default ./conf). */
  static int tool(String name, String[] args) throws Exception {
    String confDir = "conf";
    if (args.length >= 2 && args[0].equals("--conf")) {
      confDir = args[1];
      args = Arrays.copyOfRange(args, 2, args.length);
    }
    Configuration conf = Confs.clientConf(confDir);
    Tool tool =
        switch (name) {
          case "dfs" -> new FsShell(conf);
          case "dfsadmin" -> new DFSAdmin(conf);
          case "fsck" -> new DFSck(conf);
          default -> throw new IllegalArgumentException("no tool " + name);
        };
    if (name.equals("fsck") && args.length == 0) {
      args = new String[] {"/"};
    }
    return ToolRunner.run(tool, args);
  }
}
