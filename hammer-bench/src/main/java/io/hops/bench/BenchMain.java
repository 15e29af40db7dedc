package io.hops.bench;

import picocli.CommandLine;

/** {@code bin/hops bench ...}: see {@link BenchCommand}. */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    // The pure-Java fallback is what every process of the run uses; no need to say so.
    System.setProperty(
        "org.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader", "error");
    CommandLine cmd = new CommandLine(new BenchCommand(System.out));
    cmd.setUsageHelpWidth(100);
    int rc = cmd.execute(args);
    // Hadoop clients leave non-daemon threads behind.
    System.exit(rc);
  }
}
