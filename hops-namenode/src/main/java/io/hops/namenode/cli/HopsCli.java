package io.hops.namenode.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code bin/hops}: the single entry point (docs/architecture.md, "Configuration and the entry
 * point").
 */
@Command(
    name = "hops",
    description = "HDFS-compatible file system whose metadata lives in a database.",
    subcommands = {FormatCommand.class, DbInfoCommand.class, DalDemoCommand.class},
    footerHeading = "%nExit status:%n",
    footer = {
      "  0  done",
      "  " + HopsCli.EXIT_KEPT_DATA + "  format found data and kept it (see 'hops format --help')",
      "  " + HopsCli.EXIT_ERROR + "  error or bad usage"
    })
public final class HopsCli implements Callable<Integer> {
  /** Exit status of {@code format} when the store already held data and was left alone. */
  static final int EXIT_KEPT_DATA = 1;

  /** Exit status of a failed command; picocli uses it for usage errors too. */
  static final int EXIT_ERROR = 2;

  @Spec private CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      scope = ScopeType.INHERIT,
      description = "Show this help.")
  private boolean help;

  @Option(
      names = {"-v", "--verbose"},
      scope = ScopeType.INHERIT,
      description = "Print the stack trace of an error.")
  private boolean verbose;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line, ready to execute; tests redirect its output. */
  public static CommandLine commandLine() {
    HopsCli cli = new HopsCli();
    CommandLine cmd = new CommandLine(cli);
    cmd.setExecutionExceptionHandler(cli::report);
    cmd.setParameterExceptionHandler(HopsCli::reportUsageError);
    return cmd;
  }

  /** Without a subcommand: the usage, as a usage error. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return EXIT_ERROR;
  }

  /** An error is one line on stderr, with its stack trace only if asked for. */
  private int report(Exception e, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    err.println(cmd.getCommandSpec().qualifiedName() + ": " + oneLine(e));
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
    return EXIT_ERROR;
  }

  /** A usage error is one line too, pointing at the help. */
  private static int reportUsageError(ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    String name = cmd.getCommandSpec().qualifiedName();
    cmd.getErr().println(name + ": " + oneLine(e) + " (see '" + name + " --help')");
    cmd.getErr().flush();
    return EXIT_ERROR;
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      return e.getClass().getSimpleName();
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline).trim();
  }
}
