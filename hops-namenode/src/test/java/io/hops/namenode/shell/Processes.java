package io.hops.namenode.shell;

import io.hops.common.net.FreePorts;
import java.io.File;
import java.io.IOException;
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

  /** A port free now, outside the kernel's ephemeral range where it can ({@link FreePorts}). */
  public static int freePort() throws IOException {
    return FreePorts.pick();
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
