package io.hops.namenode.tools;

import io.hops.namenode.ThreadConsole;
import java.io.IOException;
import java.io.PrintStream;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/** Runs a stock Hadoop tool in this JVM, as a given user, and keeps what it printed. */
public final class StockTool {
  /** Makes the tool, printing to {@code out} where it lets one choose. */
  public interface Factory {
    Tool make(PrintStream out) throws IOException;
  }

  public record Output(int rc, String out, String err) {
    /** The last non-empty line of stdout, which DFSck reads for its status. */
    String lastLine() {
      String[] lines = out.strip().split("\n");
      return lines[lines.length - 1];
    }
  }

  private StockTool() {}

  public static synchronized Output run(Factory factory, String... args) throws Exception {
    return run(UserGroupInformation.getCurrentUser(), factory, args);
  }

  /** The stock {@code dfsadmin} with {@code conf}. */
  public static Output dfsadmin(Configuration conf, String... args) throws Exception {
    return run(out -> new DFSAdmin(conf), args);
  }

  /** System.out and System.err are swapped while the tool runs, so runs are serialized. */
  public static synchronized Output run(UserGroupInformation user, Factory factory, String... args)
      throws Exception {
    ThreadConsole.Captured c =
        ThreadConsole.capture(
            () ->
                user.doAs(
                    (PrivilegedExceptionAction<Integer>)
                        () -> ToolRunner.run(factory.make(System.out), args)));
    return new Output(c.exit(), c.out(), c.err());
  }
}
