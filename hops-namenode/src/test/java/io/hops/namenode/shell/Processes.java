package io.hops.namenode.shell;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** What the tests that run {@code bin/hops} commands as processes share. */
public final class Processes {
  private Processes() {}

  public static List<String> java(boolean client) {
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    // Short-lived, little data: start fast.
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    if (client) {
      cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    } else {
      cmd.add("-Xmx512m");
    }
    cmd.add("-cp");
    cmd.add(runtimeClasspath());
    cmd.add("io.hops.namenode.cli.HopsMain");
    return cmd;
  }

  /**
   * This JVM's classpath without the test classes and Hadoop's test jars, which hold resources the
   * runtime lacks (such as the DataNode's webapps): what {@code bin/hops} runs with.
   */
  public static String runtimeClasspath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.endsWith("test-classes") && !e.endsWith("-tests.jar"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  public static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /**
   * A port free now, below the kernel's range of ephemeral ports: a port from that range (what
   * {@code new ServerSocket(0)} hands out) can be taken by any process's outgoing connection (a
   * namenode's to the database) before the process it was chosen for binds it, which failed {@code
   * ProcessFailoverTest} once with "Port in use".
   */
  public static int freePort() throws IOException {
    int below = firstEphemeralPort();
    java.util.concurrent.ThreadLocalRandom random =
        java.util.concurrent.ThreadLocalRandom.current();
    for (int attempt = 0; below > 11_000 && attempt < 100; attempt++) {
      int port = random.nextInt(10_000, below);
      try (ServerSocket s = new ServerSocket(port)) {
        return s.getLocalPort();
      } catch (IOException inUse) {
        // try another
      }
    }
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The first port of the kernel's ephemeral range (Linux), or 0 when it cannot be read. */
  private static int firstEphemeralPort() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  public static String site(String... keyValues) {
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < keyValues.length; i += 2) {
      b.append("  <property><name>")
          .append(keyValues[i])
          .append("</name><value>")
          .append(keyValues[i + 1])
          .append("</value></property>\n");
    }
    return b.append("</configuration>\n").toString();
  }
}
