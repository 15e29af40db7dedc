package io.hops.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * CPU time a process has used, user plus system, from {@code /proc/PID/stat} (Linux): fields 14 and
 * 15, in clock ticks of {@code getconf CLK_TCK}; and the same for each of its threads, from {@code
 * /proc/PID/task/TID/stat}, named as {@code top -H} names them ({@code comm}: the first 15
 * characters of a Java thread's name).
 */
public final class ProcCpu {
  private static final long TICKS_PER_SECOND = ticksPerSecond();

  private ProcCpu() {}

  /** CPU milliseconds so far, or empty where there is no such process or no {@code /proc}. */
  public static OptionalLong millis(long pid) {
    try {
      return OptionalLong.of(
          ticks(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")))
              * 1000
              / TICKS_PER_SECOND);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * The whole machine's CPU time so far, all cores summed, from the first line of {@code
   * /proc/stat}: busy (user, nice, system, interrupts, steal) and in all (busy plus idle and I/O
   * wait), in milliseconds; null where there is no {@code /proc}.
   */
  public static MachineCpu machine() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/stat"))) {
      String cpu = lines.filter(l -> l.startsWith("cpu ")).findFirst().orElseThrow();
      String[] f = cpu.substring(4).trim().split(" +");
      long all = 0;
      for (int i = 0; i < Math.min(8, f.length); i++) { // guest time is within user already
        all += Long.parseLong(f[i]);
      }
      long idle = Long.parseLong(f[3]) + Long.parseLong(f[4]);
      return new MachineCpu((all - idle) * 1000 / TICKS_PER_SECOND, all * 1000 / TICKS_PER_SECOND);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The machine's busy and total CPU milliseconds, all cores summed. */
  public record MachineCpu(long busyMillis, long allMillis) {}

  /** One thread's name ({@code comm}) and CPU milliseconds so far. */
  public record ThreadCpu(String name, long millis) {}

  /**
   * Each live thread's name and CPU milliseconds so far, by thread id; empty where there is no such
   * process or no {@code /proc}. A thread that ends while it is read is left out.
   */
  public static Map<Long, ThreadCpu> threads(long pid) {
    Map<Long, ThreadCpu> out = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
      tasks.forEach(
          t -> {
            try {
              String stat = Files.readString(t.resolve("stat"));
              String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
              out.put(
                  Long.parseLong(t.getFileName().toString()),
                  new ThreadCpu(name, ticks(stat) * 1000 / TICKS_PER_SECOND));
            } catch (IOException | RuntimeException e) {
              // ended meanwhile
            }
          });
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return out;
  }

  /**
   * The group a thread's name belongs to: runs of digits folded into {@code #}, so that the
   * namenode's handlers, socket readers or garbage collector threads are one group each.
   */
  public static String group(String threadName) {
    return DIGITS.matcher(threadName).replaceAll("#").strip();
  }

  private static final Pattern DIGITS = Pattern.compile("[0-9]+");

  /** User plus system clock ticks of a {@code stat} line. */
  private static long ticks(String stat) {
    // The command name (field 2) is in parentheses and may hold spaces.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
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
