package io.hops.namenode.shell;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A stock Hadoop tool ({@code FsShell}, {@code DFSAdmin}, {@code DFSck}, ...) run as its own JVM,
 * as {@code bin/hdfs} runs it: the test's classpath behind a conf directory of empty site files
 * (the tools load their configuration strictly), generic {@code -D} options first.
 */
public final class ToolProcess {
  static final long TIMEOUT_SECONDS = 90;

  /** What one process did. */
  public record Result(int exit, String out, String err) {}

  private final File workDir;
  private final File confDir;

  /** Keeps its conf directory and the processes' output files under {@code workDir}. */
  public ToolProcess(File workDir) throws IOException {
    this.workDir = workDir;
    this.confDir = new File(workDir, "conf");
    confDir.mkdirs();
    for (String site : List.of("core-site.xml", "hdfs-site.xml")) {
      Files.writeString(
          new File(confDir, site).toPath(), "<configuration/>\n", StandardCharsets.UTF_8);
    }
  }

  /**
   * Runs {@code mainClass} with {@code -D} settings {@code defs} ("key=value"), then {@code args}.
   */
  public Result run(String mainClass, List<String> defs, String tag, String... args)
      throws IOException, InterruptedException {
    return run(mainClass, List.of(), defs, tag, args);
  }

  /** As {@link #run(String, List, String, String...)}, with JVM options {@code jvmArgs} first. */
  public Result run(
      String mainClass, List<String> jvmArgs, List<String> defs, String tag, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    cmd.addAll(jvmArgs);
    // A short-lived client: start fast, log only warnings (slf4j-simple is the binding).
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    cmd.add("-Dorg.slf4j.simpleLogger.showDateTime=false");
    cmd.add("-cp");
    cmd.add(confDir.getAbsolutePath() + File.pathSeparator + System.getProperty("java.class.path"));
    cmd.add(mainClass);
    for (String d : defs) {
      cmd.add("-D");
      cmd.add(d);
    }
    cmd.addAll(List.of(args));
    File out = File.createTempFile(tag + "-", ".out", workDir);
    File err = File.createTempFile(tag + "-", ".err", workDir);
    Process p = new ProcessBuilder(cmd).redirectOutput(out).redirectError(err).start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(mainClass + " " + String.join(" ", args) + " timed out on " + tag);
    }
    Result r =
        new Result(
            p.exitValue(),
            Files.readString(out.toPath(), StandardCharsets.UTF_8),
            Files.readString(err.toPath(), StandardCharsets.UTF_8));
    Files.delete(out.toPath());
    Files.delete(err.toPath());
    return r;
  }
}
