package io.hops.dal.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A test's child JVM on the test classpath, killed by SIGKILL. Its stdout and stderr go to files,
 * not pipes: a pipe that the JDK drains when the process dies can lose the last lines under a
 * concurrent reader, and the last line is the one a durability test needs.
 */
final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private ChildJvm(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  static ChildJvm start(Path workDir, Class<?> mainClass, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, mainClass.getSimpleName(), ".stdout");
    Path err = Files.createTempFile(workDir, mainClass.getSimpleName(), ".stderr");
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    return new ChildJvm(p, out, err);
  }

  /** Waits for a stdout line that matches; fails if the child dies or the time runs out. */
  String awaitLine(Predicate<String> matching, long timeoutMillis) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      boolean exited = !process.isAlive();
      for (String line : lines()) {
        if (matching.test(line)) {
          return line;
        }
      }
      if (exited) {
        throw new IllegalStateException(
            "child exited with " + process.exitValue() + " before the line came" + stderrTail());
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("no such line in " + timeoutMillis + " ms" + stderrTail());
      }
      Thread.sleep(5);
    }
  }

  /**
   * SIGKILL ({@link Process#destroyForcibly()} on Linux), then waits until the process is gone.
   * Returns the exit status: 137 (128 + 9) proves it died by SIGKILL.
   */
  int kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("child " + process.pid() + " survived SIGKILL");
    }
    return process.exitValue();
  }

  long pid() {
    return process.pid();
  }

  /** Every complete stdout line so far; all of them once {@link #kill()} returned. */
  List<String> lines() {
    try {
      String text = Files.readString(stdout, StandardCharsets.UTF_8);
      List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
      lines.remove(lines.size() - 1); // the unterminated rest, if any, is not a line yet
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String stderrTail() {
    try {
      List<String> all = Files.readAllLines(stderr);
      return all.isEmpty()
          ? ""
          : "; its stderr ends with:\n  "
              + String.join("\n  ", all.subList(Math.max(0, all.size() - 30), all.size()));
    } catch (IOException e) {
      return "; stderr unreadable: " + e;
    }
  }

  /** Kills the child if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
