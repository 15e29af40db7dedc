package io.hops.namenode.cli;

/** The command line of {@code bin/hops} as {@code main} runs it, without the exit. */
public final class HopsMainAccess {
  private HopsMainAccess() {}

  public static int execute(String... args) {
    return HopsMain.commandLine().execute(args);
  }
}
