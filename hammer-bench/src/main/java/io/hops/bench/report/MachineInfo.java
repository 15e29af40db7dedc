package io.hops.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a run ran on, for its report: cores, memory, CPU model, OS, Java. */
public final class MachineInfo {
  private MachineInfo() {}

  public static Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    m.put("cpu", firstValue(Path.of("/proc/cpuinfo"), "model name"));
    String mem = firstValue(Path.of("/proc/meminfo"), "MemTotal");
    if (mem != null && mem.endsWith(" kB")) {
      long kb = Long.parseLong(mem.substring(0, mem.length() - 3).trim());
      m.put("memoryGiB", Math.round(kb / 1024.0 / 1024.0 * 10) / 10.0);
    }
    m.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    return m;
  }

  private static String firstValue(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(key)) {
          int colon = line.indexOf(':');
          return colon < 0 ? null : line.substring(colon + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }
}
