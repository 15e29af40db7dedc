package io.hops.namenode.tx;

import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test hook (system properties, never set in production): pauses the leader inside a fenced
 * transaction, after its fence check and while it holds the fence's lock, the moment a process
 * pause or a network cut hurts the most. It fires once each time the file named by {@code
 * hops.test.fenced-pause.file} appears (the file is read and removed): a file that says {@code
 * sigstop} makes the process send itself SIGSTOP (the test sends SIGCONT), one that holds a number
 * makes the thread sleep that many milliseconds. What became of the paused transaction is logged,
 * so that a test can tell that it committed nothing.
 */
public final class FencedPause {
  private static final Logger LOG = LoggerFactory.getLogger(FencedPause.class);
  private static final String FILE = System.getProperty("hops.test.fenced-pause.file");
  private static final ThreadLocal<Boolean> PAUSED = new ThreadLocal<>();

  /** What the fence knows of the lease, for the log line a test reads. */
  private static volatile java.util.function.LongSupplier leaseEndMillis = () -> -1;

  private FencedPause() {}

  /** Where the lease's end comes from: wall-clock milliseconds, or -1. */
  public static void leaseEnd(java.util.function.LongSupplier millis) {
    leaseEndMillis = millis;
  }

  static void pauseIfAsked() {
    if (FILE == null) {
      return;
    }
    try {
      Path file = Path.of(FILE);
      if (!Files.exists(file)) {
        return;
      }
      String mode = Files.readString(file).trim();
      Files.delete(file);
      PAUSED.set(true);
      LOG.warn(
          "test hook: paused inside a fenced transaction at {}; the lease ends at {}",
          System.currentTimeMillis(),
          leaseEndMillis.getAsLong());
      if (mode.equals("sigstop")) {
        long pid = ProcessHandle.current().pid();
        new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
        // The signal may land a moment after kill returns: stay here until it has.
        Thread.sleep(500);
      } else {
        Thread.sleep(Long.parseLong(mode));
      }
      LOG.warn("test hook: the fenced transaction resumes at {}", System.currentTimeMillis());
    } catch (java.io.IOException | RuntimeException e) {
      LOG.warn("test hook failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Logs what became of a transaction paused on this thread: committed (null) or failed. */
  static void outcome(Exception failure) {
    if (FILE == null || PAUSED.get() == null) {
      return;
    }
    PAUSED.remove();
    if (failure == null) {
      LOG.warn("test hook: the paused fenced transaction committed");
    } else {
      LOG.warn("test hook: the paused fenced transaction failed: {}", failure.toString());
    }
  }
}
