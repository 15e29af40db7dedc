package io.hops.namenode.cli;

import io.hops.dal.sql.cli.HopsCli;
import java.util.Arrays;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine;

/**
 * {@code bin/hops}: the DAL commands ({@code format}, {@code db-info}, {@code dal-demo}) plus the
 * namenode's ({@code namenode}, {@code cluster}) and {@code dfs}, which is the stock Hadoop FsShell
 * pointed at hops.
 */
public final class HopsMain {
  private HopsMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("dfs")) {
      System.exit(dfs(Arrays.copyOfRange(args, 1, args.length)));
    }
    CommandLine cmd = HopsCli.commandLine();
    cmd.addSubcommand("namenode", new NamenodeCommand());
    cmd.addSubcommand("cluster", new ClusterCommand());
    cmd.addSubcommand("demo", new DemoCommand());
    System.exit(cmd.execute(args));
  }

  /** The stock FsShell with the configuration of {@code --conf DIR} (default ./conf). */
  static int dfs(String[] args) throws Exception {
    String confDir = "conf";
    if (args.length >= 2 && args[0].equals("--conf")) {
      confDir = args[1];
      args = Arrays.copyOfRange(args, 2, args.length);
    }
    return ToolRunner.run(new FsShell(Confs.load(confDir)), args);
  }
}
