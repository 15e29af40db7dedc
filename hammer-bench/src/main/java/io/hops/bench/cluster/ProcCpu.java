package io.hops.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * CPU time a process has used, user plus system, from {@code /proc/PID/stat} (Linux): fields 14 and
 * 15, in clock ticks of {@code getconf CLK_TCK}.
 */
public final class ProcCpu {
  private static final long TICKS_PER_SECOND = ticksPerSecond();

  private ProcCpu() {}

  /** CPU milliseconds so far, or empty where there is no such process or no {@code /proc}. */
  public static OptionalLong millis(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      // The command name (field 2) is in parentheses and may hold spaces.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      return OptionalLong.of(ticks * 1000 / TICKS_PER_SECOND);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  private static long ticksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return Long.parseLong(out);
      }
    } catch (IOException | RuntimeException e) {
      // fall through to the usual value
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }
}
