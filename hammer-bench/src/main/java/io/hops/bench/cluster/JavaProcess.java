package io.hops.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the benchmark started (a namenode, a datanode), its output in a log file. Every one still
 * running when the benchmark exits, however it exits, is stopped.
 */
public final class JavaProcess implements AutoCloseable {
  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "stop-all"));
  }

  private final String name;
  private final Process process;
  private final Path log;

  private JavaProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** Starts {@code java OPTIONS -cp CLASSPATH MAIN ARGS}, stdout and stderr into {@code log}. */
  public static JavaProcess start(
      String name,
      List<String> jvmOptions,
      String classpath,
      String mainClass,
      List<String> args,
      Path log)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass);
    cmd.addAll(args);
    Files.createDirectories(log.getParent());
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
    RUNNING.add(p);
    return new JavaProcess(name, p, log);
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the process to end by itself; its exit code, or -1 if it did not in time. */
  public int waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    if (process.waitFor(timeout, unit)) {
      RUNNING.remove(process);
      return process.exitValue();
    }
    return -1;
  }

  /** Whether the log has a line containing {@code text} yet. */
  public boolean logContains(String text) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8).contains(text);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** How many lines of the log contain {@code text} so far. */
  public long logCount(String text) {
    try (java.util.stream.Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      return lines.filter(l -> l.contains(text)).count();
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** The last lines of the log, for an error message. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | RuntimeException e) {
      return "(no log at " + log + ")";
    }
  }

  /** Kills the process at once (SIGKILL), as a crash would, and waits until it is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    RUNNING.remove(process);
  }

  /** Asks the process to stop (SIGTERM), and kills it if it has not within 20 seconds. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    RUNNING.remove(process);
  }
}
